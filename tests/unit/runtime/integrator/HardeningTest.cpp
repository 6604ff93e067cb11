//===- tests/unit/runtime/integrator/HardeningTest.cpp - Hostile values ---===//
//
// Issue 14's runtime classes: sums that overflow or underflow (vector
// components of extreme size, boxes too wide for a double) are errors
// naming the component and what to rescale, never NaN or a false "exact";
// option values out of range (alpha, threads) are option errors; memory
// that cannot be had (a huge calls, an address-space limit set in a child
// process) and exceptions on the worker threads are errors,
// never a crash; setParam starts fresh statistics.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <stdexcept>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

namespace {

using namespace vf;

using Fn = std::function<void(const double *X, double *Out)>;

/// A native integrand of \p Outputs values on the box [Lo, Hi].
IntegrandInfo integrand(unsigned Dim, unsigned Outputs, double Lo, double Hi,
                        Fn F) {
  auto I = nativeIntegrand(
      "h", Dim, Outputs, std::vector<double>(Dim, Lo),
      std::vector<double>(Dim, Hi),
      [F, Outputs](std::span<const double> X, std::size_t N, std::size_t D,
                   std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K)
          F(&X[K * D], &Out[K * Outputs]);
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

std::unique_ptr<Integrator> make(IntegrandInfo I, IntegratorOptions O = {}) {
  O.Threads = 2;
  auto Integ = Integrator::create(std::move(I), O);
  EXPECT_TRUE(bool(Integ)) << (Integ ? "" : Integ.message());
  return std::move(*Integ);
}

/// Runs \p I and expects an error holding every one of \p Needles.
void expectRunError(IntegrandInfo I, std::vector<std::string> Needles,
                    std::uint64_t Calls = 10000) {
  auto Integ = make(std::move(I));
  auto R = Integ->run(3, Calls);
  ASSERT_FALSE(bool(R)) << "ran: " << R->Mean[0];
  for (const std::string &N : Needles)
    EXPECT_NE(R.message().find(N), std::string::npos)
        << "'" << N << "' not in: " << R.message();
}

TEST(Hardening, TinyComponentIsNotTakenAsExact) {
  expectRunError(integrand(2, 2, 0, 1,
                           [](const double *X, double *O) {
                             O[0] = X[0];
                             O[1] = 1e-300 * X[0];
                           }),
                 {"component 1", "too small", "Rescale"});
}

TEST(Hardening, HugeComponentOverflowsWithoutNaNElsewhere) {
  for (unsigned Big = 0; Big < 2; ++Big)
    expectRunError(integrand(2, 2, 0, 1,
                             [Big](const double *X, double *O) {
                               O[Big] = 1e160 * X[0];
                               O[1 - Big] = X[0];
                             }),
                   {"component " + std::to_string(Big), "overflows",
                    "1.0"});
}

TEST(Hardening, ScalarOverflowOfTheSquares) {
  expectRunError(integrand(2, 1, 0, 1,
                           [](const double *X, double *O) {
                             O[0] = 1e300 * (1 + X[0]);
                           }),
                 {"integrand 'h' overflows", "1.8e308"});
}

TEST(Hardening, BoxesBeyondTheDoubleRangeAreRefused) {
  auto One = [](const double *, double *O) { O[0] = 1; };
  expectRunError(integrand(1, 1, -1e308, 1e308, One),
                 {"[-1e+308, 1e+308]", "x[0]", "wider"});
  expectRunError(integrand(2, 1, 0, 1e200, One), {"volume", "beyond"});
  expectRunError(integrand(3, 1, 0, 1e-200, One), {"volume", "below"});
  expectRunError(integrand(1, 1, 0, 1e300,
                           [](const double *X, double *O) { O[0] = X[0]; }),
                 {"not finite", "Jacobian"});
}

/// A zero component is exact, a far tail's underflowing hypercubes are
/// harmless: neither is an error, and the other values stay finite.
TEST(Hardening, ZeroComponentsAndFarTailsStillRun) {
  auto Integ = make(integrand(1, 2, 0, 1, [](const double *X, double *O) {
    O[0] = std::exp(-400 * X[0]); // ~1e-174 near x = 1
    O[1] = 0;
  }));
  auto R = Integ->run(5, 20000, 2);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_NEAR(R->Mean[0], 1.0 / 400, 5 * R->Error[0]);
  EXPECT_EQ(R->Mean[1], 0.0);
  EXPECT_EQ(R->Error[1], 0.0);
  EXPECT_TRUE(std::isfinite(R->Chi2Dof));
}

TEST(Hardening, AlphaAndThreadsHaveARange) {
  IntegratorOptions O;
  for (double A : {-1.0, 1.6, 3.0, 1e6, double(NAN)}) {
    O.Alpha = A;
    Status S = checkOptions(O);
    ASSERT_FALSE(bool(S)) << A;
    EXPECT_EQ(S.error().Option, "alpha");
    EXPECT_NE(S.message().find("from 0 to 1.5"), std::string::npos);
  }
  O.Alpha = 1.5;
  EXPECT_TRUE(bool(checkOptions(O)));
  for (unsigned T : {1025u, 100000u, 4294967295u}) {
    O.Threads = T;
    Status S = checkOptions(O);
    ASSERT_FALSE(bool(S)) << T;
    EXPECT_EQ(S.error().Option, "devices");
  }
  O.Threads = 1024;
  EXPECT_TRUE(bool(checkOptions(O)));
}

IntegrandInfo linear() {
  return integrand(2, 1, 0, 1, [](const double *X, double *O) {
    O[0] = X[0] + X[1];
  });
}

TEST(Hardening, CallsBeyondMemoryAreAnError) {
  for (double Calls : {1e17, 1e18}) { // terabytes of tiles
    auto Integ = make(linear());
    auto R = Integ->run(1, std::uint64_t(Calls));
    ASSERT_FALSE(bool(R)) << Calls;
    EXPECT_NE(R.message().find("of memory"), std::string::npos)
        << R.message();
    EXPECT_NE(R.message().find("Lower option 'calls'"), std::string::npos);
    EXPECT_TRUE(R.error().Option.empty()); // the machine's, not the value's
  }
}

/// Under an address-space limit a little above what the process maps, a
/// run that needs more is an error (exit 0 of the child), not a crash.
TEST(Hardening, AddressSpaceLimitIsAnError) {
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
  GTEST_SKIP() << "RLIMIT_AS under AddressSanitizer: its shadow memory "
                  "alone reserves terabytes of address space";
#endif
#endif
  pid_t Child = ::fork();
  ASSERT_GE(Child, 0);
  if (Child == 0) {
    long Pages = 0;
    if (FILE *F = std::fopen("/proc/self/statm", "r")) {
      if (std::fscanf(F, "%ld", &Pages) != 1)
        Pages = 0;
      std::fclose(F);
    }
    rlimit R{};
    R.rlim_cur = R.rlim_max = rlim_t(Pages) * 4096 + (rlim_t(200) << 20);
    ::setrlimit(RLIMIT_AS, &R);
    IntegratorOptions O;
    O.Threads = 1;
    auto Integ = Integrator::create(linear(), O);
    if (!Integ)
      ::_exit(0); // refused up front: fine too
    auto Res = (*Integ)->run(1, std::uint64_t(1e13)); // 1.4 GB of tiles
    ::_exit(!Res && Res.message().find("memory") != std::string::npos ? 0
                                                                       : 3);
  }
  int Status = 0;
  ASSERT_EQ(::waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFEXITED(Status)) << "signal " << WTERMSIG(Status);
  EXPECT_EQ(WEXITSTATUS(Status), 0);
}

/// A progress callback runs on the worker threads: what it throws (or an
/// allocation failing there) fails that worker, never the process.
TEST(Hardening, ExceptionsOnWorkerThreadsBecomeErrors) {
  auto Integ = make(linear());
  Integ->onProgress([](const IterationProgress &) {
    throw std::runtime_error("boom");
  });
  auto R = Integ->run(1, 10000);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(R.message().find("every device failed"), std::string::npos);
  EXPECT_NE(R.message().find("boom"), std::string::npos) << R.message();
  auto Oom = make(linear());
  Oom->onProgress([](const IterationProgress &) { throw std::bad_alloc(); });
  auto R2 = Oom->run(1, 10000);
  ASSERT_FALSE(bool(R2));
  EXPECT_NE(R2.message().find("out of memory"), std::string::npos);
}

IntegrandInfo scaled() {
  auto I = nativeIntegrand(
      "scaled", 2, 1, {0, 0}, {1, 1}, NativeParams{{"rs"}, {100}},
      [](std::span<const double> X, std::size_t N, std::size_t D,
         std::span<const double> P, std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K)
          Out[K] = P[0] * P[0] * (X[K * D] + X[K * D + 1]);
      });
  EXPECT_TRUE(bool(I));
  return *I;
}

/// A new parameter value is a new integral: the result is that of the runs
/// after it alone (rs^2 = 40000 here, not the average with 10000).
TEST(Hardening, SetParamStartsFreshStatistics) {
  auto Integ = make(scaled());
  ASSERT_TRUE(bool(Integ->run(4, 20000, 1)));
  ASSERT_TRUE(bool(Integ->setParam("rs", 100))); // same value: kept
  EXPECT_EQ(Integ->result().Iterations.size(), 5u);
  ASSERT_TRUE(bool(Integ->setParam("rs", 200)));
  EXPECT_TRUE(Integ->result().Iterations.empty());
  auto R = Integ->run(4, 20000);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Iterations.size(), 4u);
  EXPECT_NEAR(R->Mean[0], 40000, 5 * R->Error[0]);
  EXPECT_LT(R->Chi2Dof, 10);
  std::uint64_t Samples = 0;
  for (const IterationRow &Row : R->Iterations)
    Samples += Row.Samples;
  EXPECT_EQ(R->Evaluations, Samples);
  for (double Bad : {double(NAN), double(INFINITY)}) {
    Status S = Integ->setParam("rs", Bad);
    ASSERT_FALSE(bool(S));
    EXPECT_NE(S.message().find("finite"), std::string::npos);
  }
}

/// A restored run that is not finished keeps its parameters.
TEST(Hardening, SetParamIsRefusedDuringARestoredRun) {
  const std::string Path = testing::TempDir() + "/vf_hard_" +
                           std::to_string(::getpid()) + ".ckpt";
  auto A = make(scaled());
  ASSERT_TRUE(bool(A->checkpointTo(Path)));
  int Seen = 0;
  A->onIteration([&](const IterationRow &) {
    if (++Seen == 2)
      throw std::runtime_error("stop"); // as kill -9 after 2 iterations
  });
  EXPECT_THROW((void)A->run(5, 10000), std::runtime_error);
  auto B = make(scaled());
  ASSERT_TRUE(bool(B->loadState(Path)));
  Status S = B->setParam("rs", 300);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("2 of 5"), std::string::npos) << S.message();
  std::remove(Path.c_str());
}

} // namespace
