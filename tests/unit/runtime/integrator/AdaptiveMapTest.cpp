//===- tests/unit/runtime/integrator/AdaptiveMapTest.cpp - The VEGAS map --===//
//
// AdaptiveMap: the map and its inverse, the Jacobian, training and
// re-gridding (ALGORITHM.md sections 1 and 3). Seeds are fixed; statistical
// checks are stated in units of the estimated sigma.
//
//===----------------------------------------------------------------------===//
#include "integrator/AdaptiveMap.h"

#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <vector>

using vf::AdaptiveMap;

namespace {

/// One training pass on axis 0 of a 1-D map: n uniform y, accumulating
/// (jac f)^2 per increment; returns the Monte Carlo mean and sigma of jac f.
template <typename F>
std::pair<double, double> trainOnce(AdaptiveMap &Map, F &&Fn, int N,
                                    std::mt19937_64 &Gen) {
  std::uniform_real_distribution<double> U(0.0, 1.0);
  double Sum = 0, SumSq = 0;
  for (int J = 0; J < N; ++J) {
    double Y = U(Gen), X;
    double Jac = Map.map(&Y, &X);
    double V = Jac * Fn(X);
    unsigned Inc = std::min(unsigned(Y * Map.ninc()), Map.ninc() - 1);
    Map.addTrainingData(0, Inc, V * V, 1.0);
    Sum += V;
    SumSq += V * V;
  }
  double Mean = Sum / N;
  return {Mean, std::sqrt((SumSq / N - Mean * Mean) / (N - 1))};
}

double gaussPeak(double X) { return std::exp(-200 * (X - 0.3) * (X - 0.3)); }

/// A 1-D map adapted to gaussPeak.
AdaptiveMap peakedMap(unsigned Ninc = 50) {
  AdaptiveMap Map(1, Ninc);
  std::mt19937_64 Gen(1234);
  for (int It = 0; It < 10; ++It) {
    trainOnce(Map, gaussPeak, 20000, Gen);
    Map.adapt();
  }
  return Map;
}

/// AdaptiveMap(dim, ninc) starts uniform: edges k/ninc, map(y) = y, jac = 1.
TEST(AdaptiveMapTest, UniformIsIdentity) {
  AdaptiveMap Map(3, 7);
  EXPECT_EQ(Map.edges().size(), 3u * 8u);
  for (unsigned D = 0; D < 3; ++D) {
    EXPECT_EQ(Map.edge(D, 0), 0.0);
    EXPECT_EQ(Map.edge(D, 7), 1.0);
  }
  std::mt19937_64 Gen(1);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (int J = 0; J < 1000; ++J) {
    double Y[3] = {U(Gen), U(Gen), U(Gen)}, X[3];
    double Jac = Map.map(Y, X);
    EXPECT_NEAR(Jac, 1.0, 1e-13);
    for (unsigned D = 0; D < 3; ++D)
      EXPECT_NEAR(X[D], Y[D], 1e-15);
  }
}

/// map(y) at y = 1 (which (k + u)/M can round to) stays in the last
/// increment and returns the upper end.
TEST(AdaptiveMapTest, MapClampsYEqualOne) {
  AdaptiveMap Map = peakedMap();
  double Y = 1.0, X;
  double Jac = Map.map(&Y, &X);
  EXPECT_EQ(X, 1.0);
  EXPECT_EQ(Jac, Map.ninc() *
                     (Map.edge(0, Map.ninc()) - Map.edge(0, Map.ninc() - 1)));
}

/// invmap(map(y)) = y and both report the same jac, on an adapted map.
TEST(AdaptiveMapTest, MapInvmapRoundTrip) {
  AdaptiveMap Map1 = peakedMap();
  // A 2-D map: axis 0 adapted as Map1, axis 1 uniform.
  AdaptiveMap Map(2, Map1.ninc());
  std::vector<double> Sums(2 * Map.ninc(), 0.0), Counts(2 * Map.ninc(), 0.0);
  std::mt19937_64 Gen(7);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  for (int It = 0; It < 5; ++It) {
    for (int J = 0; J < 20000; ++J) {
      double Y[2] = {U(Gen), U(Gen)}, X[2];
      double V = Map.map(Y, X) * gaussPeak(X[0]) * (1 + X[1] * X[1]);
      for (unsigned D = 0; D < 2; ++D) {
        unsigned I = std::min(unsigned(Y[D] * Map.ninc()), Map.ninc() - 1);
        Sums[D * Map.ninc() + I] += V * V;
        Counts[D * Map.ninc() + I] += 1;
      }
    }
    Map.addTrainingData(Sums, Counts);
    std::fill(Sums.begin(), Sums.end(), 0.0);
    std::fill(Counts.begin(), Counts.end(), 0.0);
    Map.adapt();
  }
  for (int J = 0; J < 10000; ++J) {
    double Y[2] = {U(Gen), U(Gen)}, X[2], Y2[2];
    double Jac = Map.map(Y, X);
    double Jac2 = Map.invmap(X, Y2);
    EXPECT_NEAR(Y2[0], Y[0], 1e-12);
    EXPECT_NEAR(Y2[1], Y[1], 1e-12);
    EXPECT_NEAR(Jac2 / Jac, 1.0, 1e-12);
  }
}

/// The Jacobian of an adapted map integrates to the volume: the mean of jac
/// over the increments' midpoints in y is 1 (exactly, up to rounding), and
/// Monte Carlo with jac f reproduces a known integral within 5 sigma.
TEST(AdaptiveMapTest, JacobianIntegratesToVolume) {
  AdaptiveMap Map = peakedMap();
  double Sum = 0;
  for (unsigned I = 0; I < Map.ninc(); ++I) {
    double Y = (I + 0.5) / Map.ninc(), X;
    Sum += Map.map(&Y, &X);
  }
  EXPECT_NEAR(Sum / Map.ninc(), 1.0, 1e-12);

  // int_0^1 x^2 dx = 1/3 through the peaked (badly suited) map.
  std::mt19937_64 Gen(99);
  auto [Mean, Sigma] = trainOnce(
      Map, [](double X) { return X * X; }, 200000, Gen);
  EXPECT_NEAR(Mean, 1.0 / 3, 5 * Sigma);
}

/// adapt() on a Gaussian peak at 0.3 concentrates increments there and cuts
/// the Monte Carlo error of jac f by a large factor.
TEST(AdaptiveMapTest, AdaptConcentratesOnPeak) {
  AdaptiveMap Uniform(1, 50);
  AdaptiveMap Map = peakedMap(50);
  // Increment widths near the peak are far smaller than in the tail.
  double XPeak = 0.3, XTail = 0.9, YPeak, YTail;
  double JacPeak = Map.invmap(&XPeak, &YPeak);
  double JacTail = Map.invmap(&XTail, &YTail);
  EXPECT_LT(JacPeak * 5, JacTail);
  // Most increments lie within 3 widths (sigma = 0.05) of the peak.
  unsigned Near = 0;
  for (unsigned I = 0; I < Map.ninc(); ++I) {
    double Mid = (Map.edge(0, I) + Map.edge(0, I + 1)) / 2;
    Near += std::fabs(Mid - 0.3) < 0.15;
  }
  EXPECT_GT(Near, Map.ninc() * 7 / 10);
  // Error of the estimate: adapted much smaller than uniform.
  std::mt19937_64 Gen(5);
  auto [MeanU, SigmaU] = trainOnce(Uniform, gaussPeak, 100000, Gen);
  auto [MeanA, SigmaA] = trainOnce(Map, gaussPeak, 100000, Gen);
  double Exact =
      std::sqrt(M_PI / 200) * 0.5 *
      (std::erf(0.7 * std::sqrt(200.0)) + std::erf(0.3 * std::sqrt(200.0)));
  EXPECT_NEAR(MeanU, Exact, 5 * SigmaU);
  EXPECT_NEAR(MeanA, Exact, 5 * SigmaA);
  EXPECT_LT(SigmaA * 5, SigmaU);
}

/// adapt(alpha) on a hand example: ninc = 2, averages {1, 0}, both sampled.
/// Smoothing gives {7/8, 1/8}; damping with alpha = 1 gives
/// D0 = (1 - 7/8)/ln(8/7) for the increment with data. The other saw only
/// f = 0: it is empty and gets the floor instead of the smoothing, one new
/// increment's weight D0 / 2 (it lies within the core, w_n = 1/2, of the
/// data), so the middle edge sits where the running sum reaches
/// (D0 + D0 / 2) / 2: at 3/4 of the first increment.
TEST(AdaptiveMapTest, AdaptHandExample) {
  AdaptiveMap Map(1, 2);
  Map.addTrainingData(0, 0, 4.0, 2.0); // Average 2 ...
  Map.addTrainingData(0, 1, 0.0, 3.0); // ... and 0.
  Map.adapt(1.0);
  EXPECT_NEAR(Map.edge(0, 1), 0.375, 1e-15);
  EXPECT_EQ(Map.edge(0, 0), 0.0);
  EXPECT_EQ(Map.edge(0, 2), 1.0);
}

/// An increment that no sample reached, between increments with data, is
/// not empty: it keeps Lepage's smoothing (1/8 of each neighbour), so with
/// averages {1, -, 1} it gets damp(1/4 of a neighbour's share) and the
/// grid stays symmetric.
TEST(AdaptiveMapTest, UnsampledIncrementKeepsSmoothing) {
  AdaptiveMap Map(1, 3);
  Map.addTrainingData(0, 0, 1.0, 1.0);
  Map.addTrainingData(0, 2, 1.0, 1.0);
  Map.adapt(1.0);
  auto Damp = [](double R) { return (1 - R) / std::log(1 / R); };
  double Ends = Damp(7.0 / 16), Mid = Damp(2.0 / 16);
  double Third = (2 * Ends + Mid) / 3;
  EXPECT_NEAR(Map.edge(0, 1), Third / Ends / 3, 1e-15);
  EXPECT_NEAR(Map.edge(0, 2), 1 - Third / Ends / 3, 1e-15);
}

/// adapt() with equal averages everywhere keeps a uniform grid.
TEST(AdaptiveMapTest, FlatTrainingKeepsUniform) {
  AdaptiveMap Map(1, 10);
  for (unsigned I = 0; I < 10; ++I)
    Map.addTrainingData(0, I, 3.0 * (I + 1), I + 1.0);
  Map.adapt();
  for (unsigned K = 0; K <= 10; ++K)
    EXPECT_NEAR(Map.edge(0, K), K / 10.0, 1e-15);
}

/// adapt() leaves an axis with zero training sum exactly as it was, while
/// the other axes adapt; then clear()s the data.
TEST(AdaptiveMapTest, ZeroSumAxisUnchanged) {
  AdaptiveMap Map(2, 20);
  // Make both axes non-uniform first.
  for (unsigned D = 0; D < 2; ++D)
    for (unsigned I = 0; I < 20; ++I)
      Map.addTrainingData(D, I, 1.0 + I * (D + 1), 1.0);
  Map.adapt();
  std::vector<double> Before(Map.edges().begin(), Map.edges().end());
  // Now train only axis 0.
  for (unsigned I = 0; I < 20; ++I)
    Map.addTrainingData(0, I, I < 5 ? 10.0 : 0.0, 1.0);
  Map.adapt();
  for (unsigned K = 0; K <= 20; ++K)
    EXPECT_EQ(Map.edge(1, K), Before[21 + K]) << "edge " << K;
  EXPECT_NE(Map.edge(0, 10), Before[10]);
  for (double S : Map.trainingSums())
    EXPECT_EQ(S, 0.0);
}

/// clear() forgets the training data: a following adapt() changes nothing.
TEST(AdaptiveMapTest, ClearForgetsTraining) {
  AdaptiveMap Map = peakedMap();
  std::vector<double> Before(Map.edges().begin(), Map.edges().end());
  Map.addTrainingData(0, 3, 100.0, 1.0);
  Map.clear();
  Map.adapt();
  EXPECT_EQ(std::vector<double>(Map.edges().begin(), Map.edges().end()),
            Before);
}

/// addTrainingData(sums, counts) in bulk equals the per-increment form.
TEST(AdaptiveMapTest, BulkTrainingEqualsSingle) {
  AdaptiveMap A(2, 5), B(2, 5);
  std::vector<double> Sums(10), Counts(10);
  for (unsigned J = 0; J < 10; ++J) {
    Sums[J] = 1.0 + J * J;
    Counts[J] = 1.0 + J % 3;
    B.addTrainingData(J / 5, J % 5, Sums[J], Counts[J]);
  }
  A.addTrainingData(Sums, Counts);
  A.adapt();
  B.adapt();
  EXPECT_EQ(std::vector<double>(A.edges().begin(), A.edges().end()),
            std::vector<double>(B.edges().begin(), B.edges().end()));
}

/// adapt(alpha, newNinc) changes the number of increments; without
/// training the map (here uniform) is re-sampled, not changed.
TEST(AdaptiveMapTest, AdaptChangesNinc) {
  AdaptiveMap Map(2, 10);
  Map.adapt(0.5, 25);
  EXPECT_EQ(Map.ninc(), 25u);
  EXPECT_EQ(Map.edges().size(), 2u * 26u);
  EXPECT_EQ(Map.trainingSums().size(), 2u * 25u);
  for (unsigned D = 0; D < 2; ++D)
    for (unsigned K = 0; K <= 25; ++K)
      EXPECT_NEAR(Map.edge(D, K), K / 25.0, 1e-15);
}

/// chooseNinc(neval, nstrat): min(1000, max(2, neval/10)), a multiple of
/// nstrat when nstrat fits.
TEST(AdaptiveMapTest, ChooseNinc) {
  EXPECT_EQ(AdaptiveMap::chooseNinc(1000000, 1), 1000u);
  EXPECT_EQ(AdaptiveMap::chooseNinc(5000, 1), 500u);
  EXPECT_EQ(AdaptiveMap::chooseNinc(5000, 7), 497u);
  EXPECT_EQ(AdaptiveMap::chooseNinc(10, 1), 2u);
  EXPECT_EQ(AdaptiveMap::chooseNinc(1000000, 22), 990u);
  EXPECT_EQ(AdaptiveMap::chooseNinc(1000000, 5000), 1000u);
}

} // namespace

