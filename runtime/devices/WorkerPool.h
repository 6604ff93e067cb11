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
  std::string Name; ///< "cpu:0", "sim:1"
  std::string Kind; ///< "cpu" or "sim"
  double SimRate = 0; ///< samples/s a simulated device keeps to
  WorkerLimits Limits;
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
};

/// Runs Work(worker, tile) for every tile the scheduler hands out and
/// waits; \p TileSamples(tile) is a tile's sample count (for the rates the
/// scheduler learns, and for throttling). Returns each worker's timing.
std::vector<WorkerTimes>
runWorkers(const std::vector<WorkerSpec> &Workers, TileScheduler &Sched,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const std::function<void(unsigned, std::uint64_t)> &Work);

/// The number of CPU threads \p Threads means (0: every hardware thread).
unsigned cpuThreadCount(unsigned Threads);

/// Work(worker, i) for every i in [0, N) on \p Threads CPU threads, one
/// index at a time (for work that is not tiles, such as event batches).
void parallelFor(unsigned Threads, std::uint64_t N,
                 const std::function<void(unsigned, std::uint64_t)> &Work);

} // namespace vf

#endif // VF_RUNTIME_DEVICES_WORKERPOOL_H
