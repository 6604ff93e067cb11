//===- tests/unit/driver/PointSeedTest.cpp - The seeds of a scan's points -===//
//
// pointSeed() is documented (docs/user-guide.md, "Seeds of a scan"), so
// that anyone can compute a point's seed: its values are pinned here,
// with the properties the documentation promises: every seed a valid one
// (0 to 2^63 - 1), and no two points of one scan with the same seed.
//
//===----------------------------------------------------------------------===//

#include "vegasc/PointSeed.h"

#include "vf/Options.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

using namespace vf;

// The documented formula's values; the user guide's Python lines give
// the same.
TEST(PointSeed, PinnedValues) {
  EXPECT_EQ(pointSeed(1, 0), 1591557128127333660u);
  EXPECT_EQ(pointSeed(1, 1), 1143138129559350984u);
  EXPECT_EQ(pointSeed(1, 2), 7142614363553144680u);
  EXPECT_EQ(pointSeed(1, 20), 4643963401458726409u);
  EXPECT_EQ(pointSeed(MaxSeed, 5), 2927514691426495491u);
}

// Seeds, indices and results at the ends of their ranges stay seeds a run
// accepts.
TEST(PointSeed, WithinTheSeedRange) {
  EXPECT_EQ(SeedMask, MaxSeed);
  for (std::uint64_t Seed : {std::uint64_t(0), std::uint64_t(1), MaxSeed})
    for (std::uint64_t I :
         {std::uint64_t(0), std::uint64_t(1), MaxSeed, ~std::uint64_t(0)})
      EXPECT_LE(pointSeed(Seed, I), MaxSeed) << Seed << " " << I;
}

// Two points of a scan never share a seed (a bijection of distinct
// arguments); checked on the first 2^20 points of a few seeds, and for
// the scans of neighbouring seeds, which are not each other shifted.
TEST(PointSeed, DistinctPerScan) {
  for (std::uint64_t Seed :
       {std::uint64_t(0), std::uint64_t(1), std::uint64_t(2), MaxSeed}) {
    std::vector<std::uint64_t> S;
    for (std::uint64_t I = 0; I < (1u << 20); ++I)
      S.push_back(pointSeed(Seed, I));
    std::sort(S.begin(), S.end());
    EXPECT_EQ(std::adjacent_find(S.begin(), S.end()), S.end()) << Seed;
  }
  EXPECT_NE(pointSeed(1, 1), pointSeed(2, 0));
  EXPECT_NE(pointSeed(1, 0), pointSeed(2, 0));
}
