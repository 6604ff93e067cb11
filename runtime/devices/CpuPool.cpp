//===- runtime/devices/CpuPool.cpp - CPU worker threads -------------------===//
//
// Threads are started per iteration: an iteration is milliseconds or more,
// a thread start microseconds, and nothing outlives the call.
//
//===----------------------------------------------------------------------===//

#include "devices/CpuPool.h"

#include <atomic>
#include <chrono>
#include <thread>

namespace vf {

using Clock = std::chrono::steady_clock;

static double seconds(Clock::duration D) {
  return std::chrono::duration<double>(D).count();
}

CpuPool::CpuPool(unsigned N)
    : Threads(N ? N : std::max(1u, std::thread::hardware_concurrency())) {}

std::vector<WorkerTimes>
CpuPool::run(std::uint64_t Ntiles,
             const std::function<void(unsigned, std::uint64_t)> &Work) {
  std::vector<WorkerTimes> Times(Threads);
  std::vector<Clock::time_point> Done(Threads);
  std::atomic<std::uint64_t> Next{0};
  auto Worker = [&](unsigned W) {
    for (;;) {
      std::uint64_t Tile = Next.fetch_add(1, std::memory_order_relaxed);
      if (Tile >= Ntiles)
        break;
      Clock::time_point T0 = Clock::now();
      Work(W, Tile);
      Times[W].BusySeconds += seconds(Clock::now() - T0);
      ++Times[W].Tiles;
    }
    Done[W] = Clock::now();
  };
  std::vector<std::thread> Pool;
  for (unsigned W = 1; W < Threads; ++W)
    Pool.emplace_back(Worker, W);
  Worker(0);
  for (std::thread &T : Pool)
    T.join();
  Clock::time_point End = Clock::now();
  for (unsigned W = 0; W < Threads; ++W)
    Times[W].IdleSeconds = seconds(End - Done[W]);
  return Times;
}

} // namespace vf
