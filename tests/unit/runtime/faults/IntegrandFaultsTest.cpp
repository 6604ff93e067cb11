//===- tests/unit/runtime/faults/IntegrandFaultsTest.cpp - User faults ----===//
//
// A fault inside runIntegrandCode ends the process with
// IntegrandCrashExitCode and the report naming the signal and the files,
// on the calling thread and on a worker thread alike (each with its own
// alternate signal stack: a stack overflow is reported too); an
// exception escaping the code is reported as SIGABRT; a fault outside it
// is left to the handler that was there before.
//
//===----------------------------------------------------------------------===//

#include "faults/IntegrandFaults.h"

#include <gtest/gtest.h>

#include <csignal>
#include <stdexcept>
#include <sys/wait.h>
#include <thread>

namespace {

using namespace vf;

/// An integer division the compiler can neither see through nor drop
/// (nor UBSan catch first, in the asan preset: the test is of the fault).
__attribute__((no_sanitize("integer-divide-by-zero"))) void divide(int Den) {
  volatile int D = Den;
  volatile int Quotient = 10 / D;
  (void)Quotient;
}

/// Never returns (v never exceeds 2); the addition after the call keeps
/// it from being a loop.
double deep(double V) {
  volatile double W = V;
  if (W > 2.0)
    return W;
  return deep(W + 1e-300) + 1.0;
}

void throwFromIntegrand() { throw std::runtime_error("escaped"); }

const FaultSite &site() {
  static const FaultSite S("f", "f.cpp");
  return S;
}

TEST(IntegrandFaultsDeathTest, DivisionByZeroIsReported) {
  EXPECT_EXIT(runIntegrandCode(site(), [] { divide(0); }),
              testing::ExitedWithCode(IntegrandCrashExitCode),
              "error: the integrand 'f' crashed \\(SIGFPE: integer division "
              "by zero.*, in f\\.cpp's code\\) at instruction 0x");
}

TEST(IntegrandFaultsDeathTest, StackOverflowOnAWorkerThreadIsReported) {
  EXPECT_EXIT(
      {
        std::thread T([] { runIntegrandCode(site(), [] { deep(0); }); });
        T.join();
      },
      testing::ExitedWithCode(IntegrandCrashExitCode),
      "crashed \\(SIGSEGV: stack overflow");
}

TEST(IntegrandFaultsDeathTest, AnEscapingExceptionIsReported) {
  EXPECT_EXIT(runIntegrandCode(site(), [] { throwFromIntegrand(); }),
              testing::ExitedWithCode(IntegrandCrashExitCode),
              "crashed \\(SIGABRT: abort\\(\\), or an exception escaping");
}

/// Dies by the signal (the default action) or by the handler installed
/// before (ASan's report in the asan preset), not with our exit code.
bool notOurExit(int Status) {
  return !WIFEXITED(Status) || WEXITSTATUS(Status) != IntegrandCrashExitCode;
}

TEST(IntegrandFaultsDeathTest, AFaultOutsideIsNotTheIntegrands) {
  runIntegrandCode(site(), [] {}); // the handlers are installed
  EXPECT_EXIT(divide(0), notOurExit, "");
}

TEST(IntegrandFaults, NormalCodeRunsAndNests) {
  int Calls = 0;
  runIntegrandCode(site(), [&] {
    runIntegrandCode(site(), [&] { ++Calls; });
    ++Calls;
  });
  EXPECT_EQ(Calls, 2);
}

} // namespace
