//===- runtime/devices/WorkerPool.h - The workers of an iteration -*- C++ -*-===//
//
// Runs an iteration's tiles on its workers, one thread each: every Device
// (devices/Device.h: CPU threads, simulated devices, GPUs, never asked
// which) asks the TileScheduler for chunks of consecutive tiles until it
// has none left; their measured rates feed the adaptive policy. Which
// worker ran which tile does not matter to the result: tiles write to
// their own slots and are reduced in tile order.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_WORKERPOOL_H
#define VF_RUNTIME_DEVICES_WORKERPOOL_H

#include "devices/Device.h"
#include "scheduler/TileScheduler.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vf {

/// One worker's share of an iteration.
struct WorkerTimes {
  std::uint64_t Tiles = 0, Chunks = 0, Samples = 0;
  double BusySeconds = 0;
  double IdleSeconds = 0; ///< from its last chunk to the iteration's end
  std::string Error;      ///< why the worker failed (empty: it did not)
};

/// Runs every tile the scheduler hands out on \p Workers threads and
/// waits. Work(worker, chunk)
/// runs a chunk and advances chunk.Begin past each tile it has finished
/// (whose outputs are final); when it returns an error the worker stops
/// and its unfinished tiles go back to the scheduler, where the other
/// workers pick them up - after the others have finished, in another pass.
/// \p TileSamples(tile) is a tile's sample count (for the rates the
/// scheduler learns). Workers with \p Disabled set take no part. Returns
/// each worker's timing; tiles remain unfinished only when every worker
/// failed (Sched.hasWork() then says so).
std::vector<WorkerTimes>
runWorkers(unsigned Workers, TileScheduler &Sched,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const std::function<Status(unsigned, TileScheduler::Chunk &)> &Work,
           std::vector<bool> Disabled = {});

/// runWorkers with Devices[w] as worker w, running its chunks into
/// \p Sink; the scheduler's tile t is the iteration's tile FirstTile + t
/// (an MPI rank's claim is part of an iteration). A device's error is
/// prefixed with its name.
std::vector<WorkerTimes>
runDevices(const std::vector<Device *> &Devices, TileScheduler &Sched,
           std::uint64_t FirstTile,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const TileSink &Sink, std::vector<bool> Disabled);

/// The number of CPU threads \p Threads means (0: every hardware thread).
unsigned cpuThreadCount(unsigned Threads);

/// Work(worker, i) for every i in [0, N) on \p Threads CPU threads, one
/// index at a time (for work that is not tiles, such as event batches).
void parallelFor(unsigned Threads, std::uint64_t N,
                 const std::function<void(unsigned, std::uint64_t)> &Work);

} // namespace vf

#endif // VF_RUNTIME_DEVICES_WORKERPOOL_H
