//===- tests/unit/runtime/output/HistogramAxisTest.cpp - Bin edges --------===//
//
// HistogramAxis::edges() (vf_hist_edge, HistogramCells.h): the double
// nearest each short decimal edge, the ends exactly the range, and a
// finite, increasing fallback where the exact form would overflow.
//
//===----------------------------------------------------------------------===//

#include "vf/Result.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vf;

/// A range written with short decimals gives the doubles nearest the
/// decimal edges: [-1, 1] in 20 bins has -0.3 as edge 7 (lo + (hi - lo) i
/// / n gives -0.30000000000000004), [-0.8, 0.8] in 8 has -0.6 (the plain
/// (lo (n - i) + hi i) / n is an ulp off), and every edge of [50, 150] in
/// 12, [-2.5, 2.5] in 50 and [0.05, 0.95] in 100 is the nearest double to
/// its exact value.
TEST(HistogramAxisTest, ShortDecimalEdgesAreTheNearestDoubles) {
  std::vector<double> E = HistogramAxis{-1, 1, 20}.edges();
  ASSERT_EQ(E.size(), 21u);
  for (int I = 0; I <= 20; ++I)
    EXPECT_EQ(E[I], (-10 + I) / 10.0) << "edge " << I;
  EXPECT_EQ(E[7], -0.3);
  EXPECT_EQ(
      HistogramAxis({-0.8, 0.8, 8}).edges(),
      (std::vector<double>{-0.8, -0.6, -0.4, -0.2, 0, 0.2, 0.4, 0.6, 0.8}));
  EXPECT_EQ(HistogramAxis({0.1, 0.5, 4}).edges(),
            (std::vector<double>{0.1, 0.2, 0.3, 0.4, 0.5}));
  std::vector<double> M = HistogramAxis{50, 150, 12}.edges();
  for (int I = 0; I <= 12; ++I)
    EXPECT_EQ(M[I], (600 + 100 * I) / 12.0) << "edge " << I;
  std::vector<double> R = HistogramAxis{-2.5, 2.5, 50}.edges();
  for (int I = 0; I <= 50; ++I)
    EXPECT_EQ(R[I], (-25 + I) / 10.0) << "edge " << I;
  // 0.05 + 0.009 i = (50 + 9 i) / 1000, one rounding.
  std::vector<double> D = HistogramAxis{0.05, 0.95, 100}.edges();
  for (int I = 0; I <= 100; ++I)
    EXPECT_EQ(D[I], (50 + 9 * I) / 1000.0) << "edge " << I;
}

/// Ends that are no short decimals (2 pi) keep (lo (n - i) + hi i) / n.
TEST(HistogramAxisTest, OtherRangesKeepTheDirectForm) {
  const double TwoPi = 6.283185307179586;
  std::vector<double> E = HistogramAxis{0, TwoPi, 12}.edges();
  for (int I = 1; I < 12; ++I)
    EXPECT_EQ(E[I], TwoPi * double(I) / 12.0) << "edge " << I;
}

/// Near the top of the doubles lo (n - i) overflows, and so would
/// (hi - lo) i: the edges fall back to lo + (hi - lo) / n i, finite and
/// increasing, ends exact.
TEST(HistogramAxisTest, HugeRangesFallBackAndStayIncreasing) {
  const HistogramAxis A{-1e308, 5e307, 4};
  std::vector<double> E = A.edges();
  EXPECT_EQ(E.front(), A.Lo);
  EXPECT_EQ(E.back(), A.Hi);
  for (std::size_t I = 1; I < E.size(); ++I) {
    EXPECT_TRUE(std::isfinite(E[I]));
    EXPECT_LT(E[I - 1], E[I]);
  }
}
