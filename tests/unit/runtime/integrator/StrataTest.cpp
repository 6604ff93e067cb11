//===- tests/unit/runtime/integrator/StrataTest.cpp - Stratification ------===//
//
// Strata: the number of strata, the sigf^beta allocation and its rules
// (minimum 2, cap, beta = 0, zero variance, 40-bit rounding), the sample
// index -> hypercube lookup, and the per-hypercube moments with their
// protection against cancellation (ALGORITHM.md section 2).
//
//===----------------------------------------------------------------------===//
#include "integrator/Strata.h"
#include "reduction/Segments.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using vf::HypercubeSums;
using vf::Strata;

namespace {

/// Segment sums for samples V, shifted by the first, as the kernel forms
/// them.
HypercubeSums segment(const std::vector<double> &V, std::size_t Begin,
                      std::size_t End) {
  HypercubeSums S{double(End - Begin), V[Begin], 0.0, 0.0};
  for (std::size_t J = Begin; J < End; ++J) {
    double D = V[J] - S.shift;
    S.sum_d += D;
    S.sum_d2 += D * D;
  }
  return S;
}

/// One hypercube's segments merged in order, as the iteration merges a
/// hypercube split across tiles (reduction/Segments.h, one output).
HypercubeSums merged(std::initializer_list<HypercubeSums> Parts) {
  double A[4] = {0, 0, 0, 0};
  for (const HypercubeSums &P : Parts) {
    const double B[4] = {P.n, P.shift, P.sum_d, P.sum_d2};
    vf::mergeSegment(A, B, 1);
  }
  return {A[0], A[1], A[2], A[3]};
}

/// Feeds every hypercube h of S one segment of n_h samples whose sample
/// variance of v is Var[h]: sum d = 0, sum d^2 = M2 = Var[h] (n_h - 1).
void feedVariances(Strata &S, const std::vector<double> &Var) {
  S.clearSums();
  for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
    double N = double(S.nevalHcube(H));
    S.setSums(H, {N, 1.0, 0.0, Var[H] * (N - 1)});
  }
}

std::vector<std::uint64_t> allocation(const Strata &S) {
  std::vector<std::uint64_t> A(S.nhcube());
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    A[H] = S.nevalHcube(H);
  return A;
}

/// chooseNstrat(dim, neval, cap): the largest M with 4 M^D <= neval and
/// M^D <= cap, at least 1, exact at perfect powers.
TEST(StrataTest, Nstrat) {
  EXPECT_EQ(Strata::chooseNstrat(1, 1000), 250u);
  EXPECT_EQ(Strata::chooseNstrat(2, 400), 10u);
  EXPECT_EQ(Strata::chooseNstrat(3, 4 * 27), 3u);
  EXPECT_EQ(Strata::chooseNstrat(3, 4 * 27 - 1), 2u);
  EXPECT_EQ(Strata::chooseNstrat(4, 1000000), 22u);
  EXPECT_EQ(Strata::chooseNstrat(5, 4 * 161051), 11u); // 11^5 = 161051.
  EXPECT_EQ(Strata::chooseNstrat(20, 1000000), 1u);
  EXPECT_EQ(Strata::chooseNstrat(2, 3), 1u);
  // The cap on hypercubes lowers M.
  EXPECT_EQ(Strata::chooseNstrat(1, 100000000), 1000000u);
  EXPECT_EQ(Strata::chooseNstrat(2, 10000000000ULL), 1000u);
  EXPECT_EQ(Strata::chooseNstrat(3, 10000000000ULL, 1000), 10u);
  EXPECT_EQ(Strata::chooseNstrat(3, 10000000000ULL, 999), 9u);
}

