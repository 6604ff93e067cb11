//===- ChannelWeightsTest.cpp - How channels share samples ----------------===//

#include "integrator/ChannelWeights.h"

#include <gtest/gtest.h>

#include <cmath>
#include <numeric>

using namespace vf;

namespace {

const std::vector<double> Half{0.5, 0.5};

double sum(const std::vector<double> &V) {
  return std::accumulate(V.begin(), V.end(), 0.0);
}

} // namespace

/// Without alpha() calls, the weights follow sigma_i = sqrt(n_i V_i) (the
/// variance-optimal share), floored.
TEST(ChannelWeights, SigmaRuleGivesSharesProportionalToSigma) {
  // sigma = sqrt(100 * 0.09) = 3 and sqrt(100 * 0.01) = 1.
  const std::vector<ChannelMoments> M{{100, 5, 0.09}, {100, 1, 0.01}};
  const std::vector<double> Old{0.5, 0.5};
  std::vector<double> A = nextChannelWeights(M, Old, false, 0);
  EXPECT_NEAR(A[0], 0.75, 1e-12);
  EXPECT_NEAR(A[1], 0.25, 1e-12);
  // With the floor f = 0.05: f + (1 - 2 f) a.
  A = nextChannelWeights(M, Old, false, 0.05);
  EXPECT_NEAR(A[0], 0.05 + 0.9 * 0.75, 1e-12);
  EXPECT_NEAR(sum(A), 1, 1e-15);
}

/// With alpha() calls: alpha_i W_i^(1/2) = sqrt(n_i V_i + I_i^2) (the
/// Kleiss-Pittau update), so a channel of no variance still keeps the
/// share its integral asks for.
TEST(ChannelWeights, KleissPittauRuleCountsTheIntegral) {
  const std::vector<ChannelMoments> M{{100, 3, 0.0}, {100, 0, 0.16}};
  const std::vector<double> A = nextChannelWeights(M, Half, true, 0);
  // sqrt(9) = 3 and sqrt(16) = 4.
  EXPECT_NEAR(A[0], 3.0 / 7, 1e-12);
  EXPECT_NEAR(A[1], 4.0 / 7, 1e-12);
  // The sigma rule would starve the exact channel down to the floor.
  const std::vector<double> S = nextChannelWeights(M, Half, false, 0.05);
  EXPECT_DOUBLE_EQ(S[0], 0.05);
}

/// Rounding noise in the inputs (another reduction order) cannot move the
/// weights: they come from 40-bit roundings.
TEST(ChannelWeights, NoiseBelowFortyBitsLeavesTheWeights) {
  const std::vector<ChannelMoments> M{{1000, 2, 1e-3}, {3000, 1, 2e-4}};
  std::vector<ChannelMoments> N = M;
  N[0].Variance = std::nextafter(N[0].Variance, 1.0);
  N[1].Mean = std::nextafter(N[1].Mean, 0.0);
  EXPECT_EQ(nextChannelWeights(M, Half, true, 0.05),
            nextChannelWeights(N, Half, true, 0.05));
}

/// All-zero or non-finite measurements keep the weights as they were.
TEST(ChannelWeights, NothingMeasuredKeepsTheWeights) {
  const std::vector<double> Old{0.3, 0.7};
  EXPECT_EQ(
      nextChannelWeights(std::vector<ChannelMoments>{{10, 0, 0}, {10, 0, 0}},
                         Old, false, 0.05),
      Old);
  EXPECT_EQ(nextChannelWeights(
                std::vector<ChannelMoments>{{10, 1, INFINITY}, {10, 1, 1}}, Old,
                false, 0.05),
            Old);
}

/// Fixed weights are normalised; a channel's strata stay while its share
/// is within a factor of two of what they were sized for.
TEST(ChannelWeights, FixedWeightsSharesAndStrata) {
  IntegratorOptions O;
  EXPECT_EQ(initialChannelWeights(O, 4), std::vector<double>(4, 0.25));
  EXPECT_DOUBLE_EQ(channelFloor(O, 4), 0.025);
  O.ChannelFloor = 0.2;
  EXPECT_DOUBLE_EQ(channelFloor(O, 4), 0.2);
  O.ChannelWeights = {1, 3};
  EXPECT_EQ(initialChannelWeights(O, 2), (std::vector<double>{0.25, 0.75}));
  EXPECT_EQ(channelCalls(0.25, 1000), 250u);
  EXPECT_EQ(channelCalls(1e-9, 1000), 2u); // every hypercube has two
  EXPECT_TRUE(strataFit(1000, 500));
  EXPECT_TRUE(strataFit(1000, 2000));
  EXPECT_FALSE(strataFit(1000, 499));
  EXPECT_FALSE(strataFit(1000, 2002));
}

/// Bad channel options name the option and what to do.
TEST(ChannelWeights, BadOptionsNameTheOption) {
  IntegratorOptions O;
  O.ChannelWeights = {1, 2, 3};
  Status S = checkChannelOptions(O, 2, "f");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(S.error().Option, "channel_weights");
  EXPECT_NE(S.message().find("one per channel"), std::string::npos);
  O.ChannelWeights = {1, -2};
  EXPECT_FALSE(bool(checkChannelOptions(O, 2, "f")));
  O.ChannelWeights = {1, 1};
  EXPECT_FALSE(bool(checkChannelOptions(O, 0, "f"))); // no channels
  O.ChannelWeights.clear();
  O.ChannelFloor = 0.5;
  S = checkChannelOptions(O, 2, "f");
  ASSERT_FALSE(bool(S));
  EXPECT_EQ(S.error().Option, "channel_floor");
  O.ChannelFloor = 0.2;
  EXPECT_TRUE(bool(checkChannelOptions(O, 2, "f")));
}
