//===- tests/unit/runtime/integrator/StatsTest.cpp - Combining iterations -===//
//
// RAvg on hand examples, consistent and inconsistent data, zero variance
// and warm-up, and RAvgArray against RAvg and hand-computed covariance
// examples (ALGORITHM.md section 4). gammaQ/chi2Q have their own tests
// (IncompleteGammaTest.cpp).
//
//===----------------------------------------------------------------------===//
#include "integrator/Stats.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>
#include <vector>

using vf::chi2Q;
using vf::RAvg;
using vf::RAvgArray;

namespace {

/// RAvg::add on (1.0 +- 0.1), (1.2 +- 0.2): no iteration before the first,
/// so it is weighted by its own sigma; the second by the first's. Weights
/// 100 and 100: mean 1.1, sdev sqrt(100^2 (0.01 + 0.04)) / 200, chi2 =
/// 0.1^2 / 0.01 + 0.1^2 / 0.04 = 1.25, dof 1.
TEST(RAvgTest, WeightedMeanHandExample) {
  RAvg R;
  R.add(1.0, 0.1);
  R.add(1.2, 0.2);
  EXPECT_EQ(R.nitn(), 2u);
  EXPECT_NEAR(R.mean(), 1.1, 1e-15);
  EXPECT_NEAR(R.sdev(), std::sqrt(0.05) / 2, 1e-15);
  EXPECT_NEAR(R.chi2(), 1.25, 1e-14);
  EXPECT_EQ(R.dof(), 1u);
  EXPECT_NEAR(R.chi2dof(), 1.25, 1e-14);
  EXPECT_NEAR(R.Q(), std::erfc(std::sqrt(0.625)), 1e-13);
}

/// An iteration's own sigma does not weight it: (1 +- 1) then (0.5 +-
/// 0.01) average to 0.75 (weights 1 and 1, both from sigma_1), where
/// inverse-variance weights would give 0.50005. The third iteration takes
/// the second's sigma: (2 +- 1) gets weight 10^4, mean (0.75 * 2 + 2 *
/// 10^4) / (2 + 10^4).
TEST(RAvgTest, WeightFromThePreviousIteration) {
  RAvg R;
  R.add(1.0, 1.0);
  R.add(0.5, 0.01);
  EXPECT_NEAR(R.mean(), 0.75, 1e-15);
  EXPECT_NEAR(R.sdev(), std::sqrt(1 + 1e-4) / 2, 1e-15);
  R.add(2.0, 1.0);
  EXPECT_NEAR(R.mean(), (1.5 + 2e4) / (2 + 1e4), 1e-12);
  // Relative weights 1e-4, 1e-4, 1: sdev sqrt(1e-8 + 1e-12 + 1) / 1.0002.
  EXPECT_NEAR(R.sdev(), std::sqrt(1 + 1e-8 + 1e-12) / 1.0002, 1e-12);
}

/// Iterations whose estimate and error are correlated as a heavy tail
/// makes them (a low estimate has a small error): inverse-variance weights
/// are biased low by many sigma; weights from the previous iteration are
/// not. I_k = 1 + d_k, sigma_k = 0.05 (1 + 0.5 d_k / 0.1) with d_k uniform
/// in [-0.1, 0.1] (standard deviation 0.058).
TEST(RAvgTest, CorrelatedErrorsDoNotBias) {
  std::mt19937_64 Gen(11);
  std::uniform_real_distribution<double> U(-0.1, 0.1);
  double SumPull = 0;
  const int Runs = 200;
  for (int Run = 0; Run < Runs; ++Run) {
    RAvg R;
    for (int K = 0; K < 15; ++K) {
      double D = U(Gen);
      R.add(1 + D, 0.05 * (1 + 0.5 * D / 0.1));
    }
    SumPull += (R.mean() - 1) / R.sdev();
  }
  // 200 pulls of spread ~1: their mean has spread ~0.07 (0.25: 3.5 of
  // those). The inverse-variance mean of these iterations is -3.0 sigma
  // on average, this rule's -0.11 (a Python model of both, 2000 runs).
  EXPECT_NEAR(SumPull / Runs, 0.0, 0.25);
}

/// RAvg with one iteration: its value, chi2 = 0, dof = 0, Q = 1; with none:
/// NaN.
TEST(RAvgTest, OneAndNoIteration) {
  RAvg R;
  EXPECT_TRUE(std::isnan(R.mean()));
  EXPECT_TRUE(std::isnan(R.sdev()));
  R.add(3.5, 0.25);
  EXPECT_EQ(R.mean(), 3.5);
  EXPECT_EQ(R.sdev(), 0.25);
  EXPECT_EQ(R.chi2(), 0.0);
  EXPECT_EQ(R.dof(), 0u);
  EXPECT_EQ(R.chi2dof(), 0.0);
  EXPECT_EQ(R.Q(), 1.0);
}

/// RAvg::add(.., warmup = true) shows in the summary but not in the
/// average; only the last warm-up's sigma is used, as the weight of the
/// first measured iteration (here its own sigma, as without warm-up).
TEST(RAvgTest, WarmupExcluded) {
  RAvg With, Without;
  With.add(100.0, 1.0, /*warmup=*/true);
  With.add(7.0, 0.1, /*warmup=*/true);
  for (RAvg *R : {&With, &Without}) {
    R->add(1.0, 0.1);
    R->add(1.1, 0.1);
    R->add(0.95, 0.2);
  }
  EXPECT_EQ(With.nitn(), 3u);
  EXPECT_EQ(With.mean(), Without.mean());
  EXPECT_EQ(With.sdev(), Without.sdev());
  EXPECT_EQ(With.chi2(), Without.chi2());
  EXPECT_EQ(With.Q(), Without.Q());
  ASSERT_EQ(With.summary().size(), 5u);
  EXPECT_TRUE(With.summary()[0].warmup);
  EXPECT_TRUE(With.summary()[1].warmup);
  EXPECT_FALSE(With.summary()[2].warmup);
  EXPECT_TRUE(std::isnan(With.summary()[1].avgMean));
  EXPECT_EQ(With.summary()[2].avgMean, 1.0);
}

/// RAvg::summary rows carry each iteration and the running average after
/// it.
TEST(RAvgTest, SummaryRows) {
  RAvg R, Ref;
  const double Means[] = {2.0, 2.1, 1.9, 2.05};
  const double Sdevs[] = {0.1, 0.05, 0.2, 0.1};
  for (int K = 0; K < 4; ++K) {
    R.add(Means[K], Sdevs[K]);
    Ref.add(Means[K], Sdevs[K]);
    const RAvg::Row &Row = R.summary().back();
    EXPECT_EQ(Row.mean, Means[K]);
    EXPECT_EQ(Row.sdev, Sdevs[K]);
    EXPECT_EQ(Row.avgMean, Ref.mean());
    EXPECT_EQ(Row.avgSdev, Ref.sdev());
    EXPECT_EQ(Row.chi2dof, Ref.chi2dof());
    EXPECT_EQ(Row.Q, Ref.Q());
  }
}

/// Iterations drawn from one Gaussian: mean within 5 sigma, Q not small;
/// iterations alternating by +-10 sigma: Q tiny.
TEST(RAvgTest, ConsistentVersusInconsistent) {
  std::mt19937_64 Gen(77);
  std::normal_distribution<double> G(0.0, 1.0);
  RAvg Good, Bad;
  for (int K = 0; K < 20; ++K) {
    double Sigma = 0.01 * (1 + K % 3);
    Good.add(1.0 + Sigma * G(Gen), Sigma);
    Bad.add(1.0 + (K % 2 ? 10 : -10) * Sigma, Sigma);
  }
  EXPECT_NEAR(Good.mean(), 1.0, 5 * Good.sdev());
  EXPECT_GT(Good.Q(), 0.001);
  EXPECT_LT(Bad.Q(), 1e-10);
  EXPECT_GT(Bad.chi2dof(), 50.0);
}

/// Zero-variance iterations (a constant integrand) divide by nothing: equal
/// ones give that value, sdev 0, chi2 0, Q 1.
TEST(RAvgTest, ZeroVarianceConsistent) {
  RAvg R;
  for (int K = 0; K < 5; ++K)
    R.add(3.0, 0.0);
  EXPECT_EQ(R.mean(), 3.0);
  EXPECT_EQ(R.sdev(), 0.0);
  EXPECT_EQ(R.chi2(), 0.0);
  EXPECT_EQ(R.Q(), 1.0);
}

/// Exact iterations outweigh noisy ones; exact ones that disagree beyond
/// rounding give chi2 = inf, Q = 0; agreement to rounding is fine.
TEST(RAvgTest, ZeroVarianceMixed) {
  RAvg Mixed;
  Mixed.add(2.9, 0.1);
  Mixed.add(3.0, 0.0);
  Mixed.add(3.0 * (1 + 1e-15), 0.0);
  EXPECT_NEAR(Mixed.mean(), 3.0, 1e-14);
  EXPECT_EQ(Mixed.sdev(), 0.0);
  EXPECT_NEAR(Mixed.chi2(), 1.0, 1e-12); // Only the noisy one's pull.
  EXPECT_TRUE(std::isfinite(Mixed.Q()));

  RAvg Disagree;
  Disagree.add(3.0, 0.0);
  Disagree.add(3.1, 0.0);
  EXPECT_EQ(Disagree.mean(), 3.05);
  EXPECT_TRUE(std::isinf(Disagree.chi2()));
  EXPECT_EQ(Disagree.Q(), 0.0);
}

/// Iterations exact to rounding (sigma the round-off floor, as a constant
/// integrand gives on a uniform map), then ones that are not (the map
/// drifted): the exact ones' sigma predicts nothing of the next, so each
/// noisy one is weighted by its own. With the predecessor's sigma as
/// the prediction the first noisy one took all the weight and chi2 was
/// 1e21 (found by a scan at one seed).
TEST(RAvgTest, ARoundingFloorPredictsNothingOfANoisyIteration) {
  RAvg R;
  R.add(1.0, 5.0e-16, /*warmup=*/true);
  R.add(1.0 - 1e-16, 6.9e-16);
  R.add(1.000104813, 2.1e-4);
  R.add(1.000047188, 1.4e-4);
  EXPECT_NEAR(R.mean(), 1.0, 1e-14);
  EXPECT_LT(R.sdev(), 1e-15);
  EXPECT_LT(R.chi2dof(), 1.0);
  EXPECT_GT(R.Q(), 0.3);
}

TEST(RAvgArrayTest, ARoundingFloorPredictsNothingOfANoisyIteration) {
  RAvgArray V(2);
  // Component 0 constant, component 1 noisy, their sampled covariance
  // rounding noise; component 0's sigma jumps from the floor to 2e-4.
  const double Means[][2] = {{1.0, 0.49955},
                             {1.0, 0.49959},
                             {1.000104813, 0.49988},
                             {1.000047188, 0.50030}};
  const double Sig[][2] = {{5.0e-16, 3.05e-4},
                           {6.9e-16, 3.23e-4},
                           {2.1e-4, 3.34e-4},
                           {1.4e-4, 3.94e-4}};
  for (int K = 0; K < 4; ++K) {
    const double C01 = 1e-20;
    V.add(std::vector<double>{Means[K][0], Means[K][1]},
          std::vector<double>{Sig[K][0] * Sig[K][0], C01, C01,
                              Sig[K][1] * Sig[K][1]},
          /*warmup=*/K == 0);
  }
  EXPECT_NEAR(V.mean()[0], 1.0, 1e-12);
  EXPECT_NEAR(V.mean()[1], 0.4999, 5e-4);
  EXPECT_LT(V.sdev()[1], 1e-3);
  EXPECT_LT(V.chi2dof(), 5.0);
}

/// RAvgArray with one component reproduces RAvg (variance sigma^2).
TEST(RAvgArrayTest, OneComponentIsScalar) {
  std::mt19937_64 Gen(5);
  std::normal_distribution<double> G(0.0, 1.0);
  RAvg S;
  RAvgArray V(1);
  for (int K = 0; K < 12; ++K) {
    double Sigma = 0.5 + 0.1 * K, Mean = 10 + Sigma * G(Gen);
    S.add(Mean, Sigma, K < 2);
    double Var = Sigma * Sigma;
    V.add({&Mean, 1}, {&Var, 1}, K < 2);
  }
  EXPECT_EQ(V.nitn(), S.nitn());
  EXPECT_EQ(V.dof(), S.dof());
  EXPECT_NEAR(V.mean()[0], S.mean(), 1e-13);
  EXPECT_NEAR(V.sdev()[0] / S.sdev(), 1.0, 1e-13);
  EXPECT_NEAR(V.chi2() / S.chi2(), 1.0, 1e-12);
  EXPECT_NEAR(V.Q(), S.Q(), 1e-12);
  ASSERT_EQ(V.summary().size(), 12u);
  EXPECT_TRUE(V.summary()[0].warmup);
  EXPECT_NEAR(V.summary().back().avgMean[0], S.summary().back().avgMean, 1e-13);
}

/// RAvgArray with equal covariances C each iteration: the mean is the plain
/// average, Cov(Ibar) = C / nitn, chi2 = sum dev^T C^-1 dev by hand.
TEST(RAvgArrayTest, CorrelatedHandExample) {
  // C = [[4, 2], [2, 3]], det 8, C^-1 = [[3, -2], [-2, 4]] / 8.
  const std::vector<double> C = {4, 2, 2, 3};
  const std::vector<std::vector<double>> Means = {
      {1.0, 2.0}, {2.0, 1.0}, {0.0, 3.0}};
  RAvgArray V(2);
  for (const auto &M : Means)
    V.add(M, C);
  EXPECT_NEAR(V.mean()[0], 1.0, 1e-14);
  EXPECT_NEAR(V.mean()[1], 2.0, 1e-14);
  for (int J = 0; J < 4; ++J)
    EXPECT_NEAR(V.cov()[J], C[J] / 3, 1e-14);
  // Deviations (0,0), (1,-1), (-1,1): each (3 + 4 + 4)/8 = 11/8.
  EXPECT_NEAR(V.chi2(), 2 * 11.0 / 8, 1e-13);
  EXPECT_EQ(V.dof(), 4u);
  EXPECT_NEAR(V.Q(), chi2Q(11.0 / 4, 4), 1e-14);
}

/// RAvgArray with diagonal covariances is two independent RAvgs whose chi2
/// add up.
TEST(RAvgArrayTest, DiagonalIsIndependent) {
  RAvg A, B;
  RAvgArray V(2);
  const double Ma[] = {1.0, 1.1, 0.9}, Sa[] = {0.1, 0.2, 0.1};
  const double Mb[] = {5.0, 4.0, 4.5}, Sb[] = {1.0, 0.5, 0.7};
  for (int K = 0; K < 3; ++K) {
    A.add(Ma[K], Sa[K]);
    B.add(Mb[K], Sb[K]);
    V.add(std::vector<double>{Ma[K], Mb[K]},
          std::vector<double>{Sa[K] * Sa[K], 0, 0, Sb[K] * Sb[K]});
  }
  EXPECT_NEAR(V.mean()[0], A.mean(), 1e-14);
  EXPECT_NEAR(V.mean()[1], B.mean(), 1e-14);
  EXPECT_NEAR(V.sdev()[0], A.sdev(), 1e-14);
  EXPECT_NEAR(V.sdev()[1], B.sdev(), 1e-14);
  EXPECT_NEAR(V.chi2(), A.chi2() + B.chi2(), 1e-12);
  EXPECT_EQ(V.dof(), A.dof() + B.dof());
}

/// Perfectly correlated components (singular C) do not break the inverse:
/// the fallback gives finite results close to the exact ones.
TEST(RAvgArrayTest, SingularCovarianceFallsBack) {
  RAvgArray V(2);
  V.add(std::vector<double>{1.0, 2.0}, std::vector<double>{1, 2, 2, 4});
  V.add(std::vector<double>{1.2, 2.4}, std::vector<double>{1, 2, 2, 4});
  for (double M : V.mean())
    EXPECT_TRUE(std::isfinite(M));
  EXPECT_NEAR(V.mean()[0], 1.1, 1e-6);
  EXPECT_NEAR(V.mean()[1], 2.2, 1e-6);
  EXPECT_TRUE(std::isfinite(V.chi2()));
  EXPECT_TRUE(std::isfinite(V.Q()));
}

/// All-zero covariances (a constant vector integrand) are exact iterations,
/// as in the scalar case.
TEST(RAvgArrayTest, ZeroCovariance) {
  RAvgArray V(2);
  const std::vector<double> Zero(4, 0.0);
  V.add(std::vector<double>{1.5, -2.0}, Zero);
  V.add(std::vector<double>{1.5, -2.0}, Zero);
  EXPECT_EQ(V.mean()[0], 1.5);
  EXPECT_EQ(V.mean()[1], -2.0);
  EXPECT_EQ(V.sdev()[0], 0.0);
  EXPECT_EQ(V.chi2(), 0.0);
  EXPECT_EQ(V.Q(), 1.0);
  V.add(std::vector<double>{1.6, -2.0}, Zero);
  EXPECT_EQ(V.Q(), 0.0);
}

/// A component with zero variance (a cut that removes everything) next to
/// a noisy one: it keeps its exact value with error 0 and no covariance,
/// and the noisy one is averaged as if alone (was a crash: issue #14).
TEST(RAvgArrayTest, ZeroVarianceComponentBesideANoisyOne) {
  RAvgArray V(2);
  RAvg A;
  const double Means[][2] = {{0.5, 0.0}, {0.52, 0.0}, {0.49, 0.0}};
  const double Sig[] = {0.01, 0.02, 0.015};
  for (int K = 0; K < 3; ++K) {
    V.add(std::vector<double>{Means[K][0], Means[K][1]},
          std::vector<double>{Sig[K] * Sig[K], 0, 0, 0});
    A.add(Means[K][0], Sig[K]);
  }
  EXPECT_EQ(V.mean()[1], 0.0);
  EXPECT_EQ(V.sdev()[1], 0.0);
  EXPECT_EQ(V.cov()[1], 0.0);
  EXPECT_EQ(V.cov()[2], 0.0);
  EXPECT_NEAR(V.mean()[0], A.mean(), 1e-15);
  EXPECT_NEAR(V.sdev()[0], A.sdev(), 1e-15);
  EXPECT_NEAR(V.chi2(), A.chi2(), 1e-12);
  EXPECT_TRUE(std::isfinite(V.Q()));
}

/// Components of wildly different sizes (1e-300 and 1e150 times the other)
/// are inverted alike: finite results that match each component alone.
TEST(RAvgArrayTest, ExtremeScalesStayFinite) {
  for (double Scale : {1e-150, 1e-100, 1e100, 1e150}) {
    RAvgArray V(2);
    RAvg A;
    for (int K = 0; K < 3; ++K) {
      const double M = 1 + 0.01 * K, S = 0.01 * (K + 1);
      V.add(std::vector<double>{M, Scale * M},
            std::vector<double>{S * S, Scale * S * S, Scale * S * S,
                                Scale * Scale * S * S});
      A.add(M, S);
    }
    for (double X : V.mean())
      EXPECT_TRUE(std::isfinite(X)) << Scale;
    EXPECT_NEAR(V.mean()[0], A.mean(), 1e-6) << Scale;
    EXPECT_NEAR(V.mean()[1] / Scale, A.mean(), 1e-6) << Scale;
    EXPECT_TRUE(std::isfinite(V.chi2())) << Scale;
  }
}

/// A non-finite covariance (an overflowed variance) never crashes and
/// never produces a matrix of the wrong size.
TEST(RAvgArrayTest, NonFiniteCovarianceDoesNotCrash) {
  RAvgArray V(2);
  const double Inf = std::numeric_limits<double>::infinity();
  V.add(std::vector<double>{1, 2}, std::vector<double>{1, 0, 0, Inf});
  V.add(std::vector<double>{1, 2}, std::vector<double>{1, 0, 0, Inf});
  EXPECT_EQ(V.mean().size(), 2u);
  EXPECT_EQ(V.cov().size(), 4u);
}

} // namespace