/// In single precision (hcubeCap) M stops at 2^14 per axis, where a
/// stratum still holds 1024 distinct float positions; double is unchanged.
TEST(StrataTest, SinglePrecisionCapsStrataPerAxis) {
  const std::uint64_t Cap = Strata::DefaultMaxHcube;
  EXPECT_EQ(Strata::chooseNstrat(1, 1000000, Strata::hcubeCap(1, Cap, true)),
            16384u);
  EXPECT_EQ(Strata::chooseNstrat(1, 1000000, Strata::hcubeCap(1, Cap, false)),
            250000u);
  EXPECT_EQ(Strata::hcubeCap(2, 1ULL << 40, true), 1ULL << 28);
  EXPECT_EQ(Strata::chooseNstrat(2, 1ULL << 40,
                                 Strata::hcubeCap(2, 1ULL << 40, true)),
            16384u);
  // Above two axes the default cap binds first.
  EXPECT_EQ(Strata::hcubeCap(3, Cap, true), Cap);
}

/// Strata(dim, neval) starts uniform: n_h = floor(neval / N_h) >= 2, the
/// offsets are its prefix sums and nevalUsed() is their total.
TEST(StrataTest, UniformAllocation) {
  Strata S(2, 1000);
  EXPECT_EQ(S.nstrat(), 15u);
  EXPECT_EQ(S.nhcube(), 225u);
  EXPECT_EQ(S.offsets().size(), 226u);
  EXPECT_EQ(S.offsets()[0], 0u);
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    EXPECT_EQ(S.nevalHcube(H), 4u);
  EXPECT_EQ(S.nevalUsed(), 900u);
  // Tiny runs still get two samples in their single hypercube.
  Strata Tiny(3, 2);
  EXPECT_EQ(Tiny.nhcube(), 1u);
  EXPECT_EQ(Tiny.nevalUsed(), 2u);
}

/// adapt() gives n_h = max(2, floor(neval d_h / sum d)), d_h = sigf_h^beta.
TEST(StrataTest, AllocationFollowsSigfBeta) {
  Strata S(1, 4000, 0.75); // M = 1000 hypercubes, 4 samples each.
  std::vector<double> Var(S.nhcube());
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    Var[H] = std::pow(1.0 + H % 17, 3);
  feedVariances(S, Var);
  std::vector<double> D(S.nhcube());
  double Sum = 0;
  for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
    double Sigf = std::sqrt(S.varianceHcube(H) * S.nevalHcube(H));
    D[H] = std::pow(Sigf, 0.75);
    Sum += D[H];
  }
  S.adapt();
  std::uint64_t Total = 0;
  // n_h = 2 + floor((neval - 2 N_h) d_h / sum d): the minimum, plus a
  // share of what is left.
  double Spare = 4000.0 - 2.0 * S.nhcube();
  for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
    auto Expected = 2 + std::uint64_t(std::floor(Spare * (D[H] / Sum)));
    EXPECT_EQ(S.nevalHcube(H), Expected) << "hypercube " << H;
    Total += S.nevalHcube(H);
  }
  EXPECT_EQ(S.nevalUsed(), Total);
  EXPECT_LE(S.nevalUsed(), 4000u);
  EXPECT_GE(S.nevalUsed(), 4000u - S.nhcube());
}

