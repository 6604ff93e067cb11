//===- tests/fakecuda/WarpEmulator.cpp - GPU warps on the CPU -------------===//
//
// Fibers: each lane has its own stack (mmap'd once per OS thread, with a
// guard page, reused by every warp that thread runs) and is entered with a
// hand-written x86-64 switch that saves only the callee-saved registers
// (not MXCSR or the x87 control word: the lanes of one OS thread share
// them, and nothing the kernels run changes them). The collectives follow the PTX ISA's
// definitions (shfl.sync's clamp and segment mask, match.any.sync,
// vote.ballot.sync, bar.warp.sync) and are strict where the ISA leaves the
// result undefined: every member lane must arrive, with the same mask, at
// the same kind of collective, and a shuffle must read a member lane.
//
//===----------------------------------------------------------------------===//

#include "WarpEmulator.h"

#include <array>
#include <cstring>
#include <sys/mman.h>
#include <vector>

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VF_FAKE_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define VF_FAKE_ASAN 1
#endif
#ifdef VF_FAKE_ASAN
#include <sanitizer/common_interface_defs.h>
#endif

#ifndef __x86_64__
#error "the warp emulator's fibers are written for x86-64"
#endif

extern "C" {
/// Saves the callee-saved state on the current stack, stores the stack
/// pointer in *Save and continues on the stack Load points to.
void vfFakeFiberSwitch(void **Save, void *Load);
/// A new fiber's first return address: calls r13(r12).
void vfFakeFiberStart();
}

asm(R"(
  .text
  .p2align 4
  .globl vfFakeFiberSwitch
  .hidden vfFakeFiberSwitch
  .type vfFakeFiberSwitch,@function
vfFakeFiberSwitch:
  pushq %rbp
  pushq %rbx
  pushq %r12
  pushq %r13
  pushq %r14
  pushq %r15
  movq %rsp, (%rdi)
  movq %rsi, %rsp
  popq %r15
  popq %r14
  popq %r13
  popq %r12
  popq %rbx
  popq %rbp
  ret
  .size vfFakeFiberSwitch, .-vfFakeFiberSwitch

  .p2align 4
  .globl vfFakeFiberStart
  .hidden vfFakeFiberStart
  .type vfFakeFiberStart,@function
vfFakeFiberStart:
  movq %r12, %rdi
  callq *%r13
  ud2
  .size vfFakeFiberStart, .-vfFakeFiberStart
)");