/// A step where the integrand is largest (f = e^{4x} for x < 0.589, 0
/// beyond): the increment straddling the step must keep shrinking rather
/// than swell over the empty region, where a rare sample of the large f
/// would get a huge weight; the empty region keeps a few increments and
/// none of zero width piles up at its end.
TEST(AdaptiveMapTest, StepAtMaximumStaysResolved) {
  auto Step = [](double X) { return X < 0.589 ? std::exp(4 * X) : 0.0; };
  AdaptiveMap Map(1, 200);
  std::mt19937_64 Gen(7);
  for (int It = 0; It < 15; ++It) {
    trainOnce(Map, Step, 20000, Gen);
    Map.adapt();
  }
  unsigned Empty = 0, ZeroWidth = 0;
  double Straddle = 0;
  for (unsigned I = 0; I < Map.ninc(); ++I) {
    double Lo = Map.edge(0, I), Hi = Map.edge(0, I + 1);
    Empty += Lo >= 0.589;
    ZeroWidth += Hi == Lo;
    if (Lo < 0.589 && Hi >= 0.589)
      Straddle = Hi - Lo;
  }
  EXPECT_LT(Straddle, 0.02);
  EXPECT_GE(Empty, 1u);
  EXPECT_LT(Empty, Map.ninc() / 10);
  EXPECT_EQ(ZeroWidth, 0u);
}

// The warm-up's exponent: never below WarmupAlpha, the user's when larger,
// and alpha = 0 (a frozen map) stays frozen through the warm-up.
TEST(AdaptiveMapTest, WarmupAlpha) {
  EXPECT_EQ(AdaptiveMap::warmupAlpha(0), 0.0);
  EXPECT_EQ(AdaptiveMap::warmupAlpha(0.1), AdaptiveMap::WarmupAlpha);
  EXPECT_EQ(AdaptiveMap::warmupAlpha(AdaptiveMap::DefaultAlpha),
            AdaptiveMap::WarmupAlpha);
  EXPECT_EQ(AdaptiveMap::warmupAlpha(1.5), 1.5);
}
