//===- tests/unit/runtime/integrator/RunControlTest.cpp - Run targets -----===//
//
// Integrator's accuracy target (IntegratorOptions::Rtol/Atol): a reachable
// target stops the run within its cap after at least two measured
// iterations and says so (Result::Stopped, TargetMet), an unreachable one
// runs to the cap and says it was not met, the iterations run are the same
// for any thread count; bad targets are refused naming the option.
// Extension: extend() and loadState() + run() with more iterations give
// bitwise the result of one run asked for that many from the start, and a
// restored run refuses other calls or warm-up, or fewer iterations than it
// has measured. restartStatistics() starts the average, not the samples.
// summary() has a row per iteration and the stop reason.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"
#include "vf/Summary.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <unistd.h>

namespace {

using namespace vf;

constexpr std::uint64_t Calls = 20000;

IntegrandInfo gauss() {
  auto I = nativeIntegrand(
      "gauss", 2, 1, {0, 0}, {1, 1}, NativeParams{},
      [](std::span<const double> X, std::size_t N, std::size_t Dim,
         std::span<const double>, std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K) {
          double R2 = 0;
          for (std::size_t D = 0; D < Dim; ++D)
            R2 += (X[K * Dim + D] - 0.4) * (X[K * Dim + D] - 0.4);
          Out[K] = std::exp(-R2 / 0.02);
        }
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

std::unique_ptr<Integrator> make(unsigned Threads, double Rtol = 0,
                                 double Atol = 0) {
  IntegratorOptions O;
  O.Seed = 3;
  O.Threads = Threads;
  O.Rtol = Rtol;
  O.Atol = Atol;
  auto Integ = Integrator::create(gauss(), O);
  EXPECT_TRUE(bool(Integ)) << (Integ ? "" : Integ.message());
  return std::move(*Integ);
}

bool sameBits(const Result &A, const Result &B) {
  auto Same = [](const std::vector<double> &X, const std::vector<double> &Y) {
    return X.size() == Y.size() &&
           std::memcmp(X.data(), Y.data(), X.size() * sizeof(double)) == 0;
  };
  if (!Same(A.Mean, B.Mean) || !Same(A.Error, B.Error) ||
      !Same({A.Chi2Dof, A.Q}, {B.Chi2Dof, B.Q}) ||
      A.Iterations.size() != B.Iterations.size())
    return false;
  for (std::size_t K = 0; K < A.Iterations.size(); ++K)
    if (!Same(A.Iterations[K].Mean, B.Iterations[K].Mean) ||
        !Same(A.Iterations[K].CumError, B.Iterations[K].CumError))
      return false;
  return true;
}

unsigned measured(const Result &R) {
  unsigned N = 0;
  for (const IterationRow &Row : R.Iterations)
    N += !Row.Warmup;
  return N;
}

std::string tempPath(const std::string &Tag) {
  return testing::TempDir() + "/vf_runctl_" + std::to_string(::getpid()) +
         "_" + Tag;
}

TEST(RunControl, ReachableTargetStopsWithinTheCap) {
  auto Integ = make(2, 2e-4);
  auto R = Integ->run(40, Calls, 2);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Target);
  EXPECT_TRUE(R->HasTarget && R->TargetMet);
  EXPECT_GE(measured(*R), 2u);
  EXPECT_LT(measured(*R), 40u);
  EXPECT_LE(R->Error[0], 2e-4 * std::fabs(R->Mean[0]));
  // It stops at the first iteration that meets it (from the second).
  ASSERT_GE(measured(*R), 3u) << "a target this easy tests nothing";
  const IterationRow &Before = R->Iterations[R->Iterations.size() - 2];
  EXPECT_GT(Before.CumError[0], 2e-4 * std::fabs(Before.CumMean[0]));
  EXPECT_EQ(Integ->plan().Iterations, measured(*R));
}

TEST(RunControl, UnreachableTargetRunsToTheCapAndSaysSo) {
  auto Integ = make(2, 0, 1e-12);
  auto R = Integ->run(4, Calls, 1);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Cap);
  EXPECT_TRUE(R->HasTarget);
  EXPECT_FALSE(R->TargetMet);
  EXPECT_EQ(measured(*R), 4u);
  EXPECT_STREQ(stopReasonName(R->Stopped), "max_iterations");
}

TEST(RunControl, NoTargetRunsEveryIteration) {
  auto R = make(1)->run(3, Calls, 1);
  ASSERT_TRUE(bool(R)) << R.message();
  EXPECT_EQ(R->Stopped, StopReason::Iterations);
  EXPECT_FALSE(R->HasTarget || R->TargetMet);
}

/// The stop decision is the combined estimate's, which is bitwise the same
/// for any thread count: so are the iterations run.
TEST(RunControl, TargetStopIsTheSameForAnyThreadCount) {
  auto A = make(1, 2e-4)->run(40, Calls, 2);
  auto B = make(3, 2e-4)->run(40, Calls, 2);
  ASSERT_TRUE(A && B);
  EXPECT_TRUE(sameBits(*A, *B));
}

TEST(RunControl, BadTargetsAreRefusedNamingTheOption) {
  for (auto [R, A, Name] : {std::tuple{-1.0, 0.0, "rtol"},
                            std::tuple{0.0, -1e-3, "atol"},
                            std::tuple{double(NAN), 0.0, "rtol"},
                            std::tuple{0.0, double(INFINITY), "atol"}}) {
    IntegratorOptions O;
    O.Rtol = R;
    O.Atol = A;
    Status S = checkOptions(O);
    ASSERT_FALSE(bool(S));
    EXPECT_EQ(S.error().Option, Name);
    EXPECT_NE(S.message().find(optionRef(Name).str()), std::string::npos);
    EXPECT_FALSE(bool(Integrator::create(gauss(), O)));
  }
  auto Integ = make(1);
  EXPECT_FALSE(bool(Integ->setTarget(-1, 0)));
  EXPECT_TRUE(bool(Integ->setTarget(1e-3, 0)));
}

TEST(RunControl, ExtendEqualsOneLongerRun) {
  auto Whole = make(2)->run(20, Calls, 3);
  auto Integ = make(1);
  ASSERT_TRUE(bool(Integ->run(10, Calls, 3)));
  auto Extended = Integ->extend(20);
  ASSERT_TRUE(Whole && Extended);
  EXPECT_TRUE(sameBits(*Whole, *Extended));
  EXPECT_FALSE(bool(Integ->extend(5))); // it has measured 20
  EXPECT_FALSE(bool(make(1)->extend(5))); // nothing to extend
}

TEST(RunControl, LoadStateThenMoreIterationsEqualsOneLongerRun) {
  const std::string Path = tempPath("extend");
  auto First = make(2);
  ASSERT_TRUE(bool(First->run(10, Calls, 3)));
  ASSERT_TRUE(bool(First->saveState(Path)));
  auto Whole = make(2)->run(20, Calls, 3);
  auto Second = make(3);
  ASSERT_TRUE(bool(Second->loadState(Path)));
  auto Extended = Second->run(20, Calls, 3);
  ASSERT_TRUE(Whole && Extended) << Extended.message();
  EXPECT_TRUE(sameBits(*Whole, *Extended));
  std::remove(Path.c_str());
}

/// vegas's per-call results: after restartStatistics() a run combines only
/// its own iterations, drawn as a run that adds up would draw them; the
/// row kept as warm-up weights its first iteration, in a restored state
/// too.
TEST(RunControl, RestartStatisticsKeepsTheSamplesAndStartsTheAverage) {
  auto Adding = make(2);
  ASSERT_TRUE(bool(Adding->run(3, Calls, 2)));
  auto Whole = Adding->run(4, Calls, 0);
  auto Integ = make(1);
  ASSERT_TRUE(bool(Integ->run(3, Calls, 2)));
  ASSERT_TRUE(bool(Integ->restartStatistics()));
  const std::string Path = tempPath("restart");
  ASSERT_TRUE(bool(Integ->saveState(Path)));
  auto Call = Integ->run(4, Calls, 0);
  ASSERT_TRUE(Whole && Call);
  EXPECT_EQ(measured(*Whole), 7u);
  ASSERT_EQ(Call->Iterations.size(), 5u);
  EXPECT_TRUE(Call->Iterations[0].Warmup);
  EXPECT_EQ(measured(*Call), 4u);
  for (unsigned K = 0; K < 5; ++K)
    EXPECT_EQ(Call->Iterations[K].Mean, Whole->Iterations[K + 4].Mean);
  EXPECT_NE(Call->Mean, Whole->Mean);
  auto Restored = make(3);
  ASSERT_TRUE(bool(Restored->loadState(Path)));
  auto Again = Restored->run(4, Calls, 0);
  ASSERT_TRUE(bool(Again)) << Again.message();
  EXPECT_TRUE(sameBits(*Call, *Again));
  std::remove(Path.c_str());
}

/// A new, smaller target after a run that met a larger one continues it:
/// bitwise the run that had the smaller target from the start.
TEST(RunControl, ANewTargetContinuesARestoredRun) {
  const std::string Path = tempPath("target");
  auto First = make(2, 4e-4);
  auto Loose = First->run(60, Calls, 2);
  ASSERT_TRUE(bool(Loose) && Loose->TargetMet);
  ASSERT_TRUE(bool(First->saveState(Path)));
  auto Whole = make(2, 1e-4)->run(60, Calls, 2);
  auto Second = make(1);
  ASSERT_TRUE(bool(Second->loadState(Path)));
  ASSERT_TRUE(bool(Second->setTarget(1e-4, 0)));
  auto Tight = Second->run(60, Calls, 2);
  ASSERT_TRUE(Whole && Tight) << Tight.message();
  EXPECT_TRUE(Tight->TargetMet);
  EXPECT_GT(measured(*Tight), measured(*Loose));
  EXPECT_TRUE(sameBits(*Whole, *Tight));
  std::remove(Path.c_str());
}

TEST(RunControl, ARestoredRunRefusesWhatCannotContinueIt) {
  const std::string Path = tempPath("refuse");
  auto First = make(1);
  ASSERT_TRUE(bool(First->checkpointTo(Path)));
  First->onIteration([&](const IterationRow &R) {
    if (R.Index == 4)
      (void)First->checkpointTo(""); // the file keeps 4 of 8 iterations
  });
  ASSERT_TRUE(bool(First->run(6, Calls, 2)));
  struct Case {
    unsigned Iterations;
    std::uint64_t Calls;
    unsigned Warmup;
    const char *Option, *Says;
  };
  for (const Case &C : {Case{6, 2 * Calls, 2, "calls", "another number"},
                        Case{6, Calls, 1, "warmup", "cannot change"},
                        Case{1, Calls, 2, "iterations", "already measured 2"}}) {
    auto Again = make(1);
    ASSERT_TRUE(bool(Again->loadState(Path)));
    auto R = Again->run(C.Iterations, C.Calls, C.Warmup);
    ASSERT_FALSE(bool(R)) << C.Option;
    EXPECT_EQ(R.error().Option, C.Option);
    EXPECT_NE(R.message().find(C.Says), std::string::npos) << R.message();
  }
  std::remove(Path.c_str());
}

TEST(RunControl, SummaryHasEveryIterationAndTheStop) {
  auto Integ = make(1, 0, 1e-12);
  ASSERT_TRUE(bool(Integ->run(3, Calls, 1)));
  const std::string S = Integ->summary();
  EXPECT_EQ(S, summary(Integ->result()));
  EXPECT_NE(S.find("chi2/dof"), std::string::npos);
  EXPECT_NE(S.find("\n      1w  "), std::string::npos) << S;
  EXPECT_NE(S.find("\n       4  "), std::string::npos) << S;
  EXPECT_NE(S.find("not met"), std::string::npos) << S;
  EXPECT_NE(S.find("result = "), std::string::npos) << S;
}

} // namespace
