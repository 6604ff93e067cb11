//===- runtime/devices/WorkerPool.cpp - The workers of an iteration -------===//
//
// Threads are started per iteration: an iteration is milliseconds or more,
// a thread start microseconds, and nothing outlives the call.
//
//===----------------------------------------------------------------------===//

#include "devices/WorkerPool.h"

#include <chrono>
#include <exception>
#include <mutex>
#include <new>
#include <system_error>
#include <thread>

namespace vf {

using Clock = std::chrono::steady_clock;

static double seconds(Clock::duration D) {
  return std::chrono::duration<double>(D).count();
}

unsigned cpuThreadCount(unsigned Threads) {
  return Threads ? Threads : std::max(1u, std::thread::hardware_concurrency());
}

namespace {
/// A worker thread's chunk, with any exception (an integrand callback's,
/// std::bad_alloc) turned into the worker's failure: one escaping a
/// thread would end the process.
Status guardedWork(
    const std::function<Status(unsigned, TileScheduler::Chunk &)> &Work,
    unsigned W, TileScheduler::Chunk &C) {
  try {
    return Work(W, C);
  } catch (const std::bad_alloc &) {
    return Error{"out of memory"};
  } catch (const std::exception &E) {
    return Error{"exception: " + std::string(E.what())};
  } catch (...) {
    return Error{"an unknown exception"};
  }
}
} // namespace

std::vector<WorkerTimes>
runWorkers(unsigned Workers, TileScheduler &Sched,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const std::function<Status(unsigned, TileScheduler::Chunk &)> &Work,
           std::vector<bool> Disabled) {
  Disabled.resize(Workers, false);
  const std::vector<bool> Absent = Disabled;
  for (unsigned W = 0; W < Workers; ++W)
    if (Disabled[W])
      Sched.retire(W);
  std::vector<WorkerTimes> Times(Workers);
  std::vector<Clock::time_point> Done(Workers, Clock::now());
  auto Worker = [&](unsigned W) {
    for (TileScheduler::Chunk C = Sched.next(W); !C.empty();
         C = Sched.next(W)) {
      Clock::time_point T0 = Clock::now();
      TileScheduler::Chunk Left = C;
      Status S = guardedWork(Work, W, Left);
      std::uint64_t Samples = 0;
      for (std::uint64_t Tile = C.Begin; Tile < Left.Begin; ++Tile)
        Samples += TileSamples(Tile);
      double Busy = seconds(Clock::now() - T0);
      WorkerTimes &T = Times[W];
      T.BusySeconds += Busy;
      T.Tiles += Left.Begin - C.Begin;
      T.Samples += Samples;
      ++T.Chunks;
      if (!S) {
        T.Error = S.message();
        Sched.retire(W);
        Sched.requeue(Left);
        break;
      }
      Sched.report(W, Samples, Busy);
    }
    Done[W] = Clock::now();
  };
  // Tiles a failed worker gave back after the others had finished need
  // another pass; each pass either finishes them or loses a worker.
  do {
    std::vector<std::thread> Pool;
    int First = -1;
    for (unsigned W = 0; W < Workers; ++W) {
      if (Disabled[W])
        continue;
      if (First < 0) {
        First = int(W);
        continue;
      }
      // A thread the system refuses (a process or memory limit) is a
      // failed worker: the others take its tiles.
      try {
        Pool.emplace_back(Worker, W);
      } catch (const std::system_error &E) {
        Times[W].Error = "cannot start a thread: " + std::string(E.what());
        Sched.retire(W);
      }
    }
    if (First < 0)
      break;
    Worker(unsigned(First));
    for (std::thread &T : Pool)
      T.join();
    // Set here, not by the failing thread: the vector<bool>'s bits share
    // words, so concurrent writes from workers would race.
    for (unsigned W = 0; W < Workers; ++W)
      Disabled[W] = Disabled[W] || !Times[W].Error.empty();
  } while (Sched.hasWork());
  Clock::time_point End = Clock::now();
  for (unsigned W = 0; W < Workers; ++W)
    Times[W].IdleSeconds = Absent[W] ? 0 : seconds(End - Done[W]);
  return Times;
}

std::vector<WorkerTimes>
runDevices(const std::vector<Device *> &Devices, TileScheduler &Sched,
           std::uint64_t FirstTile,
           const std::function<std::uint64_t(std::uint64_t)> &TileSamples,
           const TileSink &Sink, std::vector<bool> Disabled) {
  return runWorkers(
      unsigned(Devices.size()), Sched,
      [&](std::uint64_t T) { return TileSamples(FirstTile + T); },
      [&](unsigned W, TileScheduler::Chunk &C) {
        TileScheduler::Chunk Abs{C.Begin + FirstTile, C.End + FirstTile};
        Status S = Devices[W]->run(Abs, Sink);
        C.Begin = Abs.Begin - FirstTile;
        return S ? S : Status(Error{Devices[W]->name() + ": " + S.message()});
      },
      std::move(Disabled));
}

void parallelFor(unsigned Threads, std::uint64_t N,
                 const std::function<void(unsigned, std::uint64_t)> &Work) {
  const unsigned Workers = cpuThreadCount(Threads);
  WorkerRates Rates(Workers);
  TileScheduler Sched(ScheduleSpec{SchedulePolicy::Dynamic, 1}, N, 1,
                      std::vector<WorkerLimits>(Workers), Rates);
  runWorkers(Workers, Sched, [](std::uint64_t) { return 1; },
             [&](unsigned W, TileScheduler::Chunk &C) {
               for (; C.Begin < C.End; ++C.Begin)
                 Work(W, C.Begin);
               return Status::ok();
             });
}

} // namespace vf
