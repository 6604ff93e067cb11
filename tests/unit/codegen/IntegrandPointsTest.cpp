//===- tests/unit/codegen/IntegrandPointsTest.cpp - f at given points -----===//
//
// A module compiled for integrating (CompileOptions::Evaluate off) has no
// batch entry point; its integrands are evaluated at given points through
// the sampler's own code (runtime/kernels/IntegrandPoints.c), compiled
// with it: the values are the batch entry point's, bit for bit, for scalar
// and vector integrands, with histograms, with math functions whose slow
// paths some points take, and for a multi-channel integrand (the sum of
// its channels at alpha = 1/m, from the user's parameters alone; each
// channel's term from the kernels' parameter block, with the weights).
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "vf/Module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace vf;
using namespace vf::test;

namespace {

// exp and log of arguments far out (slow paths), a vector integrand, a
// histogram (its cell is not a value).
const char *const Source = R"(
param a = 0.1
integrand peak(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
integrand wide(x in [0, 1]^3) = exp(800 * x[0] - 400) + log(x[1] * 1e-300)
integrand pair(x in [0, 1]^2) -> [2] {
  hist h(x[0], 0, 1, 10)
  return [x[0] * x[1], sin(30 * x[1])]
}
integrand chan(x in [0, 1]^2) {
  channel u { return exp(800 * x[0] - 400) * alpha(v) }
  channel v { return x[1] / alpha(u) }
}
integrand split(x in [0, 1]) {
  channel l { return x }
  channel r { return 1 - x }
}
)";

class IntegrandPointsTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    Opts.CacheDir = Dir.path();
  }

  std::unique_ptr<CompiledModule> compile(const Program &P, bool Evaluate) {
    CompileOptions O = Opts;
    O.Evaluate = Evaluate;
    auto CM = TheCompiler->compile(P, O);
    EXPECT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
    return CM ? std::move(*CM) : nullptr;
  }

  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
  CompileOptions Opts;
};

TEST_F(IntegrandPointsTest, IntegratingCompilesNoBatchEntryPoint) {
  std::unique_ptr<Program> P = loadProgram(Source);
  ASSERT_TRUE(P);
  std::unique_ptr<CompiledModule> CM = compile(*P, false);
  ASSERT_TRUE(CM);
  const CompiledIntegrand *I = CM->find("peak");
  ASSERT_NE(I, nullptr);
  EXPECT_NE(I->SampleTile, nullptr);
  EXPECT_NE(I->Batch, nullptr); // the sampler's, below
  EXPECT_EQ(I->Cells, nullptr);
  EXPECT_TRUE(I->GpuEvalKernel.empty());
  // Neither the sampler nor the batch entry asked: an error.
  CompileOptions O = Opts;
  O.Evaluate = O.Sampler = false;
  auto None = TheCompiler->compile(*P, O);
  ASSERT_FALSE(static_cast<bool>(None));
  llvm::consumeError(None.takeError());
}

TEST_F(IntegrandPointsTest, ValuesAreTheBatchEntryPointsBitForBit) {
  std::unique_ptr<Program> P = loadProgram(Source);
  ASSERT_TRUE(P);
  std::unique_ptr<CompiledModule> Sampled = compile(*P, false);
  std::unique_ptr<CompiledModule> Batch = compile(*P, true);
  ASSERT_TRUE(Sampled && Batch);
  std::mt19937_64 Rng(7);
  std::uniform_real_distribution<double> U(0, 1);
  const std::vector<double> Params = P->defaultParams();
  for (const char *Name : {"peak", "wide", "pair", "chan"}) {
    const CompiledIntegrand *S = Sampled->find(Name), *B = Batch->find(Name);
    ASSERT_TRUE(S && B && S->Batch && B->Batch) << Name;
    const std::int64_t N = 1000;
    std::vector<double> X(N * S->Dim);
    for (double &V : X)
      V = U(Rng);
    std::vector<double> Got(N * S->Outputs, -1), Want(N * S->Outputs, -2);
    S->Batch(X.data(), N, Params.data(), Got.data());
    B->Batch(X.data(), N, Params.data(), Want.data());
    EXPECT_EQ(std::memcmp(Got.data(), Want.data(), Got.size() * 8), 0) << Name;
  }
}