/// adapt()'s vector pass for beta = 3/4 (and the pow it leaves to the
/// rest) allocates exactly as the scalar rule, d_h = powTo40Bits(sigf_h,
/// beta), over variances spread across 600 binades, zeros among them; for
/// another beta every d_h takes pow.
TEST(StrataTest, AllocationIsTheScalarRuleBitForBit) {
  for (double Beta : {0.75, 0.5}) {
    Strata S(2, 400000, Beta); // 316^2 hypercubes, 4 samples each
    std::mt19937_64 Rng(5);
    std::vector<double> Var(S.nhcube());
    for (std::uint64_t H = 0; H < S.nhcube(); ++H)
      Var[H] = H % 11 == 0 ? 0.0
                           : std::ldexp(1.0 + double(Rng() % 1000000) / 1e6,
                                        int(Rng() % 600) - 300);
    // Twice: the second allocation starts from the first's, so hypercubes
    // hold different counts.
    for (int Round = 0; Round < 2; ++Round) {
      feedVariances(S, Var);
      std::vector<double> D(S.nhcube());
      double Sum = 0;
      for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
        D[H] = Strata::powTo40Bits(
            std::sqrt(S.varianceHcube(H) * double(S.nevalHcube(H))), Beta);
        Sum += D[H];
      }
      const double Spare = double(S.neval() - 2 * S.nhcube());
      std::vector<std::uint64_t> Want(S.nhcube());
      for (std::uint64_t H = 0; H < S.nhcube(); ++H)
        Want[H] = 2 + std::uint64_t(std::floor(Spare * (D[H] / Sum)));
      S.adapt();
      ASSERT_EQ(allocation(S), Want) << "beta " << Beta << ", round " << Round;
    }
  }
}

/// The estimate's vector pass for one output gives exactly what the scalar
/// helpers give hypercube by hypercube: the mean and variance terms, the
/// moments and both checks, on segments with one sample, tiny and huge
/// sums, sums that overflowed, and variances that underflowed.
TEST(StrataTest, OneOutputTermsAreTheScalarOnes) {
  std::mt19937_64 Rng(9);
  std::vector<double> Segs;
  const double Inf = INFINITY, NaN = NAN;
  const std::vector<std::array<double, 4>> Edge = {
      {1, 2.5, 0, 0},      {2, 1, 1e-200, 0},  {3, 1, Inf, 1},
      {4, NaN, 0, 0},      {5, 1, 2, -1e-17},  {2, -0.0, -0.0, 0},
      {7, 1e300, 1e300, Inf}, {9, 3, -4, 1e-320}};
  for (const auto &E : Edge)
    Segs.insert(Segs.end(), E.begin(), E.end());
  for (int I = 0; I < 5000; ++I) {
    const double N = double(2 + Rng() % 30), S = std::ldexp(double(Rng() % 1000) - 500, int(Rng() % 80) - 40);
    Segs.insert(Segs.end(), {N, std::ldexp(double(Rng() % 999), int(Rng() % 60) - 30), S,
                             S * S / N + std::ldexp(double(Rng() % 1000), int(Rng() % 80) - 40)});
  }
  const std::uint64_t Count = Segs.size() / 4;
  const double Nh = 4096;
  vf::HypercubeTerms T;
  vf::singleOutputTerms(Segs.data(), Count, Nh, T);
  Strata St(1, 4 * Count, 0.75, Count);
  for (std::uint64_t H = 0; H < Count; ++H) {
    const double *Seg = Segs.data() + 4 * H;
    unsigned C = 0;
    EXPECT_EQ(bool(T.Flags[H] & 1), vf::segmentOverflows(Seg, 1, C)) << H;
    EXPECT_EQ(bool(T.Flags[H] & 2), vf::varianceUnderflows(Seg, 1, 0)) << H;
    std::vector<double> Mean(1, 0.0), Carry(1, 0.0), Cov(1, 0.0);
    vf::addHypercubeEstimate(Seg, 1, Nh, Mean, Carry, Cov);
    auto Same = [](double A, double B) {
      return (std::isnan(A) && std::isnan(B)) || A == B;
    };
    EXPECT_TRUE(Same(0.0 + T.Mean[H], Mean[0])) << H;
    EXPECT_TRUE(Same(0.0 + T.Var[H], Cov[0])) << H;
    if (H < St.nhcube()) {
      St.setSums(H, HypercubeSums{Seg[0], Seg[1], Seg[2], Seg[3]});
      const double Want = St.varianceHcube(H), WantI = St.integralHcube(H);
      St.setMoments(H, Seg[0], Seg[1], T.MeanD[H], T.M2[H]);
      EXPECT_TRUE(Same(St.varianceHcube(H), Want)) << H;
      EXPECT_TRUE(Same(St.integralHcube(H), WantI)) << H;
    }
  }
}

