//===- runtime/faults/IntegrandFaults.h - Faults in user code -*- C++ -*-===//
//
// A C or C++ integrand is the user's native code running inside this
// process: unbounded recursion, an integer division by zero, a trap, a
// local array larger than the stack, a write past an output array or an
// exception it lets escape ends the process with a signal. The process
// cannot go on after one (the code may hold locks or have corrupted
// memory), but it must not die silently either: while a thread runs an
// integrand's compiled code (runIntegrandCode), a fault there is reported
// from a handler on an alternate signal stack (per thread, so a stack
// overflow can be reported on the thread that overflowed) as
//
//   vegasc: error: the integrand 'f' crashed (SIGSEGV: stack overflow ...,
//   in f.cpp's code) at address 0x...
//
// written with write(2) alone, and the process ends with
// IntegrandCrashExitCode through _exit (no destructors, no flushing, no
// file written: a checkpoint from an earlier iteration stays as it was).
// A fault anywhere else is not the integrand's: it goes to the handler
// that was installed before (LLVM's stack dump in vegasc), or kills the
// process as it would have.
//
// The handlers are installed on the first run of integrand code, once per
// process, so every door (vegasc, Python, the C and C++ APIs) has them.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_FAULTS_INTEGRANDFAULTS_H
#define VF_RUNTIME_FAULTS_INTEGRANDFAULTS_H

#include <string>

namespace vf {

/// The exit code of a process whose integrand's code crashed (sysexits'
/// EX_SOFTWARE); docs/user-guide.md "Exit codes".
constexpr int IntegrandCrashExitCode = 70;

/// What a report names: the integrand and the files of its C/C++ code.
/// Must outlive every runIntegrandCode over it (the binding keeps it with
/// the compiled code).
class FaultSite {
public:
  FaultSite(const std::string &Integrand, const std::string &Files);

  /// "the integrand 'f' crashed (" and ", in f.cpp's code)", built here
  /// because the handler may not allocate.
  const std::string &head() const { return Head; }
  const std::string &tail() const { return Tail; }

private:
  std::string Head, Tail;
};

/// Runs Fn(Ctx) as \p Site's compiled code: a fault signal on this thread
/// meanwhile is reported as the integrand's and ends the process. An
/// exception escaping Fn ends it the same way (std::terminate's abort is
/// reported as SIGABRT). Nests; costs a few stores after the thread's
/// first call (which sets up its alternate stack).
void runIntegrandCode(const FaultSite &Site, void (*Fn)(void *),
                      void *Ctx) noexcept;

/// The same for a callable (any lambda).
template <typename F>
void runIntegrandCode(const FaultSite &Site, const F &Fn) {
  runIntegrandCode(
      Site, [](void *C) { (*static_cast<const F *>(C))(); },
      const_cast<void *>(static_cast<const void *>(&Fn)));
}

} // namespace vf

#endif // VF_RUNTIME_FAULTS_INTEGRANDFAULTS_H
