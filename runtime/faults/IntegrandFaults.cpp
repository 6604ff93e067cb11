//===- runtime/faults/IntegrandFaults.cpp - Faults in user code -----------===//
//
// POSIX signals underneath. The handler reads only a trivially
// destructible thread_local (constinit: no guard, no lazy allocation on
// access) and the FaultSite's prebuilt text, formats numbers into a local
// buffer and writes with write(2): everything it calls is
// async-signal-safe. Each thread that runs integrand code gets its own
// alternate signal stack on its first call (a stack overflow leaves no
// room on the thread's own stack to run a handler), freed when the
// thread ends.
//
//===----------------------------------------------------------------------===//

#include "faults/IntegrandFaults.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <pthread.h>
#include <ucontext.h>
#include <unistd.h>

namespace vf {

namespace {

/// The signals a fault in compiled code raises (SIGABRT: abort(), and
/// std::terminate for an exception that escapes).
constexpr int FaultSignals[] = {SIGSEGV, SIGBUS,  SIGFPE,
                                SIGILL,  SIGTRAP, SIGABRT};
constexpr int NumFaultSignals = sizeof(FaultSignals) / sizeof(int);

/// The handlers that were there before ours, by position in FaultSignals.
struct sigaction Previous[NumFaultSignals];

/// Whether the JIT writes /tmp/perf-PID.map (backends/PerfMap.h), read
/// once before any fault: getenv is not async-signal-safe.
bool PerfMap = false;

/// What the handler needs of this thread.
struct ThreadFaults {
  const FaultSite *Site = nullptr; ///< the code running now, if any
  std::uintptr_t StackLo = 0;      ///< the lowest address of its stack
  bool Ready = false;
};
constinit thread_local ThreadFaults Current;

/// Owns the thread's alternate stack, if this unit made it.
struct AltStack {
  void *Memory = nullptr;
  ~AltStack() {
    if (!Memory)
      return;
    stack_t Off{};
    Off.ss_flags = SS_DISABLE;
    ::sigaltstack(&Off, nullptr);
    std::free(Memory);
  }
};
thread_local AltStack OwnStack;

/// Appends to a fixed buffer without allocating.
struct Line {
  char Text[1024];
  std::size_t Size = 0;
  void add(const char *S) {
    while (*S && Size < sizeof Text)
      Text[Size++] = *S++;
  }
  void hex(std::uintptr_t V) {
    char Digits[2 + 2 * sizeof V + 1] = "0x";
    int N = 2 * int(sizeof V);
    while (N > 1 && !(V >> (4 * (N - 1)) & 0xf))
      --N;
    for (int K = 0; K < N; ++K)
      Digits[2 + K] = "0123456789abcdef"[V >> (4 * (N - 1 - K)) & 0xf];
    Digits[2 + N] = 0;
    add(Digits);
  }
  void dec(unsigned long V) {
    char Digits[24];
    int N = 0;
    do
      Digits[N++] = char('0' + V % 10);
    while (V /= 10);
    while (N)
      if (Size < sizeof Text)
        Text[Size++] = Digits[--N];
      else
        --N;
  }
  void write() {
    std::size_t Done = 0;
    while (Done < Size) {
      ssize_t W = ::write(2, Text + Done, Size - Done);
      if (W < 0 && errno == EINTR)
        continue;
      if (W <= 0)
        return;
      Done += std::size_t(W);
    }
  }
};

std::uintptr_t faultingInstruction(void *Context) {
  const auto *U = static_cast<const ucontext_t *>(Context);
#if defined(__x86_64__)
  return std::uintptr_t(U->uc_mcontext.gregs[REG_RIP]);
#elif defined(__aarch64__)
  return std::uintptr_t(U->uc_mcontext.pc);
#else
  (void)U;
  return 0;
#endif
}

std::uintptr_t stackPointer(void *Context) {
  const auto *U = static_cast<const ucontext_t *>(Context);
#if defined(__x86_64__)
  return std::uintptr_t(U->uc_mcontext.gregs[REG_RSP]);
#elif defined(__aarch64__)
  return std::uintptr_t(U->uc_mcontext.sp);
#else
  (void)U;
  return 0;
#endif
}

/// The stack grows down: a fault below the thread's stack is an overflow
/// when it is just below (the guard pages: deep recursion) or near the
/// stack pointer (a frame larger than the stack, which moved the stack
/// pointer far below it). One inside or above the stack (an output array
/// written past its end) is not.
bool isStackOverflow(const siginfo_t *Info, void *Context) {
  const auto Addr = std::uintptr_t(Info->si_addr);
  const std::uintptr_t Near = 1 << 20;
  if (Current.StackLo && Addr >= Current.StackLo)
    return false;
  if (Current.StackLo && Addr + Near >= Current.StackLo)
    return true;
  const std::uintptr_t Sp = stackPointer(Context);
  return Sp && Addr + 4096 >= Sp && Addr <= Sp + Near;
}

/// The signal's name and what it most likely means in an integrand.
const char *describe(int Sig, const siginfo_t *Info, void *Context) {
  switch (Sig) {
  case SIGSEGV:
    return isStackOverflow(Info, Context)
               ? "SIGSEGV: stack overflow, from unbounded recursion or a "
                 "local array larger than the thread's stack"
               : "SIGSEGV: invalid memory access, such as an array read or "
                 "written out of bounds";
  case SIGBUS:
    return "SIGBUS: invalid memory access";
  case SIGFPE:
    return Info->si_code == FPE_INTDIV || Info->si_code == FPE_INTOVF
               ? "SIGFPE: integer division by zero or overflow"
               : "SIGFPE: arithmetic fault";
  case SIGILL:
    return "SIGILL: a trap (__builtin_trap, or code the compiler proved "
           "unreachable, such as undefined behaviour)";
  case SIGTRAP:
    return "SIGTRAP: a trap";
  default:
    return "SIGABRT: abort(), or an exception escaping the integrand";
  }
}

/// The previous handler of \p Sig, as if ours had not been there.
void chain(int Slot, int Sig, siginfo_t *Info, void *Context) {
  const struct sigaction &P = Previous[Slot];
  if ((P.sa_flags & SA_SIGINFO) && P.sa_sigaction)
    return P.sa_sigaction(Sig, Info, Context);
  if (P.sa_handler != SIG_DFL && P.sa_handler != SIG_IGN)
    return P.sa_handler(Sig);
  // The default action: a fault re-executes its instruction and dies by
  // it; a sent signal is sent again.
  struct sigaction Default {};
  Default.sa_handler = SIG_DFL;
  ::sigaction(Sig, &Default, nullptr);
  if (Info->si_code <= 0)
    ::raise(Sig);
}

/// A fault raised by this thread's own code: not one sent by another
/// process (kill -SEGV), which goes where it went before.
bool raisedHere(int Sig, const siginfo_t *Info) {
  if (Info->si_code > 0)
    return Sig != SIGABRT;
  return Sig == SIGABRT && Info->si_pid == ::getpid();
}

void onFault(int Sig, siginfo_t *Info, void *Context) {
  int Slot = 0;
  while (Slot + 1 < NumFaultSignals && FaultSignals[Slot] != Sig)
    ++Slot;
  const FaultSite *Site = Current.Site;
  if (!Site || !raisedHere(Sig, Info))
    return chain(Slot, Sig, Info, Context);
  Line L;
  L.add(program_invocation_short_name);
  L.add(": error: ");
  L.add(Site->head().c_str());
  L.add(describe(Sig, Info, Context));
  L.add(Site->tail().c_str());
  if (std::uintptr_t Pc = faultingInstruction(Context)) {
    L.add(" at instruction ");
    L.hex(Pc);
  }
  if (Sig == SIGSEGV || Sig == SIGBUS) {
    L.add(", accessing ");
    L.hex(std::uintptr_t(Info->si_addr));
  }
  L.add("\nnote: the process ends here with exit code ");
  L.dec(IntegrandCrashExitCode);
  L.add(" (files written before, such as a checkpoint, are intact); ");
  if (PerfMap) {
    L.add("/tmp/perf-");
    L.dec(unsigned(::getpid()));
    L.add(".map names the compiled function at that instruction\n");
  } else {
    L.add("run with VF_PERF_MAP=1 to have the compiled function at that "
          "instruction named in /tmp/perf-PID.map\n");
  }
  L.write();
  ::_exit(IntegrandCrashExitCode);
}

void installHandlers() {
  const char *Map = std::getenv("VF_PERF_MAP");
  PerfMap = Map && *Map && std::strcmp(Map, "0") != 0;
  struct sigaction A {};
  A.sa_sigaction = onFault;
  A.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&A.sa_mask);
  for (int K = 0; K < NumFaultSignals; ++K)
    ::sigaction(FaultSignals[K], &A, &Previous[K]);
}

/// The thread's stack bounds, and an alternate stack where it has none.
void prepareThread() {
  static std::once_flag Once;
  std::call_once(Once, installHandlers);
  pthread_attr_t Attr;
  if (::pthread_getattr_np(::pthread_self(), &Attr) == 0) {
    void *Lo = nullptr;
    std::size_t Size = 0;
    if (::pthread_attr_getstack(&Attr, &Lo, &Size) == 0)
      Current.StackLo = std::uintptr_t(Lo);
    ::pthread_attr_destroy(&Attr);
  }
  stack_t Old{};
  if (::sigaltstack(nullptr, &Old) == 0 && (Old.ss_flags & SS_DISABLE)) {
    long Min = ::sysconf(_SC_SIGSTKSZ);
    std::size_t Size = std::max<std::size_t>(64 << 10, Min > 0 ? 4 * Min : 0);
    if (void *M = std::malloc(Size)) {
      stack_t New{};
      New.ss_sp = M;
      New.ss_size = Size;
      if (::sigaltstack(&New, nullptr) == 0)
        OwnStack.Memory = M;
      else
        std::free(M);
    }
  }
  Current.Ready = true;
}

} // namespace

FaultSite::FaultSite(const std::string &Integrand, const std::string &Files)
    : Head("the integrand '" + Integrand + "' crashed ("),
      Tail(", in " + Files + "'s code)") {}

void runIntegrandCode(const FaultSite &Site, void (*Fn)(void *),
                      void *Ctx) noexcept {
  if (!Current.Ready)
    prepareThread();
  const FaultSite *Outer = Current.Site;
  Current.Site = &Site;
  Fn(Ctx);
  Current.Site = Outer;
}

} // namespace vf