/// Hypercubes with no variance keep the minimum of 2 samples; the rest go
/// where the variance is.
TEST(StrataTest, MinimumTwoPerHypercube) {
  Strata S(2, 40000); // M = 100, N_h = 10^4, 4 samples each.
  std::vector<double> Var(S.nhcube(), 0.0);
  Var[17] = 1.0;
  feedVariances(S, Var);
  S.adapt();
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    EXPECT_EQ(S.nevalHcube(H), H == 17 ? 40000u - 2 * (S.nhcube() - 1) : 2u);
}

/// beta = 0 is classic VEGAS: the allocation stays uniform whatever the
/// variances.
TEST(StrataTest, BetaZeroStaysUniform) {
  Strata S(2, 10000, 0.0);
  std::vector<double> Var(S.nhcube());
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    Var[H] = 1.0 + H;
  feedVariances(S, Var);
  S.adapt();
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    EXPECT_EQ(S.nevalHcube(H), 10000 / S.nhcube());
}

/// sum d_h = 0 (a constant integrand) stays uniform.
TEST(StrataTest, ZeroVarianceStaysUniform) {
  Strata S(3, 100000);
  std::vector<double> Var(S.nhcube(), 0.0);
  feedVariances(S, Var);
  auto Before = allocation(S);
  S.adapt();
  EXPECT_EQ(allocation(S), Before);
}

/// The cap on N_h holds for the default (10^6) and a configured value.
TEST(StrataTest, HypercubeCap) {
  Strata Big(2, 100000000);
  EXPECT_EQ(Big.nhcube(), 1000000u);
  EXPECT_EQ(Big.nevalHcube(0), 100u);
  Strata Capped(4, 100000000, 0.75, 5000);
  EXPECT_EQ(Capped.nstrat(), 8u); // 8^4 = 4096 <= 5000 < 9^4.
  EXPECT_EQ(Capped.nhcube(), 4096u);
}

/// roundTo40Bits keeps 40 significant bits, rounding to nearest.
TEST(StrataTest, RoundTo40Bits) {
  EXPECT_EQ(Strata::roundTo40Bits(0.0), 0.0);
  EXPECT_EQ(Strata::roundTo40Bits(1.0), 1.0);
  EXPECT_EQ(Strata::roundTo40Bits(1.0 + 0x1p-52), 1.0);
  EXPECT_EQ(Strata::roundTo40Bits(1.0 + 0x1p-39), 1.0 + 0x1p-39);
  EXPECT_EQ(Strata::roundTo40Bits(1.0 + 0x1p-39 + 0x1p-50), 1.0 + 0x1p-39);
  EXPECT_EQ(Strata::roundTo40Bits(3e-200 * (1 + 1e-15)),
            Strata::roundTo40Bits(3e-200));
}

/// The rounding works on the bits of normal numbers; it must be exactly
/// nearbyint(frac 2^40) 2^(exp-40), ties to even, carries into the
/// exponent, the largest doubles and subnormals included.
TEST(StrataTest, RoundTo40BitsIsNearbyintOfTheSignificand) {
  auto Reference = [](double X) {
    int E;
    double F = std::frexp(X, &E);
    return std::ldexp(std::nearbyint(std::ldexp(F, 40)), E - 40);
  };
  std::mt19937_64 Rng(7);
  std::vector<double> Xs = {0x1.fffffffffffffp+1023, 0x1.ffffffffffp0,
                            0x1.fffffffffefffp0, 1.0 + 0x1p-40,
                            1.0 + 0x1p-39 + 0x1p-40, 0x1p-1022, 0x1p-1060,
                            -2.5, -(1.0 + 0x1p-40), -(1.0 + 0x1p-39 + 0x1p-40)};
  for (int I = 0; I < 100000; ++I) {
    std::uint64_t B = Rng();
    if (I % 3 == 0) // ties and near-ties in the dropped 13 bits
      B = (B & ~std::uint64_t(0x1fff)) | (0xfff + (I % 5) / 2);
    double X;
    std::memcpy(&X, &B, sizeof X);
    if (std::isfinite(X))
      Xs.push_back(X);
  }
  for (double X : Xs) {
    double Got = Strata::roundTo40Bits(X), Want = Reference(X);
    ASSERT_EQ(std::memcmp(&Got, &Want, sizeof Got), 0) << X;
  }
}

