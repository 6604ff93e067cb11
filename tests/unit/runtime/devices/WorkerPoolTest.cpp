//===- tests/unit/runtime/devices/WorkerPoolTest.cpp - Worker failures ----===//
//
// runWorkers with a worker that fails part-way through a chunk: the tiles
// it finished stay done, the rest go to the others (in a further pass when
// they had already finished), each tile runs exactly once, and the failure
// is reported. When every worker fails, tiles are left and the scheduler
// says so.
//
//===----------------------------------------------------------------------===//

#include "devices/WorkerPool.h"

#include <gtest/gtest.h>

#include <atomic>
#include <vector>

using namespace vf;

TEST(WorkerPoolTest, AFailedWorkersTilesAreRunByTheOthers) {
  for (const char *Policy : {"static", "dynamic:3", "guided", "adaptive"}) {
    const std::uint64_t Ntiles = 64;
    const unsigned Workers = 3;
    WorkerRates Rates(Workers);
    TileScheduler Sched(*ScheduleSpec::parse(Policy), Ntiles, 100,
                        std::vector<WorkerLimits>(Workers), Rates);
    std::vector<std::atomic<int>> Runs(Ntiles);
    std::atomic<bool> FailedOnce{false};
    std::vector<WorkerTimes> Times = runWorkers(
        Workers, Sched, [](std::uint64_t) { return 100; },
        [&](unsigned W, TileScheduler::Chunk &C) -> Status {
          for (; C.Begin < C.End; ++C.Begin) {
            // Worker 1 fails on the second tile of its first chunk.
            if (W == 1 && C.Begin > 0 && !FailedOnce.exchange(true))
              return Error{"injected"};
            ++Runs[C.Begin];
          }
          return Status::ok();
        });
    for (std::uint64_t T = 0; T < Ntiles; ++T)
      EXPECT_EQ(Runs[T].load(), 1) << Policy << ": tile " << T;
    EXPECT_FALSE(Sched.hasWork()) << Policy;
    if (FailedOnce)
      EXPECT_EQ(Times[1].Error, "injected") << Policy;
    std::uint64_t Tiles = 0;
    for (const WorkerTimes &T : Times)
      Tiles += T.Tiles;
    EXPECT_EQ(Tiles, Ntiles) << Policy;
  }
}

TEST(WorkerPoolTest, EveryWorkerFailingLeavesTilesUndone) {
  const unsigned Workers = 2;
  WorkerRates Rates(Workers);
  TileScheduler Sched(*ScheduleSpec::parse("dynamic:1"), 10, 100,
                      std::vector<WorkerLimits>(Workers), Rates);
  std::vector<WorkerTimes> Times = runWorkers(
      Workers, Sched, [](std::uint64_t) { return 100; },
      [](unsigned, TileScheduler::Chunk &) -> Status {
        return Error{"broken"};
      });
  EXPECT_TRUE(Sched.hasWork());
  EXPECT_EQ(Times[0].Error, "broken");
  EXPECT_EQ(Times[1].Error, "broken");
}

TEST(WorkerPoolTest, DisabledWorkersTakeNoPart) {
  const unsigned Workers = 3;
  WorkerRates Rates(Workers);
  TileScheduler Sched(*ScheduleSpec::parse("static"), 30, 100,
                      std::vector<WorkerLimits>(Workers), Rates);
  std::vector<std::atomic<int>> Runs(30);
  std::vector<WorkerTimes> Times = runWorkers(
      Workers, Sched, [](std::uint64_t) { return 100; },
      [&](unsigned W, TileScheduler::Chunk &C) -> Status {
        EXPECT_NE(W, 2u);
        for (; C.Begin < C.End; ++C.Begin)
          ++Runs[C.Begin];
        return Status::ok();
      },
      {false, false, true});
  for (int T = 0; T < 30; ++T)
    EXPECT_EQ(Runs[T].load(), 1);
  EXPECT_EQ(Times[2].Chunks, 0u);
  EXPECT_EQ(Times[2].IdleSeconds, 0.0);
}