// A multi-channel integrand's terms at given points (EvaluateChannel) read
// the kernels' parameter block: the user's parameters, then the weights.
// The sampler's are the batch entry points', bit for bit.
TEST_F(IntegrandPointsTest, ChannelTermsReadTheWeightsAfterTheParameters) {
  std::unique_ptr<Program> P = loadProgram(Source);
  ASSERT_TRUE(P);
  std::unique_ptr<CompiledModule> Sampled = compile(*P, false);
  std::unique_ptr<CompiledModule> Batch = compile(*P, true);
  ASSERT_TRUE(Sampled && Batch);
  const CompiledIntegrand *S = Sampled->find("chan"), *B = Batch->find("chan");
  ASSERT_TRUE(S && B);
  ASSERT_EQ(S->ChannelBatch.size(), 2u);
  ASSERT_EQ(B->ChannelBatch.size(), 2u);
  EXPECT_TRUE(Sampled->find("peak")->ChannelBatch.empty());
  const std::vector<double> Block = {0.1, 0.3, 0.7}; // a, alpha_u, alpha_v
  const std::vector<double> X = {0.2, 0.9, 0.6, 0.25, 0.5001, 0.5};
  for (unsigned C = 0; C < 2; ++C) {
    std::vector<double> Got(3, -1), Want(3, -2);
    S->ChannelBatch[C](X.data(), 3, Block.data(), Got.data());
    B->ChannelBatch[C](X.data(), 3, Block.data(), Want.data());
    EXPECT_EQ(std::memcmp(Got.data(), Want.data(), Got.size() * 8), 0) << C;
    if (C == 1)
      for (unsigned N = 0; N < 3; ++N)
        EXPECT_EQ(Got[N], X[2 * N + 1] / 0.3) << N;
  }
  // Bound as vf::IntegrandInfo: the channels' names, whether a channel
  // reads alpha(), and the terms.
  CompileSettings Settings;
  Settings.CacheDir = Dir.path();
  auto M = Module::compileString(Source, "points.vf", Settings);
  ASSERT_TRUE(static_cast<bool>(M)) << M.error().Message;
  auto Chan = (*M)->integrand("chan"), Peak = (*M)->integrand("peak");
  ASSERT_TRUE(Chan && Peak);
  EXPECT_EQ(Chan->Channels, (std::vector<std::string>{"u", "v"}));
  EXPECT_TRUE(Chan->ChannelWeightsUsed);
  ASSERT_TRUE(static_cast<bool>(Chan->EvaluateChannel));
  double V = 0;
  Chan->EvaluateChannel(1, X.data(), 1, Block.data(), &V);
  EXPECT_EQ(V, X[1] / 0.3);
  auto Split = (*M)->integrand("split");
  ASSERT_TRUE(Split);
  EXPECT_FALSE(Split->ChannelWeightsUsed);
  EXPECT_TRUE(Peak->Channels.empty());
  EXPECT_FALSE(Peak->ChannelWeightsUsed);
  EXPECT_FALSE(static_cast<bool>(Peak->EvaluateChannel));
}

// An integrand the sampler cannot take still has Evaluate: vf::Module
// compiles its batch entry point with the module.
TEST_F(IntegrandPointsTest, AnIntegrandWithoutSamplerHasTheBatchEntryPoint) {
  CompileSettings S;
  S.CacheDir = Dir.path();
  // 20 outputs, above the sampler's 16: x[0] + k x[1] for k = 0..19.
  std::string Values;
  for (int K = 0; K < 20; ++K)
    Values += (K ? ", x[0] + " : "x[0] + ") + std::to_string(K) + " * x[1]";
  auto M = Module::compileString(
      "integrand big(x in [0, 1]^2) -> [20] = [" + Values + "]\n", "big.vf", S);
  ASSERT_TRUE(static_cast<bool>(M)) << M.error().Message;
  auto I = (*M)->integrand("big");
  ASSERT_TRUE(static_cast<bool>(I)) << I.error().Message;
  ASSERT_TRUE(static_cast<bool>(I->Evaluate));
  const std::vector<double> X = {0.25, 0.5};
  std::vector<double> F(20, 0);
  I->Evaluate(X.data(), 1, nullptr, F.data());
  for (int K = 0; K < 20; ++K)
    EXPECT_EQ(F[K], 0.25 + K * 0.5) << K;
}

} // namespace
