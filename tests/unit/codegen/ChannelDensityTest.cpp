//===- tests/unit/codegen/ChannelDensityTest.cpp - density(NAME, u) -------===//
//
// A channel's density(NAME, u) reads channel NAME's VEGAS map from the
// kernels' parameter block (the user's parameters, the weights, N, every
// channel's edges: RunState::kernelParams) and is, bit for bit,
// 1 / prod_d (N (e_{i+1} - e_i)) with e_i <= u_d < e_{i+1} (past
// zero-width increments, u_d = 1 in the last one), through the batch entry
// points and through the sampler's own code; the channels' sum (--eval)
// takes identity maps, density 1; vf::IntegrandInfo says which integrand
// needs the maps; and the GPU target lowers it.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "vf/Module.h"

#include <gtest/gtest.h>

#include <cstring>
#include <vector>

using namespace vf;
using namespace vf::test;

namespace {

const char *const Source = R"(
param p = 3
integrand dens(x in [0, 1]^2) -> [3] {
    channel a { return [density(a, x), density(b, x), p] }
    channel b { return [density(b, [1 - x[0], x[1]]), alpha(a), density(a, x)] }
}
integrand plain(x in [0, 1]^2) {
    channel c { return alpha(c) }
    channel d { return x[0] }
}
)";

constexpr unsigned Dim = 2, Ninc = 4;

/// Two non-uniform maps; channel b's axis 1 has a zero-width increment.
const std::vector<double> EdgesA = {0, 0.1, 0.3, 0.6, 1, 0, 0.5, 0.75, 0.9, 1};
const std::vector<double> EdgesB = {0, 0.4, 0.4, 0.7, 1, 0, 0.2, 0.2, 0.2, 1};

/// p, alpha_a, alpha_b, N, then the maps in channel order.
std::vector<double> block() {
  std::vector<double> B = {3, 0.25, 0.75, double(Ninc)};
  B.insert(B.end(), EdgesA.begin(), EdgesA.end());
  B.insert(B.end(), EdgesB.begin(), EdgesB.end());
  return B;
}

/// The definition: on each axis the last increment whose lower edge is at
/// most u (the first below the map's start), the Jacobians multiplied in
/// axis order, then inverted.
double density(const std::vector<double> &Edges, const double *U) {
  double Jac = 1;
  for (unsigned D = 0; D < Dim; ++D) {
    const double *E = Edges.data() + D * (Ninc + 1);
    unsigned I = 0;
    for (unsigned K = 1; K < Ninc; ++K)
      if (E[K] <= U[D])
        I = K;
    Jac *= double(Ninc) * (E[I + 1] - E[I]);
  }
  return 1 / Jac;
}

/// Points inside increments, on edges (the zero-width ones' included),
/// at both ends of the cube.
const std::vector<double> Points = {0.05, 0.6,  0.3, 0.2, 0.4, 0.95, 1,   1, 0,
                                    0,    0.65, 0.2, 0.7, 0.9, 0.99, 0.01};

class ChannelDensityTest : public ::testing::Test {
protected:
  void SetUp() override {
    P = loadProgram(Source);
    ASSERT_TRUE(P);
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    Opts.CacheDir = Dir.path();
  }

  std::unique_ptr<CompiledModule> compile(CompileOptions O) {
    auto CM = TheCompiler->compile(*P, O);
    EXPECT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
    return CM ? std::move(*CM) : nullptr;
  }

  TempDir Dir;
  std::unique_ptr<Program> P;
  std::unique_ptr<Compiler> TheCompiler;
  CompileOptions Opts;
};

TEST_F(ChannelDensityTest, ChannelTermsReadTheMapsFromTheBlock) {
  CompileOptions Sampling = Opts, Batch = Opts;
  Sampling.Evaluate = false;
  std::unique_ptr<CompiledModule> S = compile(Sampling), B = compile(Batch);
  ASSERT_TRUE(S && B);
  const std::vector<double> Block = block();
  const std::int64_t N = Points.size() / Dim;
  for (const CompiledModule *M : {S.get(), B.get()}) {
    const CompiledIntegrand *I = M->find("dens");
    ASSERT_TRUE(I && I->ChannelBatch.size() == 2);
    std::vector<double> A(3 * N), Bv(3 * N);
    I->ChannelBatch[0](Points.data(), N, Block.data(), A.data());
    I->ChannelBatch[1](Points.data(), N, Block.data(), Bv.data());
    for (std::int64_t K = 0; K < N; ++K) {
      const double *U = Points.data() + Dim * K;
      const double Flipped[Dim] = {1 - U[0], U[1]};
      SCOPED_TRACE(K);
      EXPECT_EQ(A[3 * K], density(EdgesA, U));
      EXPECT_EQ(A[3 * K + 1], density(EdgesB, U));
      EXPECT_EQ(A[3 * K + 2], 3.0);
      EXPECT_EQ(Bv[3 * K], density(EdgesB, Flipped));
      EXPECT_EQ(Bv[3 * K + 1], 0.25);
      EXPECT_EQ(Bv[3 * K + 2], density(EdgesA, U));
    }
  }
  // Spot values of the definition: (0.05, 0.6) lies in a's increments 0
  // and 1, (0.3, 0.2) in b's 0 and, past the zero-width ones, 3.
  EXPECT_EQ(density(EdgesA, Points.data()), 1 / ((4 * 0.1) * (4 * 0.25)));
  EXPECT_EQ(density(EdgesB, Points.data() + Dim),
            1 / ((4 * 0.4) * (4 * (1 - 0.2))));
}

// --eval's entry point takes the user's parameters alone: alpha = 1/2 and
// identity maps, whose density is 1.
TEST_F(ChannelDensityTest, TheChannelsSumTakesIdentityMaps) {
  std::unique_ptr<CompiledModule> B = compile(Opts);
  ASSERT_TRUE(B);
  const CompiledIntegrand *I = B->find("dens");
  ASSERT_TRUE(I && I->Batch);
  const double Param = 3;
  std::vector<double> Out(3 * 2);
  I->Batch(Points.data(), 2, &Param, Out.data());
  for (unsigned K = 0; K < 2; ++K) {
    EXPECT_EQ(Out[3 * K], 2.0);
    EXPECT_EQ(Out[3 * K + 1], 1.5);
    EXPECT_EQ(Out[3 * K + 2], 4.0);
  }
}

TEST_F(ChannelDensityTest, TheBindingSaysWhichIntegrandNeedsTheMaps) {
  CompileSettings Settings;
  Settings.CacheDir = Dir.path();
  auto M = Module::compileString(Source, "density.vf", Settings);
  ASSERT_TRUE(static_cast<bool>(M)) << M.error().Message;
  auto Dens = (*M)->integrand("dens"), Plain = (*M)->integrand("plain");
  ASSERT_TRUE(Dens && Plain);
  EXPECT_TRUE(Dens->ChannelDensityUsed);
  EXPECT_TRUE(Dens->ChannelWeightsUsed);
  EXPECT_FALSE(Plain->ChannelDensityUsed);
}

TEST_F(ChannelDensityTest, TheGpuTargetLowersIt) {
  CompileOptions O = Opts;
  O.Host = false;
  O.PTX = true;
  std::unique_ptr<CompiledModule> G = compile(O);
  ASSERT_TRUE(G);
  EXPECT_NE(G->PTX.find(".entry"), std::string::npos);
}

} // namespace
