//===- tests/unit/runtime/integrator/NativeIntegrandTest.cpp - Callbacks --===//
//
// vf::nativeIntegrand (vf/Native.h): a Gaussian written in C++ integrates to
// its known value within 5 sigma through the natively compiled fused kernel;
// the same seed gives bitwise the same result for 1 and 2 threads;
// parameters reach the callback; bad boxes are refused.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>

namespace {

constexpr double Sigma = 0.1;

/// prod_d exp(-(x_d - 1/2)^2 / (2 sigma^2)) on [0,1]^3; its integral is
/// (sigma sqrt(2 pi) erf(1 / (2 sqrt(2) sigma)))^3.
vf::IntegrandInfo gaussian(std::atomic<std::uint64_t> *Calls = nullptr) {
  auto I = vf::nativeIntegrand(
      "gauss3", 3, 1, {0, 0, 0}, {1, 1, 1},
      [Calls](std::span<const double> X, std::size_t N, std::size_t Dim,
              std::span<double> Out) {
        EXPECT_EQ(X.size(), N * Dim);
        EXPECT_EQ(Out.size(), N);
        if (Calls)
          Calls->fetch_add(N);
        for (std::size_t I = 0; I < N; ++I) {
          double R2 = 0;
          for (std::size_t D = 0; D < Dim; ++D)
            R2 += (X[I * Dim + D] - 0.5) * (X[I * Dim + D] - 0.5);
          Out[I] = std::exp(-R2 / (2 * Sigma * Sigma));
        }
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

double gaussianExact() {
  double One = Sigma * std::sqrt(2 * M_PI) *
               std::erf(1.0 / (2 * std::sqrt(2.0) * Sigma));
  return One * One * One;
}

vf::Result integrate(vf::IntegrandInfo I, unsigned Threads) {
  vf::IntegratorOptions O;
  O.Seed = 12345;
  O.Threads = Threads;
  auto Integ = vf::Integrator::create(std::move(I), O);
  EXPECT_TRUE(bool(Integ));
  auto R = (*Integ)->run(6, 40000, 2);
  EXPECT_TRUE(bool(R)) << (R ? "" : R.message());
  return *R;
}

/// nativeIntegrand(...) + Integrator::run: the known Gaussian integral.
TEST(NativeIntegrandTest, GaussianKnownAnswer) {
  std::atomic<std::uint64_t> Calls{0};
  vf::Result R = integrate(gaussian(&Calls), 2);
  double Exact = gaussianExact();
  EXPECT_LT(std::abs(R.Mean[0] - Exact), 5 * R.Error[0])
      << R.Mean[0] << " +- " << R.Error[0] << " vs " << Exact;
  // The map adapted: far better than 1% (plain MC would give ~2%).
  EXPECT_LT(R.Error[0] / Exact, 2e-3);
  // Every sample went through the callback exactly once.
  EXPECT_EQ(Calls.load(), R.Evaluations);
}

/// Same seed: bitwise the same estimate and iterations for 1 and 2 threads.
TEST(NativeIntegrandTest, BitwiseAcrossThreads) {
  vf::Result A = integrate(gaussian(), 1), B = integrate(gaussian(), 2);
  EXPECT_EQ(A.Mean[0], B.Mean[0]);
  EXPECT_EQ(A.Error[0], B.Error[0]);
  ASSERT_EQ(A.Iterations.size(), B.Iterations.size());
  for (std::size_t K = 0; K < A.Iterations.size(); ++K)
    EXPECT_EQ(A.Iterations[K].Mean[0], B.Iterations[K].Mean[0]);
}

/// NativeParams: setParam's value reaches the callback; two outputs.
TEST(NativeIntegrandTest, ParamsAndVectorOutput) {
  auto I = vf::nativeIntegrand(
      "linear", 1, 2, {0}, {2}, vf::NativeParams{{"a"}, {1.0}},
      [](std::span<const double> X, std::size_t N, std::size_t,
         std::span<const double> P, std::span<double> Out) {
        for (std::size_t I = 0; I < N; ++I) {
          Out[2 * I] = P[0] * X[I];
          Out[2 * I + 1] = 1.0;
        }
      });
  ASSERT_TRUE(bool(I)) << I.message();
  auto Integ = vf::Integrator::create(*I);
  ASSERT_TRUE(bool(Integ));
  ASSERT_TRUE(bool((*Integ)->setParam("a", 3.0)));
  auto R = (*Integ)->run(3, 10000);
  ASSERT_TRUE(bool(R)) << R.message();
  // int_0^2 3x dx = 6; int_0^2 1 dx = 2 (J f_1 = J is not constant once
  // the map has adapted to x, so component 1 has an error too).
  EXPECT_LT(std::abs(R->Mean[0] - 6.0), 5 * R->Error[0] + 1e-12);
  EXPECT_LT(std::abs(R->Mean[1] - 2.0), 5 * R->Error[1] + 1e-12);
  EXPECT_LT(R->Error[1], 1e-5);
}

/// A callback that throws: NaN values, reported as non-finite.
TEST(NativeIntegrandTest, ThrowingCallbackIsNonFinite) {
  auto I = vf::nativeIntegrand("bad", 1, 1, {0}, {1},
                               [](std::span<const double>, std::size_t,
                                  std::size_t, std::span<double>) {
                                 throw 42;
                               });
  ASSERT_TRUE(bool(I));
  auto Integ = vf::Integrator::create(*I);
  ASSERT_TRUE(bool(Integ));
  auto R = (*Integ)->run(1, 1000);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(R.message().find("integrand 'bad' is nan"), std::string::npos)
      << R.message();
}

/// Errors name what is wrong with the box.
TEST(NativeIntegrandTest, BadBoxRefused) {
  auto F = [](std::span<const double>, std::size_t, std::size_t,
              std::span<double>) {};
  auto Short = vf::nativeIntegrand("f", 2, 1, {0}, {1}, F);
  ASSERT_FALSE(bool(Short));
  EXPECT_NE(Short.message().find("needs 2 lower and upper bounds"),
            std::string::npos);
  auto Empty = vf::nativeIntegrand("f", 1, 1, {1}, {1}, F);
  ASSERT_FALSE(bool(Empty));
  EXPECT_NE(Empty.message().find("x[0]"), std::string::npos);
}

} // namespace