namespace vf::fakecuda {

namespace {

constexpr unsigned WarpSize = 32;
/// The kernel keeps a few arrays of VF_SAMPLER_MAX_DIM doubles per lane.
constexpr std::size_t StackBytes = std::size_t(512) << 10;
constexpr std::size_t GuardBytes = 4096;

enum class Op { ShflIdx, ShflBfly, MatchAny, Ballot, WarpSync };
enum class LaneState { Runnable, Waiting, Done };

const char *opName(Op K) {
  switch (K) {
  case Op::ShflIdx: return "shfl.sync.idx";
  case Op::ShflBfly: return "shfl.sync.bfly";
  case Op::MatchAny: return "match.any.sync";
  case Op::Ballot: return "vote.ballot.sync";
  case Op::WarpSync: return "bar.warp.sync";
  }
  return "?";
}

std::string hex(std::uint32_t V) {
  char B[16];
  std::snprintf(B, sizeof B, "0x%08x", V);
  return B;
}

struct Warp;

struct Lane {
  void *Sp = nullptr;
  char *Stack = nullptr; ///< lowest usable address
  Warp *W = nullptr;
  unsigned Id = 0;
  unsigned Tid[3] = {0, 0, 0};
  LaneState State = LaneState::Done;
  Op At = Op::WarpSync;
  std::uint32_t Mask = 0;
  int Value = 0, Arg = 0, Clamp = 0, Result = 0;
  void *FakeStack = nullptr; // AddressSanitizer's, while switched out
};

struct Warp {
  std::array<Lane, WarpSize> Lanes;
  std::uint32_t Present = 0;
  unsigned Ctaid[3] = {0, 0, 0};
  unsigned Ntid[3] = {1, 1, 1};
  vf_gpu_emu_kernel_fn Kernel = nullptr;
  void **Params = nullptr;
  const EmulatorOptions *Options = nullptr;
  Lane *Current = nullptr;
  void *SchedulerSp = nullptr;
  void *SchedulerFakeStack = nullptr;
  const void *SchedulerStack = nullptr;
  std::size_t SchedulerStackBytes = 0;
};

// Initial-exec: the fake driver is dlopen'd, and the general TLS model's
// __tls_get_addr on every intrinsic was a tenth of the emulation's time.
__attribute__((tls_model("initial-exec"))) thread_local Warp *CurrentWarp =
    nullptr;

/// One OS thread's lane stacks, reused by each warp it runs.
struct StackPool {
  char *Base = nullptr;
  StackPool() {
    void *M = mmap(nullptr, WarpSize * StackBytes, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_STACK, -1,
                   0);
    if (M == MAP_FAILED)
      return;
    Base = static_cast<char *>(M);
    for (unsigned I = 0; I < WarpSize; ++I)
      mprotect(Base + I * StackBytes, GuardBytes, PROT_NONE);
  }
  ~StackPool() {
    if (Base)
      munmap(Base, WarpSize * StackBytes);
  }
  char *stack(unsigned I) const { return Base + I * StackBytes + GuardBytes; }
};

void toScheduler(Lane &L, bool Exiting) {
  Warp &W = *L.W;
#ifdef VF_FAKE_ASAN
  __sanitizer_start_switch_fiber(Exiting ? nullptr : &L.FakeStack,
                                 W.SchedulerStack, W.SchedulerStackBytes);
#else
  (void)Exiting;
#endif
  vfFakeFiberSwitch(&L.Sp, W.SchedulerSp);
#ifdef VF_FAKE_ASAN
  __sanitizer_finish_switch_fiber(L.FakeStack, nullptr, nullptr);
#endif
}

void laneMain(Lane *L) {
#ifdef VF_FAKE_ASAN
  __sanitizer_finish_switch_fiber(nullptr, &L->W->SchedulerStack,
                                  &L->W->SchedulerStackBytes);
#endif
  L->W->Kernel(L->W->Params);
  L->State = LaneState::Done;
  toScheduler(*L, /*Exiting=*/true);
}

void resume(Warp &W, Lane &L) {
  W.Current = &L;
#ifdef VF_FAKE_ASAN
  __sanitizer_start_switch_fiber(&W.SchedulerFakeStack, L.Stack,
                                 StackBytes - GuardBytes);
#endif
  vfFakeFiberSwitch(&W.SchedulerSp, L.Sp);
#ifdef VF_FAKE_ASAN
  __sanitizer_finish_switch_fiber(W.SchedulerFakeStack, nullptr, nullptr);
#endif
}

/// A new fiber's stack: the frame vfFakeFiberSwitch pops, returning into
/// vfFakeFiberStart with r12 = the lane and r13 = laneMain.
void startFiber(Lane &L) {
  auto *Top = reinterpret_cast<std::uint64_t *>(
      (reinterpret_cast<std::uintptr_t>(L.Stack + StackBytes - GuardBytes) &
       ~std::uintptr_t(15)) -
      72);
  std::memset(Top, 0, 72);
  // Popped as r15, r14, r13, r12, rbx, rbp, then the return address, which
  // leaves the stack 16-byte aligned at vfFakeFiberStart's call (the two
  // slots above are padding).
  Top[2] = reinterpret_cast<std::uint64_t>(&laneMain);         // r13
  Top[3] = reinterpret_cast<std::uint64_t>(&L);                // r12
  Top[6] = reinterpret_cast<std::uint64_t>(&vfFakeFiberStart); // return
  L.Sp = Top;
  L.State = LaneState::Runnable;
}

int arrive(Op K, std::uint32_t Mask, int Value, int Arg, int Clamp) {
  Lane &L = *CurrentWarp->Current;
  L.At = K;
  L.Mask = Mask;
  L.Value = Value;
  L.Arg = Arg;
  L.Clamp = Clamp;
  L.State = LaneState::Waiting;
  toScheduler(L, /*Exiting=*/false);
  return L.Result;
}

std::uint32_t sreg(int Which) {
  const Warp &W = *CurrentWarp;
  switch (Which) {
  case VF_EMU_TID_X: return W.Current->Tid[0];
  case VF_EMU_NTID_X: return W.Ntid[0];
  case VF_EMU_CTAID_X: return W.Ctaid[0];
  case VF_EMU_CTAID_Y: return W.Ctaid[1];
  }
  return 0;
}
int shflIdx(std::uint32_t M, int V, int Src, int C) {
  return arrive(Op::ShflIdx, M, V, Src, C);
}
int shflBfly(std::uint32_t M, int V, int LaneMask, int C) {
  return arrive(Op::ShflBfly, M, V, LaneMask, C);
}
std::uint32_t matchAny(std::uint32_t M, int V) {
  return std::uint32_t(arrive(Op::MatchAny, M, V, 0, 0));
}
std::uint32_t ballot(std::uint32_t M, int P) {
  return std::uint32_t(arrive(Op::Ballot, M, P != 0, 0, 0));
}
void barWarpSync(std::uint32_t M) {
  if (CurrentWarp->Options->Inject != Fault::NoWarpSync)
    arrive(Op::WarpSync, M, 0, 0, 0);
}

const vf_gpu_emu_ops Ops = {sreg, shflIdx, shflBfly, matchAny, ballot,
                            barWarpSync};

/// The source lane of a shuffle for lane \p I (PTX ISA, shfl.sync).
unsigned shuffleSource(const Lane &L, bool Idx) {
  const unsigned Seg = unsigned(L.Clamp >> 8) & 31u, C = unsigned(L.Clamp) & 31u;
  const unsigned B = unsigned(L.Arg) & 31u;
  const unsigned MaxLane = (L.Id & Seg) | (C & ~Seg), MinLane = L.Id & Seg;
  unsigned J = Idx ? (MinLane | (B & ~Seg)) : (L.Id ^ B);
  return J <= MaxLane ? J : L.Id;
}

enum class Outcome { Done, Waits, Error };

/// Completes the collective lane \p I waits at if all its member lanes
/// have arrived at it; \p Why says what it waits for, or the error.
Outcome complete(Warp &W, unsigned I, std::string &Why) {
  Lane &L = W.Lanes[I];
  const std::uint32_t M = L.Mask;
  if (!(M >> I & 1u)) {
    Why = "lane " + std::to_string(I) + " calls " + opName(L.At) +
          " with mask " + hex(M) + ", which leaves itself out";
    return Outcome::Error;
  }
  for (unsigned J = 0; J < WarpSize; ++J) {
    if (!(M >> J & 1u))
      continue;
    const Lane &O = W.Lanes[J];
    const char *Because = nullptr;
    std::string Other;
    if (!(W.Present >> J & 1u))
      Other = "is not in the block (" + std::to_string(W.Ntid[0]) + " x " +
              std::to_string(W.Ntid[1]) + " x " + std::to_string(W.Ntid[2]) +
              " threads)";
    else if (O.State == LaneState::Done)
      Because = "has exited";
    else if (O.At != L.At || O.Mask != M)
      Other = std::string("waits at ") + opName(O.At) + " (mask " +
              hex(O.Mask) + ")";
    else
      continue;
    Why = "lane " + std::to_string(I) + " waits at " + opName(L.At) +
          " (mask " + hex(M) + ") for lane " + std::to_string(J) +
          ", which " + (Because ? std::string(Because) : Other);
    return Outcome::Waits;
  }
  for (unsigned J = 0; J < WarpSize; ++J) {
    if (!(M >> J & 1u))
      continue;
    Lane &O = W.Lanes[J];
    std::uint32_t R = 0;
    switch (L.At) {
    case Op::ShflIdx:
    case Op::ShflBfly: {
      unsigned Src = shuffleSource(O, L.At == Op::ShflIdx);
      if (W.Options->Inject == Fault::ShflOffByOne && L.At == Op::ShflIdx &&
          Src + 1 < WarpSize && (M >> (Src + 1) & 1u))
        ++Src;
      if (!(M >> Src & 1u)) {
        Why = "lane " + std::to_string(J) + "'s " + opName(L.At) +
              " reads lane " + std::to_string(Src) + ", outside its mask " +
              hex(M);
        return Outcome::Error;
      }
      O.Result = W.Lanes[Src].Value;
      break;
    }
    case Op::MatchAny:
      for (unsigned K = 0; K < WarpSize; ++K)
        if ((M >> K & 1u) && W.Lanes[K].Value == O.Value &&
            (K == J || W.Options->Inject != Fault::MatchAnyAlone))
          R |= 1u << K;
      O.Result = int(R);
      break;
    case Op::Ballot:
      for (unsigned K = 0; K < WarpSize; ++K)
        if ((M >> K & 1u) && W.Lanes[K].Value)
          R |= 1u << K;
      O.Result = int(R);
      break;
    case Op::WarpSync:
      break;
    }
  }
  for (unsigned J = 0; J < WarpSize; ++J)
    if (M >> J & 1u)
      W.Lanes[J].State = LaneState::Runnable;
  return Outcome::Done;
}

std::uint64_t splitmix(std::uint64_t &S) {
  std::uint64_t Z = (S += 0x9e3779b97f4a7c15ull);
  Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ull;
  Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebull;
  return Z ^ (Z >> 31);
}

/// Runs the warp's lanes to the end; "" or what went wrong.
std::string runWarp(Warp &W, std::uint64_t Rng) {
  std::vector<unsigned> Order;
  for (;;) {
    Order.clear();
    for (unsigned I = WarpSize; I-- > 0;)
      if ((W.Present >> I & 1u) && W.Lanes[I].State == LaneState::Runnable)
        Order.push_back(I);
    if (W.Options->Seed)
      for (std::size_t K = Order.size(); K > 1; --K)
        std::swap(Order[K - 1], Order[splitmix(Rng) % K]);
    for (unsigned I : Order)
      resume(W, W.Lanes[I]);
    bool Waiting = false, Progress = false;
    std::string FirstWhy;
    for (unsigned I = 0; I < WarpSize; ++I) {
      if (!(W.Present >> I & 1u) || W.Lanes[I].State != LaneState::Waiting)
        continue;
      Waiting = true;
      std::string Why;
      switch (complete(W, I, Why)) {
      case Outcome::Done: Progress = true; break;
      case Outcome::Error: return Why;
      case Outcome::Waits:
        if (FirstWhy.empty())
          FirstWhy = Why;
        break;
      }
    }
    if (!Waiting)
      return "";
    if (!Progress)
      return "deadlock: " + FirstWhy;
  }
}

} // namespace

std::string checkGeometry(const LaunchGeometry &G) {
  const unsigned *B = G.Block, *Gr = G.Grid;
  auto Dims = [](const unsigned *D) {
    return std::to_string(D[0]) + " x " + std::to_string(D[1]) + " x " +
           std::to_string(D[2]);
  };
  if (!B[0] || !B[1] || !B[2] || !Gr[0] || !Gr[1] || !Gr[2])
    return "grid " + Dims(Gr) + ", block " + Dims(B) + " has an empty dimension";
  if (B[0] > 1024 || B[1] > 1024 || B[2] > 64 ||
      std::uint64_t(B[0]) * B[1] * B[2] > 1024)
    return "block " + Dims(B) +
           " exceeds the device's 1024 threads per block (1024 x 1024 x 64)";
  if (Gr[0] > 0x7fffffffu || Gr[1] > 65535 || Gr[2] > 65535)
    return "grid " + Dims(Gr) + " exceeds the device's 2^31-1 x 65535 x 65535";
  if (G.SharedBytes > 48 * 1024)
    return std::to_string(G.SharedBytes) +
           " bytes of dynamic shared memory exceed the 49152 a kernel has "
           "without cuFuncSetAttribute";
  return "";
}

const vf_gpu_emu_ops *emulatorOps() { return &Ops; }

std::string runEmulated(const std::string &Name, vf_gpu_emu_kernel_fn Kernel,
                        void **Params, const LaunchGeometry &G,
                        const EmulatorOptions &O) {
  if (std::string Bad = checkGeometry(G); !Bad.empty())
    return Name + ": " + Bad;
  thread_local StackPool Pool;
  if (!Pool.Base)
    return Name + ": cannot map the emulated lanes' stacks";
  Warp W;
  W.Kernel = Kernel;
  W.Params = Params;
  W.Options = &O;
  std::memcpy(W.Ntid, G.Block, sizeof W.Ntid);
  const unsigned Threads = G.Block[0] * G.Block[1] * G.Block[2];
  Warp *Outer = CurrentWarp;
  CurrentWarp = &W;
  std::string Result;
  std::uint64_t Rng = O.Seed;
  for (unsigned Z = 0; Z < G.Grid[2] && Result.empty(); ++Z)
    for (unsigned Y = 0; Y < G.Grid[1] && Result.empty(); ++Y)
      for (unsigned X = 0; X < G.Grid[0] && Result.empty(); ++X)
        for (unsigned First = 0; First < Threads && Result.empty();
             First += WarpSize) {
          W.Ctaid[0] = X;
          W.Ctaid[1] = Y;
          W.Ctaid[2] = Z;
          W.Present = 0;
          for (unsigned I = 0; I < WarpSize; ++I) {
            Lane &L = W.Lanes[I];
            L = Lane{};
            L.W = &W;
            L.Id = I;
            const unsigned T = First + I;
            if (T >= Threads)
              continue;
            L.Tid[0] = T % G.Block[0];
            L.Tid[1] = T / G.Block[0] % G.Block[1];
            L.Tid[2] = T / (G.Block[0] * G.Block[1]);
            L.Stack = Pool.stack(I);
            W.Present |= 1u << I;
            startFiber(L);
          }
          if (std::string Why = runWarp(W, splitmix(Rng)); !Why.empty())
            Result = Name + ": block (" + std::to_string(X) + ", " +
                     std::to_string(Y) + ", " + std::to_string(Z) +
                     ") warp " + std::to_string(First / WarpSize) + ": " + Why;
        }
  CurrentWarp = Outer;
  return Result;
}

} // namespace vf::fakecuda