/// The allocation's x^beta without pow for beta = 3/4 must give exactly
/// the bits roundTo40Bits(pow(x, beta)) does: over a million values across
/// the whole double range, subnormals, both zeros and other betas included.
TEST(StrataTest, PowTo40BitsIsRoundedPow) {
  std::mt19937_64 Rng(11);
  std::uniform_real_distribution<double> Exp(-1070, 1020), Unit(0, 1);
  std::size_t Fast = 0;
  for (int I = 0; I < 1000000; ++I) {
    double X = I < 5 ? std::array<double, 5>{0.0, -0.0, 1.0, 0x1p-1074,
                                             0x1p-1030}[I]
                     : std::exp2(Exp(Rng)) * (1 + Unit(Rng));
    for (double Beta : {0.75, 0.5}) {
      double Got = Strata::powTo40Bits(X, Beta);
      double Want = Strata::roundTo40Bits(std::pow(X, Beta));
      ASSERT_EQ(std::memcmp(&Got, &Want, sizeof Got), 0)
          << X << " ^ " << Beta;
    }
    double S = std::sqrt(X);
    Fast += Strata::roundTo40Bits(S * std::sqrt(S)) ==
            Strata::roundTo40Bits(std::pow(X, 0.75));
  }
  EXPECT_GT(Fast, 990000u); // the shortcut is what most values take
  // Values where the shortcut's 40 bits differ from pow's (found by a
  // search over 10^9 values): the guard must send them to pow.
  for (double X : {0x1.100307af1e5b8p-99, 0x1.e0a32dd5cce13p+63,
                   0x1.51558dfbdc211p+94, 0x1.890a88d4916dbp+85,
                   0x1.28f73d21755d9p-22}) {
    const double S = std::sqrt(X);
    ASSERT_NE(Strata::roundTo40Bits(S * std::sqrt(S)),
              Strata::roundTo40Bits(std::pow(X, 0.75)));
    EXPECT_EQ(Strata::powTo40Bits(X, 0.75),
              Strata::roundTo40Bits(std::pow(X, 0.75)))
        << X;
  }
}

/// Two hypercubes of equal variance share neval exactly in half. Perturbing
/// one variance by a few ulps puts the raw share just below a whole number, so
/// a floor of raw values would move a sample; the 40-bit rule keeps the
/// allocation identical.
TEST(StrataTest, AllocationIgnoresRoundingNoise) {
  Strata S(1, 8, 0.75); // M = 2 hypercubes, 4 samples each.
  ASSERT_EQ(S.nhcube(), 2u);
  feedVariances(S, {0.25, 0.25});
  S.adapt();
  auto Exact = allocation(S);
  EXPECT_EQ(Exact, (std::vector<std::uint64_t>{4, 4}));

  double Up = 0.25 * (1 + 1e-15); // A few ulps.
  Strata T(1, 8, 0.75);
  feedVariances(T, {Up, 0.25});
  // Without rounding, hypercube 1's share would fall below 4.
  double Sig0 = std::pow(std::sqrt(T.varianceHcube(0) * 4), 0.75);
  double Sig1 = std::pow(std::sqrt(T.varianceHcube(1) * 4), 0.75);
  ASSERT_LT(std::floor(8 * (Sig1 / (Sig0 + Sig1))), 4.0);
  T.adapt();
  EXPECT_EQ(allocation(T), Exact);
}

