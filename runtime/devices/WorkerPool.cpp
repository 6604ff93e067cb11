//===- runtime/devices/WorkerPool.cpp - The workers of an iteration -------===//
//
// Threads are started per iteration: an iteration is milliseconds or more,
// a thread start microseconds, and nothing outlives the call. A simulated
// device sleeps after each chunk until the chunk has taken samples / R
// seconds; it cannot be faster than the CPU kernel on one thread.
//
//===----------------------------------------------------------------------===//

#include "devices/WorkerPool.h"

#include <chrono>
#include <mutex>
#include <thread>

namespace vf {

using Clock = std::chrono::steady_clock;

static double seconds(Clock::duration D) {
  return std::chrono::duration<double>(D).count();
}

unsigned cpuThreadCount(unsigned Threads) {
  return Threads ? Threads : std::max(1u, std::thread::hardware_concurrency());
}

std::vector<WorkerSpec> makeWorkers(unsigned CpuThreads, bool NoCpu,
                                    const std::vector<double> &SimRates) {
  std::vector<WorkerSpec> W;
  unsigned N = NoCpu ? 0 : cpuThreadCount(CpuThreads);
  for (unsigned I = 0; I < N; ++I)
    W.push_back({"cpu:" + std::to_string(I), "cpu", 0, {}});
  for (std::size_t I = 0; I < SimRates.size(); ++I)
    W.push_back({"sim:" + std::to_string(I), "sim", SimRates[I], {}});
  return W;
}

std::vector<WorkerTimes>
runWorkers(const std::vector<WorkerSpec> &Workers, TileScheduler &Sched,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const std::function<void(unsigned, std::uint64_t)> &Work) {
  std::vector<WorkerTimes> Times(Workers.size());
  std::vector<Clock::time_point> Done(Workers.size());
  auto Worker = [&](unsigned W) {
    for (TileScheduler::Chunk C = Sched.next(W); !C.empty();
         C = Sched.next(W)) {
      Clock::time_point T0 = Clock::now();
      std::uint64_t Samples = 0;
      for (std::uint64_t Tile = C.Begin; Tile < C.End; ++Tile) {
        Work(W, Tile);
        Samples += TileSamples(Tile);
      }
      if (Workers[W].SimRate > 0)
        std::this_thread::sleep_until(
            T0 + std::chrono::duration_cast<Clock::duration>(
                     std::chrono::duration<double>(double(Samples) /
                                                   Workers[W].SimRate)));
      double Busy = seconds(Clock::now() - T0);
      WorkerTimes &T = Times[W];
      T.BusySeconds += Busy;
      T.Tiles += C.End - C.Begin;
      T.Samples += Samples;
      ++T.Chunks;
      Sched.report(W, Samples, Busy);
    }
    Done[W] = Clock::now();
  };
  std::vector<std::thread> Pool;
  for (unsigned W = 1; W < Workers.size(); ++W)
    Pool.emplace_back(Worker, W);
  if (!Workers.empty())
    Worker(0);
  for (std::thread &T : Pool)
    T.join();
  Clock::time_point End = Clock::now();
  for (unsigned W = 0; W < Workers.size(); ++W)
    Times[W].IdleSeconds = seconds(End - Done[W]);
  return Times;
}

void parallelFor(unsigned Threads, std::uint64_t N,
                 const std::function<void(unsigned, std::uint64_t)> &Work) {
  std::vector<WorkerSpec> Workers = makeWorkers(Threads, false, {});
  WorkerRates Rates(Workers.size());
  TileScheduler Sched(ScheduleSpec{SchedulePolicy::Dynamic, 1}, N, 1,
                      std::vector<WorkerLimits>(Workers.size()), Rates);
  runWorkers(
      Workers, Sched, [](std::uint64_t) { return 1; }, Work);
}

} // namespace vf
