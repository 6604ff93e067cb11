//===- tests/unit/runtime/integrator/CancelTest.cpp - cancel() ------------===//
//
// cancel() between iterations (from the iteration observer) and within one
// (from the integrand, on a worker thread, while tiles are left): run()
// returns the completed iterations with Stopped = Cancelled, drops the
// iteration under way, and run() with the same arguments then gives
// bitwise the result of a run never cancelled. A cancel() while no run is
// in progress stops only the next run(), before its first iteration.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <cstring>

namespace {

using namespace vf;

constexpr std::uint64_t Calls = 200000;
constexpr unsigned Iters = 4, Warm = 1;

/// What the integrand does besides its value: cancel the run once armed.
struct Hooks {
  std::atomic<Integrator *> CancelWhenArmed{nullptr};
  std::atomic<bool> Armed{false};
  std::atomic<std::uint64_t> Evaluated{0};
};

IntegrandInfo peak(Hooks &H) {
  auto I = nativeIntegrand(
      "peak", 2, 1, {0, 0}, {1, 1}, NativeParams{},
      [&H](std::span<const double> X, std::size_t N, std::size_t Dim,
           std::span<const double>, std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K) {
          double R2 = 0;
          for (std::size_t D = 0; D < Dim; ++D)
            R2 += (X[K * Dim + D] - 0.3) * (X[K * Dim + D] - 0.3);
          Out[K] = std::exp(-R2 / 0.01);
        }
        if (H.Armed)
          if (Integrator *I = H.CancelWhenArmed.exchange(nullptr))
            I->cancel();
        H.Evaluated += N;
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

std::unique_ptr<Integrator> make(Hooks &H) {
  IntegratorOptions O;
  O.Seed = 11;
  O.Threads = 2;
  O.Schedule = "dynamic:1"; // tiles are left when the cancel comes
  auto Integ = Integrator::create(peak(H), O);
  EXPECT_TRUE(bool(Integ)) << (Integ ? "" : Integ.message());
  return std::move(*Integ);
}

void expectSameBits(const Result &A, const Result &B) {
  ASSERT_EQ(A.Iterations.size(), B.Iterations.size());
  EXPECT_EQ(std::memcmp(A.Mean.data(), B.Mean.data(), sizeof(double)), 0);
  EXPECT_EQ(std::memcmp(A.Error.data(), B.Error.data(), sizeof(double)), 0);
  for (std::size_t K = 0; K < A.Iterations.size(); ++K)
    EXPECT_EQ(std::memcmp(A.Iterations[K].Mean.data(),
                          B.Iterations[K].Mean.data(), sizeof(double)),
              0)
        << "iteration " << K;
}

Result uninterrupted() {
  Hooks H;
  auto I = make(H);
  auto R = I->run(Iters, Calls, Warm);
  EXPECT_TRUE(bool(R)) << (R ? "" : R.message());
  EXPECT_EQ(R->Stopped, StopReason::Iterations);
  return *R;
}

} // namespace

TEST(Cancel, BetweenIterationsKeepsThemAndResumes) {
  Hooks H;
  auto I = make(H);
  unsigned Seen = 0;
  I->onIteration([&](const IterationRow &) {
    if (++Seen == 2)
      I->cancel();
  });
  auto R = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Cancelled);
  EXPECT_EQ(R->Iterations.size(), 2u); // the warm-up and one measured
  EXPECT_TRUE(I->plan().unfinished());
  EXPECT_EQ(I->plan().Done, 2u);
  auto Rest = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(Rest)) << Rest.message();
  EXPECT_EQ(Rest->Stopped, StopReason::Iterations);
  expectSameBits(*Rest, uninterrupted());
}

TEST(Cancel, WithinAnIterationDropsIt) {
  Hooks H;
  auto I = make(H);
  std::uint64_t AfterTwo = 0;
  I->onIteration([&](const IterationRow &Row) {
    if (Row.Index == 2) {
      AfterTwo = H.Evaluated;
      H.CancelWhenArmed = I.get();
      H.Armed = true;
    }
  });
  auto R = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Cancelled);
  ASSERT_EQ(R->Iterations.size(), 2u);
  // The workers stopped taking tiles: the third iteration was not run to
  // its end (each worker finishes the tile it holds).
  EXPECT_LT(H.Evaluated - AfterTwo, Calls / 2);
  EXPECT_EQ(I->plan().Done, 2u);
  H.Armed = false;
  I->onIteration(nullptr);
  auto Rest = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(Rest)) << Rest.message();
  expectSameBits(*Rest, uninterrupted());
}

TEST(Cancel, BeforeARunStopsOnlyTheNext) {
  Hooks H;
  auto I = make(H);
  I->cancel();
  auto R = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Cancelled);
  EXPECT_TRUE(R->Iterations.empty());
  EXPECT_EQ(H.Evaluated, 0u);
  auto Full = I->run(Iters, Calls, Warm);
  ASSERT_TRUE(bool(Full)) << Full.message();
  EXPECT_EQ(Full->Stopped, StopReason::Iterations);
  expectSameBits(*Full, uninterrupted());
}