/// Many hypercubes with random variances: perturbing every input sum by a
/// relative 1e-16 (another reduction order) leaves the allocation identical.
TEST(StrataTest, AllocationInvariantUnderPerturbation) {
  std::mt19937_64 Gen(31);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  Strata A(2, 40000), B(2, 40000);
  std::vector<double> Var(A.nhcube()), Var2(A.nhcube());
  for (std::uint64_t H = 0; H < A.nhcube(); ++H) {
    Var[H] = std::exp(10 * U(Gen));
    Var2[H] = Var[H] * (1 + (U(Gen) < 0.5 ? 1e-16 : -1e-16) * 2);
  }
  feedVariances(A, Var);
  feedVariances(B, Var2);
  A.adapt();
  B.adapt();
  EXPECT_EQ(allocation(A), allocation(B));
}

/// findHcube / hcubeOf map every sample index to the hypercube whose range
/// [offsets[h], offsets[h+1]) holds it, also at the boundaries.
TEST(StrataTest, IndexToHypercube) {
  Strata S(2, 1000);
  std::vector<double> Var(S.nhcube());
  for (std::uint64_t H = 0; H < S.nhcube(); ++H)
    Var[H] = H % 5 == 0 ? 100.0 : 0.01 * H;
  feedVariances(S, Var);
  S.adapt();
  std::uint64_t H = 0;
  for (std::uint64_t J = 0; J < S.nevalUsed(); ++J) {
    while (J >= S.offsets()[H + 1])
      ++H;
    ASSERT_EQ(S.hcubeOf(J), H) << "sample " << J;
  }
  EXPECT_EQ(S.hcubeOf(0), 0u);
  EXPECT_EQ(S.hcubeOf(S.nevalUsed() - 1), S.nhcube() - 1);
}

/// coordinates(h) lists k_d = (h / M^d) mod M, axis 0 fastest.
TEST(StrataTest, Coordinates) {
  Strata S(3, 4 * 125); // M = 5.
  ASSERT_EQ(S.nstrat(), 5u);
  unsigned K[3];
  S.coordinates(0, K);
  EXPECT_EQ(K[0] + K[1] + K[2], 0u);
  S.coordinates(1 + 5 * 2 + 25 * 4, K);
  EXPECT_EQ(K[0], 1u);
  EXPECT_EQ(K[1], 2u);
  EXPECT_EQ(K[2], 4u);
}

/// integralHcube and varianceHcube follow I_h = sum w f and
/// Var(I_h) = (n sum (w f)^2 - (sum w f)^2)/(n - 1), w = 1/(N_h n).
TEST(StrataTest, HypercubeEstimateFormulas) {
  Strata S(1, 12); // M = 3 hypercubes, 4 samples each.
  ASSERT_EQ(S.nhcube(), 3u);
  std::vector<double> V = {1.0, 2.0, 4.0, 7.0};
  S.setSums(1, segment(V, 0, 4));
  long double SumWf = 0, SumWf2 = 0, W = 1.0L / (3 * 4);
  for (double X : V) {
    SumWf += W * X;
    SumWf2 += (W * X) * (W * X);
  }
  double Var = double((4 * SumWf2 - SumWf * SumWf) / 3);
  EXPECT_NEAR(S.integralHcube(1), double(SumWf), 1e-15);
  EXPECT_NEAR(S.varianceHcube(1), Var, 1e-15 * Var);
  EXPECT_EQ(S.integralHcube(0), 0.0);
  EXPECT_EQ(S.varianceHcube(0), 0.0);
}

