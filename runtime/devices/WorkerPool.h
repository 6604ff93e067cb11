//===- runtime/devices/WorkerPool.h - The workers of an iteration -*- C++ -*-===//
//
// Runs an iteration's tiles on its workers: each CPU thread, and each
// simulated device (`sim:R`, a worker that runs the CPU kernel on one
// thread and throttles itself to R samples/s, so scheduling can be tested
// with heterogeneous speeds on any machine). Workers ask the TileScheduler
// for chunks of consecutive tiles until it has none left; their measured
// rates feed the adaptive policy. Which worker ran which tile does not
// matter to the result: tiles write to their own slots and are reduced in
// tile order.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_WORKERPOOL_H
#define VF_RUNTIME_DEVICES_WORKERPOOL_H

#include "scheduler/TileScheduler.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vf {

struct WorkerSpec {
  std::string Name; ///< "cpu:0", "sim:1", "gpu:0"
  std::string Kind; ///< "cpu", "sim" or "gpu"
  double SimRate = 0; ///< samples/s a simulated device keeps to
  int Gpu = -1; ///< the GPU's index among the integrator's GPUs
};

/// \p CpuThreads CPU threads (0: every hardware thread, or none when
/// simulated devices are given and \p CpuThreads is 0 with \p NoCpu), then
/// one simulated device per rate.
std::vector<WorkerSpec> makeWorkers(unsigned CpuThreads, bool NoCpu,
                                    const std::vector<double> &SimRates);

/// One worker's share of an iteration.
struct WorkerTimes {
  std::uint64_t Tiles = 0, Chunks = 0, Samples = 0;
  double BusySeconds = 0;
  double IdleSeconds = 0; ///< from its last chunk to the iteration's end
  std::string Error;      ///< why the worker failed (empty: it did not)
};

/// Runs every tile the scheduler hands out and waits. Work(worker, chunk)
/// runs a chunk and advances chunk.Begin past each tile it has finished
/// (whose outputs are final); when it returns an error the worker stops
/// and its unfinished tiles go back to the scheduler, where the other
/// workers pick them up - after the others have finished, in another pass.
/// \p TileSamples(tile) is a tile's sample count (for the rates the
/// scheduler learns, and for throttling). Workers with \p Disabled set
/// take no part. Returns each worker's timing; tiles remain unfinished only
/// when every worker failed (Sched.hasWork() then says so).
std::vector<WorkerTimes>
runWorkers(const std::vector<WorkerSpec> &Workers, TileScheduler &Sched,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const std::function<Status(unsigned, TileScheduler::Chunk &)> &Work,
           std::vector<bool> Disabled = {});

/// The number of CPU threads \p Threads means (0: every hardware thread).
unsigned cpuThreadCount(unsigned Threads);

/// Work(worker, i) for every i in [0, N) on \p Threads CPU threads, one
/// index at a time (for work that is not tiles, such as event batches).
void parallelFor(unsigned Threads, std::uint64_t N,
                 const std::function<void(unsigned, std::uint64_t)> &Work);

} // namespace vf

#endif // VF_RUNTIME_DEVICES_WORKERPOOL_H
