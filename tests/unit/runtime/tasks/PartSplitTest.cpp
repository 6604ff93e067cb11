//===- tests/unit/runtime/tasks/PartSplitTest.cpp - Part groups -----------===//
//
// partRange: equal and weighted splits tile [0, Groups) with parts of at
// least one group, weighted ones in proportion to the weights; more parts
// than groups and bad weights are errors saying why.
//
//===----------------------------------------------------------------------===//

#include "tasks/PartSplit.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>

using namespace vf;

namespace {
/// Every part's range, checked to tile [0, Groups) with non-empty parts.
std::vector<Cluster::Range> split(std::uint64_t Groups, std::uint64_t Count,
                                  const std::vector<double> &Weights) {
  std::vector<Cluster::Range> Out;
  std::uint64_t Next = 0;
  for (std::uint64_t I = 0; I < Count; ++I) {
    Expected<Cluster::Range> R = partRange(Groups, I, Count, Weights);
    EXPECT_TRUE(R) << (R ? "" : R.message());
    if (!R)
      return Out;
    EXPECT_EQ(R->Begin, Next) << "part " << I;
    EXPECT_LT(R->Begin, R->End) << "part " << I << " is empty";
    Next = R->End;
    Out.push_back(*R);
  }
  EXPECT_EQ(Next, Groups);
  return Out;
}

std::string error(std::uint64_t Groups, std::uint64_t Index,
                  std::uint64_t Count, std::vector<double> Weights = {}) {
  Expected<Cluster::Range> R = partRange(Groups, Index, Count, Weights);
  return R ? "" : R.message();
}
} // namespace

TEST(PartSplitTest, EqualPartsTileTheGroups) {
  for (std::uint64_t N : {1, 2, 3, 7, 64})
    split(64, N, {});
  std::vector<Cluster::Range> R = split(46, 3, {});
  EXPECT_EQ(R[1].Begin, 15u);
  EXPECT_EQ(R[2].Begin, 30u);
}

TEST(PartSplitTest, WeightsSetTheSizes) {
  std::vector<Cluster::Range> R = split(64, 2, {3, 1});
  EXPECT_EQ(R[0].End, 48u);
  R = split(64, 4, {1.5, 0.5, 1.5, 0.5});
  EXPECT_EQ(R[0].End - R[0].Begin, 24u);
  EXPECT_EQ(R[1].End - R[1].Begin, 8u);
  // A worker 10^9 times slower still gets one group; one per part at N = G.
  R = split(46, 3, {1, 1e-9, 1});
  EXPECT_EQ(R[1].End - R[1].Begin, 1u);
  split(7, 7, {5, 1, 1, 1, 1, 1, 9});
}

TEST(PartSplitTest, RandomWeightsAlwaysTile) {
  std::mt19937_64 Rng(7);
  std::lognormal_distribution<double> Rate(0, 2);
  for (int Trial = 0; Trial < 500; ++Trial) {
    std::uint64_t Groups = 1 + Rng() % 64, Count = 1 + Rng() % Groups;
    std::vector<double> W(Count);
    for (double &X : W)
      X = Rate(Rng);
    split(Groups, Count, W);
  }
}

TEST(PartSplitTest, TooManyPartsOrBadWeightsAreErrors) {
  EXPECT_NE(error(46, 0, 47).find("47 parts, but the state's next iteration "
                                  "has only 46 groups"),
            std::string::npos);
  EXPECT_NE(error(46, 0, 47).find("give at most 46 parts"), std::string::npos);
  EXPECT_NE(error(64, 3, 100, std::vector<double>(100, 1.0)).find("at most 64"),
            std::string::npos);
  EXPECT_NE(error(8, 2, 2).find("0 <= I < N"), std::string::npos);
  EXPECT_NE(error(8, 0, 2, {1}).find("1 weights for 2 parts"),
            std::string::npos);
  for (double Bad : {0.0, -1.0, std::nan(""), HUGE_VAL})
    EXPECT_NE(error(8, 0, 2, {1, Bad}).find("positive finite"),
              std::string::npos);
  EXPECT_NE(error(8, 0, 2, {1e308, 1e308}).find("add up"), std::string::npos);
}