/// Segments with different shifts (a hypercube split across tiles),
/// merged, give the same moments as one segment.
TEST(StrataTest, SegmentsMergeLikeOne) {
  std::mt19937_64 Gen(3);
  std::normal_distribution<double> G(5.0, 2.0);
  std::vector<double> V(100);
  for (double &X : V)
    X = G(Gen);
  Strata One(1, 400), Split(1, 400); // M = 100, 4 samples each.
  One.setSums(7, segment(V, 0, 100));
  Split.setSums(7, merged({segment(V, 0, 13), segment(V, 13, 14),
                           segment(V, 14, 100)}));
  EXPECT_EQ(Split.count(7), 100.0);
  EXPECT_NEAR(Split.integralHcube(7) / One.integralHcube(7), 1.0, 1e-14);
  EXPECT_NEAR(Split.varianceHcube(7) / One.varianceHcube(7), 1.0, 1e-13);
}

/// A nearly constant integrand, v = 10^8 (1 + 10^-12 z): the shifted sums
/// keep its variance to 10^-9 where the raw power-sum formula loses it all;
/// an exactly constant one has variance exactly 0.
TEST(StrataTest, NoCancellationForNearlyConstant) {
  std::mt19937_64 Gen(11);
  std::normal_distribution<double> G(0.0, 1.0);
  const int N = 1000;
  std::vector<double> V(N), Dev(N);
  for (int J = 0; J < N; ++J) {
    V[J] = 1e8 + 1e-4 * G(Gen);
    Dev[J] = V[J] - 1e8; // Exact (Sterbenz).
  }
  // Reference: two-pass in long double on the exact deviations.
  long double MeanDev = 0;
  for (double D : Dev)
    MeanDev += D;
  MeanDev /= N;
  long double M2 = 0;
  for (double D : Dev)
    M2 += (D - MeanDev) * (D - MeanDev);
  // One hypercube holding all N samples.
  Strata S(1, N);
  ASSERT_EQ(S.nhcube(), 250u);
  S.setSums(0, merged({segment(V, 0, 500), segment(V, 500, N)}));
  double Nh = 250;
  double Expected = double(M2 / (Nh * Nh * N * (N - 1)));
  EXPECT_NEAR(S.varianceHcube(0) / Expected, 1.0, 1e-9);

  // The raw formula on the same samples is useless.
  double Sum = 0, SumSq = 0;
  for (double X : V) {
    Sum += X;
    SumSq += X * X;
  }
  double Naive = (N * SumSq - Sum * Sum) / (N - 1) / (Nh * Nh * N * N);
  EXPECT_GT(std::fabs(Naive / Expected - 1.0), 0.01);

  Strata C(1, N);
  std::vector<double> Const(N, 1e8 / 3);
  C.setSums(0, segment(Const, 0, N));
  EXPECT_EQ(C.varianceHcube(0), 0.0);
}

/// A stratified Monte Carlo run of int y0 y1 over [0,1]^2 with the strata's
/// points y = (k + u)/M agrees with 1/4 within 5 sigma, before and after an
/// adapt().
TEST(StrataTest, StratifiedEstimateIsUnbiased) {
  std::mt19937_64 Gen(2024);
  std::uniform_real_distribution<double> U(0.0, 1.0);
  Strata S(2, 100000);
  for (int It = 0; It < 3; ++It) {
    S.clearSums();
    unsigned K[2];
    for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
      S.coordinates(H, K);
      std::vector<double> V(S.nevalHcube(H));
      for (double &X : V) {
        double Y0 = (K[0] + U(Gen)) / S.nstrat();
        double Y1 = (K[1] + U(Gen)) / S.nstrat();
        X = Y0 * Y1 * (Y0 < 0.2 ? 50.0 : 1.0);
      }
      S.setSums(H, segment(V, 0, V.size()));
    }
    double Mean = 0, Var = 0;
    for (std::uint64_t H = 0; H < S.nhcube(); ++H) {
      Mean += S.integralHcube(H);
      Var += S.varianceHcube(H);
    }
    double Exact = 0.5 * (50 * 0.02 + (0.5 - 0.02));
    EXPECT_NEAR(Mean, Exact, 5 * std::sqrt(Var)) << "iteration " << It;
    S.adapt();
  }
}

} // namespace
