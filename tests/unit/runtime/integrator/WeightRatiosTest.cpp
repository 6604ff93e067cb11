//===- tests/unit/runtime/integrator/WeightRatiosTest.cpp - Ratios --------===//
//
// addWeightRatios on hand-made cells (one iteration, so each cell's mean
// and error are its own): an entry exactly proportional to the central
// value has its factor as ratio and no error; an uncorrelated one the
// delta method's sqrt(V_k / I^2 + I_k^2 V / I^4); a central value of 0
// leaves the ratios undefined (NaN).
//
//===----------------------------------------------------------------------===//
#include "integrator/WeightRatios.h"

#include "integrator/HistogramAverage.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

/// Two entries' cells, their differences' and the central one, as
/// (I, V) pairs, combined over one iteration.
vf::HistogramAverage cellsOf(const std::vector<double> &Pairs) {
  vf::HistogramAverage A(unsigned(Pairs.size() / 2));
  A.add(Pairs, 1.0);
  return A;
}

const vf::WeightListSpec Two{
    .Name = "w", .Entries = 2, .Base = 0, .Differences = 2, .Central = 4};

/// Entry 0 = 1.5 f on every sample: I_k = 1.5 I, sigma_k = 1.5 sigma,
/// D = 0.5 I, sigma_D = 0.5 sigma. Entry 1 independent of f with the same
/// mean and error: V_D = V_k + V.
TEST(WeightRatiosTest, ProportionalAndIndependentEntries) {
  const double I = 2, V = 0.04;
  const vf::HistogramAverage A =
      cellsOf({1.5 * I, 2.25 * V, I, V, 0.5 * I, 0.25 * V, 0.0, 2 * V, I, V});
  vf::WeightListResult L;
  vf::addWeightRatios(A, Two, L);
  ASSERT_EQ(L.Ratios.size(), 2u);
  ASSERT_EQ(L.RatioErrors.size(), 2u);
  EXPECT_NEAR(L.Ratios[0], 1.5, 1e-15);
  // 0 but for the rounding of the variances, whose square root is about
  // sqrt(eps) of the entry's relative error.
  EXPECT_LT(L.RatioErrors[0], 1e-7 * std::sqrt(V) / I);
  EXPECT_NEAR(L.Ratios[1], 1.0, 1e-15);
  EXPECT_NEAR(L.RatioErrors[1],
              std::sqrt(V / (I * I) + I * I * V / (I * I * I * I)), 1e-15);
}

/// With a central value of 0 there is no ratio to give.
TEST(WeightRatiosTest, ZeroCentralValueGivesNaN) {
  const vf::HistogramAverage A =
      cellsOf({1, 0.1, 2, 0.1, 1, 0.1, 2, 0.1, 0, 0.1});
  vf::WeightListResult L;
  vf::addWeightRatios(A, Two, L);
  ASSERT_EQ(L.Ratios.size(), 2u);
  EXPECT_TRUE(std::isnan(L.Ratios[0]) && std::isnan(L.RatioErrors[1]));
}

} // namespace
