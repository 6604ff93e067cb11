//===- tests/unit/math/MathAccuracyFTest.cpp - vf_*f against MPFR ---------===//
//
// As MathAccuracyTest.cpp for the single-precision functions: a seeded
// sample over each domain plus special values must stay within the
// function's bound in float ulps, and every input whose exact result is a
// float must give it bit for bit. VF_MATH_POINTS samples more;
// bench/math/math_accuracy f32 runs the full sweep.
//
//===----------------------------------------------------------------------===//

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

class MathAccuracyF : public ::testing::TestWithParam<FunctionSpecF> {};

TEST_P(MathAccuracyF, WithinUlpBound) {
  const FunctionSpecF &F = GetParam();
  Measurement M = measureF(F, pointsPerDomain(), /*Seed=*/20261205);
  EXPECT_LE(M.MaxUlp, F.MaxUlp)
      << F.Name << "f: " << M.MaxUlp << " ulp at x = " << std::hexfloat
      << M.WorstX << ", y = " << M.WorstY;
  EXPECT_EQ(M.ExactMisses, 0u)
      << F.Name << "f: exact result missed, first at x = " << std::hexfloat
      << M.MissX << ", y = " << M.MissY;
  RecordProperty("max_ulp", std::to_string(M.MaxUlp));
}

INSTANTIATE_TEST_SUITE_P(AllFunctions, MathAccuracyF,
                         ::testing::ValuesIn(allFunctionsF()),
                         [](const ::testing::TestParamInfo<FunctionSpecF> &I) {
                           return std::string(I.param.Name) + "f";
                         });

} // namespace
