//===- tests/unit/runtime/integrator/EventSamplerTest.cpp - Events --------===//
//
// Integrator::sample and ::unweight (runtime/integrator/EventSampler): the
// mean event weight is the integral within 5 sigma; events are bitwise the
// same for 1 and 2 threads and successive calls continue the stream; the
// x[0] histogram of unweighted events drawn from an untrained (uniform)
// map matches the integrand's marginal (chi^2 test), which an "accept
// everything" unweighting would fail; training is required first.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>

namespace {

/// f(x, y) = 6 x^2 y on [0,1]^2: integral 1, marginal of x is 3 x^2.
vf::IntegrandInfo separable() {
  auto I = vf::nativeIntegrand(
      "sep", 2, 1, {0, 0}, {1, 1},
      [](std::span<const double> X, std::size_t N, std::size_t Dim,
         std::span<double> Out) {
        for (std::size_t I = 0; I < N; ++I)
          Out[I] = 6 * X[I * Dim] * X[I * Dim] * X[I * Dim + 1];
      });
  EXPECT_TRUE(bool(I));
  return *I;
}

/// exp(-50 |x - 0.3|^2) on [0,1]^2 (a peak the map must find).
vf::IntegrandInfo peak() {
  auto I = vf::nativeIntegrand(
      "peak", 2, 1, {0, 0}, {1, 1},
      [](std::span<const double> X, std::size_t N, std::size_t Dim,
         std::span<double> Out) {
        for (std::size_t I = 0; I < N; ++I) {
          double A = X[I * Dim] - 0.3, B = X[I * Dim + 1] - 0.3;
          Out[I] = std::exp(-50 * (A * A + B * B));
        }
      });
  EXPECT_TRUE(bool(I));
  return *I;
}

std::unique_ptr<vf::Integrator> trained(vf::IntegrandInfo I, unsigned Threads,
                                        double Alpha = 0.5,
                                        double Beta = 0.75) {
  vf::IntegratorOptions O;
  O.Seed = 7;
  O.Threads = Threads;
  O.Alpha = Alpha;
  O.Beta = Beta;
  auto Integ = vf::Integrator::create(std::move(I), O);
  EXPECT_TRUE(bool(Integ));
  auto R = (*Integ)->run(5, 20000);
  EXPECT_TRUE(bool(R));
  (*Integ)->freeze();
  return std::move(*Integ);
}

/// A bitwise fingerprint of every event's point and weight.
std::uint64_t fingerprint(std::uint64_t H, const vf::EventBatch &B) {
  auto Mix = [&H](double V) {
    std::uint64_t U;
    std::memcpy(&U, &V, sizeof U);
    H = (H ^ U) * 0x100000001b3ull;
  };
  for (double V : B.X)
    Mix(V);
  for (double V : B.Weight)
    Mix(V);
  return H;
}

/// Integrator::sample: the mean weight is the integral within 5 sigma.
TEST(EventSamplerTest, WeightedMeanIsTheIntegral) {
  auto Integ = trained(peak(), 2);
  const double Exact =
      std::pow(std::sqrt(M_PI / 50) / 2 *
                   (std::erf(0.7 * std::sqrt(50.0)) +
                    std::erf(0.3 * std::sqrt(50.0))),
               2);
  double Sum = 0, Sum2 = 0;
  std::uint64_t N = 0, Next = 0;
  ASSERT_TRUE(bool(Integ->sample(100000, [&](const vf::EventBatch &B) {
    EXPECT_EQ(B.First, Next);
    Next += B.N;
    for (std::size_t I = 0; I < B.N; ++I) {
      EXPECT_EQ(B.Weight[I], B.Jac[I] * B.F[I]);
      EXPECT_GE(B.X[2 * I], 0.0);
      EXPECT_LT(B.X[2 * I], 1.0);
      Sum += B.Weight[I];
      Sum2 += B.Weight[I] * B.Weight[I];
    }
    N += B.N;
  })));
  ASSERT_EQ(N, 100000u);
  double Mean = Sum / N, Err = std::sqrt((Sum2 / N - Mean * Mean) / N);
  EXPECT_LT(std::abs(Mean - Exact), 5 * Err) << Mean << " +- " << Err;
  // Importance sampling works: the weights' relative spread (0.5) is far
  // below plain MC's (f under uniform sampling: 2.6).
  EXPECT_LT(Err * std::sqrt(double(N)) / Mean, 1.0);
}

/// Same seed: the same events for 1 and 2 threads; a second call draws new
/// ones.
TEST(EventSamplerTest, ReproducibleAcrossThreads) {
  std::uint64_t H[2], Second = 0;
  for (unsigned T : {1u, 2u}) {
    auto Integ = trained(peak(), T);
    std::uint64_t F = 1469598103934665603ull;
    ASSERT_TRUE(bool(Integ->sample(10000, [&](const vf::EventBatch &B) {
      F = fingerprint(F, B);
    })));
    H[T - 1] = F;
    if (T == 2) {
      std::uint64_t G = 1469598103934665603ull;
      ASSERT_TRUE(bool(Integ->sample(10000, [&](const vf::EventBatch &B) {
        EXPECT_GE(B.First, 10000u);
        G = fingerprint(G, B);
      })));
      Second = G;
    }
  }
  EXPECT_EQ(H[0], H[1]);
  EXPECT_NE(H[1], Second);
}

/// Integrator::unweight with a uniform (untrained) map: accepted events
/// follow f, so the x[0] histogram matches the marginal 3 x^2.
TEST(EventSamplerTest, UnweightedMarginalChi2) {
  auto Integ = trained(separable(), 2, /*Alpha=*/0, /*Beta=*/0);
  constexpr int Bins = 20;
  constexpr std::uint64_t N = 20000;
  double Count[Bins] = {};
  auto Stats = Integ->unweight(N, [&](const vf::EventBatch &B) {
    for (std::size_t I = 0; I < B.N; ++I) {
      EXPECT_GE(std::abs(B.Weight[I]), 1.0);
      Count[std::min(Bins - 1, int(B.X[2 * I] * Bins))] += B.Weight[I];
    }
  });
  ASSERT_TRUE(bool(Stats)) << Stats.message();
  EXPECT_EQ(Stats->Accepted, N);
  // f <= 6 and the map is uniform: w_max is nearly 6, no overshoot beyond
  // a few events, efficiency 1/6.
  EXPECT_GT(Stats->Wmax, 5.5);
  EXPECT_LE(Stats->Wmax, 6.0);
  EXPECT_LT(Stats->OvershootFraction, 1e-3);
  EXPECT_NEAR(Stats->Efficiency, 1.0 / 6, 0.01);
  EXPECT_LT(std::abs(Stats->Mean - 1.0), 5 * Stats->Error);
  double Chi2 = 0, Uniform = 0;
  for (int K = 0; K < Bins; ++K) {
    double A = double(K) / Bins, B = double(K + 1) / Bins;
    double Expect = N * (B * B * B - A * A * A);
    Chi2 += (Count[K] - Expect) * (Count[K] - Expect) / Expect;
    Uniform += (Count[K] - N / Bins) * (Count[K] - N / Bins) / (N / Bins);
  }
  // 19 degrees of freedom: P(chi2 > 43.8) = 0.001.
  EXPECT_LT(Chi2, 43.8) << Chi2;
  // The points themselves are uniform: without unweighting the histogram
  // would be flat, and that is what this histogram is not.
  EXPECT_GT(Uniform, 1000.0);
}

/// Trained map: high efficiency, a small overshoot share, reported.
TEST(EventSamplerTest, UnweightAfterTraining) {
  auto Integ = trained(peak(), 2);
  auto Stats = Integ->unweight(5000, [](const vf::EventBatch &) {});
  ASSERT_TRUE(bool(Stats)) << Stats.message();
  EXPECT_EQ(Stats->Accepted, 5000u);
  EXPECT_GT(Stats->Efficiency, 0.2);
  EXPECT_LT(Stats->OvershootFraction, 0.01);
  EXPECT_EQ(Stats->OvershootFraction,
            double(Stats->Overshoot) / double(Stats->Accepted));
}

/// sample() before freeze() says what to do.
TEST(EventSamplerTest, NeedsTrainingAndFreeze) {
  auto Integ = vf::Integrator::create(peak());
  ASSERT_TRUE(bool(Integ));
  auto Cb = [](const vf::EventBatch &) {};
  vf::Status S = (*Integ)->sample(10, Cb);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("run() at least one iteration"),
            std::string::npos);
  ASSERT_TRUE(bool((*Integ)->run(1, 1000)));
  S = (*Integ)->sample(10, Cb);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("freeze()"), std::string::npos);
}

/// An integrand that cannot be evaluated outside the sampler (no
/// IntegrandInfo::Evaluate): no events, and the reason, rather than NaN
/// weights.
TEST(EventSamplerTest, AnIntegrandWithoutEvaluateIsAnError) {
  vf::IntegrandInfo I = peak();
  I.Evaluate = nullptr;
  auto Integ = trained(I, 1);
  unsigned Batches = 0;
  vf::Status S =
      Integ->sample(10, [&](const vf::EventBatch &) { ++Batches; });
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("no batch entry point"), std::string::npos)
      << S.message();
  EXPECT_EQ(Batches, 0u);
}

} // namespace
