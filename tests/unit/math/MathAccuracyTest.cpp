//===- tests/unit/math/MathAccuracyTest.cpp - vf_* against MPFR -----------===//
//
// For every function of the math library (the native build of the same C
// sources the bitcode comes from): a seeded sample over each input domain,
// uniform in value and in exponent, plus special values, must stay within
// the function's ulp bound, and every input whose exact result is a double
// (exp(0) = 1, log(1) = 0, sin(-0) = -0, infinities, NaN, ...) must give it
// bit for bit. The sample is small so that CI stays fast; set
// VF_MATH_POINTS to sample more, or run bench/math/math_accuracy for the
// full sweep. MathAccuracyF does the same for the single-precision vf_*f,
// in float ulps.
//
//===----------------------------------------------------------------------===//

#include "MathReference.h"
#include "MathReferenceF.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace vf::mathtest;

namespace {

uint64_t pointsPerDomain() {
  if (const char *S = std::getenv("VF_MATH_POINTS"))
    return std::strtoull(S, nullptr, 10);
  return 3000;
}

/// \p M of function \p Name within \p MaxUlp, no exact result missed.
void expectWithinBound(const std::string &Name, const Measurement &M,
                       double MaxUlp) {
  EXPECT_LE(M.MaxUlp, MaxUlp)
      << Name << ": " << M.MaxUlp << " ulp at x = " << std::hexfloat << M.WorstX
      << ", y = " << M.WorstY;
  EXPECT_EQ(M.ExactMisses, 0u)
      << Name << ": exact result missed, first at x = " << std::hexfloat
      << M.MissX << ", y = " << M.MissY;
  ::testing::Test::RecordProperty("max_ulp", std::to_string(M.MaxUlp));
}

class MathAccuracy : public ::testing::TestWithParam<FunctionSpec> {};

TEST_P(MathAccuracy, WithinUlpBound) {
  const FunctionSpec &F = GetParam();
  expectWithinBound(F.Name, measure(F, pointsPerDomain(), /*Seed=*/20260101),
                    F.MaxUlp);
}

class MathAccuracyF : public ::testing::TestWithParam<FunctionSpecF> {};

TEST_P(MathAccuracyF, WithinUlpBound) {
  const FunctionSpecF &F = GetParam();
  expectWithinBound(std::string(F.Name) + "f",
                    measureF(F, pointsPerDomain(), /*Seed=*/20261205),
                    F.MaxUlp);
}

INSTANTIATE_TEST_SUITE_P(
    AllFunctions, MathAccuracy, ::testing::ValuesIn(allFunctions()),
    [](const ::testing::TestParamInfo<FunctionSpec> &I) {
      return std::string(I.param.Name);
    });

INSTANTIATE_TEST_SUITE_P(AllFunctions, MathAccuracyF,
                         ::testing::ValuesIn(allFunctionsF()),
                         [](const ::testing::TestParamInfo<FunctionSpecF> &I) {
                           return std::string(I.param.Name) + "f";
                         });

} // namespace
