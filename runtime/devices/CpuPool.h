//===- runtime/devices/CpuPool.h - CPU worker threads -----------*- C++ -*-===//
//
// Runs an iteration's tiles on N threads. Each thread claims the next tile
// from a shared counter until none is left, so a slow thread never holds
// work another could do. Which thread ran which tile does not matter to the
// result: tiles write to their own slots and are reduced in tile order.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CPUPOOL_H
#define VF_RUNTIME_DEVICES_CPUPOOL_H

#include <cstdint>
#include <functional>
#include <vector>

namespace vf {

struct WorkerTimes {
  std::uint64_t Tiles = 0;
  double BusySeconds = 0;
  double IdleSeconds = 0; ///< from its last tile to the iteration's end
};

class CpuPool {
public:
  /// \p Threads workers; 0 means every hardware thread.
  explicit CpuPool(unsigned Threads);
  unsigned size() const { return Threads; }

  /// Calls Work(worker, tile) for every tile in [0, Ntiles) and waits.
  /// Returns each worker's timing.
  std::vector<WorkerTimes>
  run(std::uint64_t Ntiles,
      const std::function<void(unsigned, std::uint64_t)> &Work);

private:
  unsigned Threads;
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CPUPOOL_H
