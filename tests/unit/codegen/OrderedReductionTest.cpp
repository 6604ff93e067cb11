//===- tests/unit/codegen/OrderedReductionTest.cpp - sum() loops vectorize ===//
//
// A long `sum(j in 0..N: ...)` with a math call in its body (ridge4's
// shape) is vectorized as an in-order reduction (optimizeModule turns on
// LLVM's ordered reductions): the body runs for several j at once and the
// terms are added one after another in j's order. These tests check that
// the optimized host IR holds such a reduction, and that the JIT results
// equal, bit for bit, the same sum written out in C++ over the native math
// library, in the same order. A reassociated (tree) reduction would miss
// in the last bits at most points.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "vfmath.h"

#include <gtest/gtest.h>

#include <cstring>
#include <random>

using namespace vf;
using namespace vf::test;

namespace {

const char *const Source = R"(
param k = 30
integrand ridge(x in [0, 1]^3) =
    sum(j in 0..301: exp(-k * sum(i in 0..3: (x[i] - j / 299)^2)))
)";

// The integrand in C++, term by term in the order of the source.
double ridge(const double *X, double K) {
  double Acc = 0.0;
  for (int J = 0; J < 301; ++J) {
    double S = 0.0;
    for (int I = 0; I < 3; ++I) {
      double D = X[I] - static_cast<double>(J) / 299.0;
      S = S + D * D;
    }
    Acc = Acc + vf_exp(-K * S);
  }
  return Acc;
}

class OrderedReductionTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    std::string Errors;
    P = loadProgram(Source, &Errors);
    ASSERT_TRUE(P) << Errors;
    O.UseCache = false;
  }

  std::unique_ptr<Compiler> TheCompiler;
  std::unique_ptr<Program> P;
  CompileOptions O;
};

TEST_F(OrderedReductionTest, SumLoopIsAnInOrderVectorReduction) {
  auto IR = TheCompiler->emitText(*P, EmitKind::LLVM, O);
  ASSERT_TRUE(static_cast<bool>(IR)) << llvm::toString(IR.takeError());
  EXPECT_NE(IR->find("@llvm.vector.reduce.fadd.v"), std::string::npos)
      << "the sum over j was not vectorized";
}

TEST_F(OrderedReductionTest, VectorSumEqualsScalarSumBitForBit) {
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  const CompiledIntegrand *CI = (*CM)->find("ridge");
  ASSERT_NE(CI, nullptr);
  const int64_t N = 257;
  std::mt19937_64 Rng(7);
  std::vector<double> Xs(N * 3), Out(N, -1.0);
  for (double &X : Xs)
    X = static_cast<double>(Rng() >> 11) * 0x1p-53;
  std::vector<double> Params = P->defaultParams();
  CI->Batch(Xs.data(), N, Params.data(), Out.data());
  unsigned Bad = 0;
  for (int64_t I = 0; I < N && Bad < 10; ++I) {
    double Want = ridge(&Xs[I * 3], Params[0]);
    if (std::memcmp(&Want, &Out[I], sizeof Want) != 0) {
      ++Bad;
      ADD_FAILURE() << "point " << I << ": JIT " << std::hexfloat << Out[I]
                    << ", in order " << Want << " ("
                    << ulpDistance(Out[I], Want) << " ulp apart)";
    }
  }
}

} // namespace
