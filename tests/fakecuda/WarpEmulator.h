//===- tests/fakecuda/WarpEmulator.h - GPU warps on the CPU -----*- C++ -*-===//
//
// Runs a launch of a GPU kernel compiled for the host under emulation
// (GpuEmulation.h) with its real geometry: every thread of
// every block is a lane of its warp, and the 32 lanes of a warp are fibers
// (own stacks, switched by a few instructions of assembly) that one OS
// thread schedules. A lane runs until it reaches a warp collective
// (shfl.sync, match.any.sync, vote.ballot.sync, bar.warp.sync) or exits;
// when no lane can run, the scheduler completes every collective whose
// member lanes have all arrived at it with the same mask, computes each
// lane's result and lets them run again. Lanes run in reverse lane order
// (or a seeded shuffle of it), never in the lane order a sequential loop
// would give, so a missing sync shows up as a different order of
// additions; a collective that cannot complete (a member lane exited, is
// outside the block, or waits at another collective or with another mask)
// is reported as a deadlock naming the kernel, the lanes and the
// collectives, instead of hanging.
//
// Fibers rather than threads: a switch costs nanoseconds instead of a
// futex round trip, the schedule is reproducible, and a deadlock is seen
// at once (no lane can run) rather than after a timeout.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_FAKECUDA_WARPEMULATOR_H
#define VF_TESTS_FAKECUDA_WARPEMULATOR_H

#include "GpuEmulation.h"

#include <cstdint>
#include <string>

namespace vf::fakecuda {

/// cuLaunchKernel's geometry.
struct LaunchGeometry {
  unsigned Grid[3] = {1, 1, 1};
  unsigned Block[3] = {1, 1, 1};
  unsigned SharedBytes = 0;
};

/// Deliberate kernel bugs the emulator injects (tests only): the lanes no
/// longer meet at bar.warp.sync, shfl.sync.idx reads the next lane, or
/// match.any.sync finds each lane alone.
enum class Fault { None, NoWarpSync, ShflOffByOne, MatchAnyAlone };

struct EmulatorOptions {
  Fault Inject = Fault::None;
  /// 0: lanes resume in reverse lane order; otherwise the seed of a
  /// shuffle per scheduling round.
  std::uint64_t Seed = 0;
};

/// The device limits a launch is checked against; "" when \p G fits, else
/// what does not.
std::string checkGeometry(const LaunchGeometry &G);

/// The intrinsics' table (bound into each emulated module once).
const vf_gpu_emu_ops *emulatorOps();

/// Runs \p Kernel (named \p Name in messages) on every thread of \p G with
/// cuLaunchKernel's \p Params; "" on success, else the deadlock or misuse
/// found.
std::string runEmulated(const std::string &Name, vf_gpu_emu_kernel_fn Kernel,
                        void **Params, const LaunchGeometry &G,
                        const EmulatorOptions &O);

} // namespace vf::fakecuda

#endif // VF_TESTS_FAKECUDA_WARPEMULATOR_H
