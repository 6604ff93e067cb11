//===- bench/scheduler/scheduler_overhead.cpp - Cost of a chunk -----------===//
//
// How much a chunk costs the scheduler, apart from the work in it: workers
// that do nothing ask for dynamic:1 chunks of 4096 tiles until none is
// left, so the time per chunk is the scheduler's (the lock, the policy, the
// rate update) plus runWorkers' bookkeeping. Adaptive is measured the same
// way. Reported for 1 worker and for every hardware thread contending.
//
//   scheduler_overhead [ROUNDS]
//
//===----------------------------------------------------------------------===//

#include "devices/WorkerPool.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>

using namespace vf;
using Clock = std::chrono::steady_clock;

static double perChunkMicros(const char *Policy, unsigned Threads,
                             unsigned Rounds) {
  const std::uint64_t Ntiles = 4096;
  const unsigned Workers = cpuThreadCount(Threads);
  WorkerRates Rates(Workers);
  double Best = 1e30;
  for (unsigned R = 0; R < Rounds; ++R) {
    TileScheduler Sched(*ScheduleSpec::parse(Policy), Ntiles, 4096,
                        std::vector<WorkerLimits>(Workers), Rates);
    std::uint64_t Chunks = 0;
    Clock::time_point T0 = Clock::now();
    std::vector<WorkerTimes> Times = runWorkers(
        Workers, Sched, [](std::uint64_t) { return 4096; },
        [](unsigned, TileScheduler::Chunk &C) {
          C.Begin = C.End;
          return Status::ok();
        });
    double Secs = std::chrono::duration<double>(Clock::now() - T0).count();
    for (const WorkerTimes &T : Times)
      Chunks += T.Chunks;
    Best = std::min(Best, 1e6 * Secs / double(Chunks));
  }
  return Best;
}

int main(int Argc, char **Argv) {
  unsigned Rounds = Argc > 1 ? unsigned(std::atoi(Argv[1])) : 20;
  unsigned All = cpuThreadCount(0);
  std::printf("%-12s %8s %14s\n", "policy", "threads", "us per chunk");
  for (const char *Policy : {"dynamic:1", "adaptive"})
    for (unsigned T : {1u, All})
      std::printf("%-12s %8u %14.3f\n", Policy, T,
                  perChunkMicros(Policy, T, Rounds));
  return 0;
}
