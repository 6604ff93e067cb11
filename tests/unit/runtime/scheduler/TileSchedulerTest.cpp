//===- tests/unit/runtime/scheduler/TileSchedulerTest.cpp - TileScheduler -===//
//
// The policies of ALGORITHM.md section 6 on simulated workers: a
// discrete-event simulation in which worker w computes S samples in
// S / speed_w seconds, so the imbalance of each policy is exact and
// repeatable (no threads, no clocks).
//
//===----------------------------------------------------------------------===//

#include "scheduler/TileScheduler.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <queue>
#include <tuple>

using namespace vf;

namespace {

struct SimResult {
  std::vector<std::uint64_t> Tiles; // per worker
  double Imbalance = 0;             // max over workers of idle/(busy+idle)
  std::vector<bool> Covered;        // every tile handed out exactly once
  double End = 0;                   // when the last worker finished
};

/// A worker as the simulation sees it: its speed, and for a GPU, its
/// minimum chunk and the start-up its first chunk pays (module load).
struct SimWorker {
  double Speed;
  std::uint64_t MinChunkSamples = 1;
  double FirstChunkDelay = 0;
};

/// One iteration: each worker asks for a chunk when idle, and reports the
/// one before as it asks (as WorkerPool's do); tiles are `TileSamples`
/// samples.
SimResult simulate(ScheduleSpec Spec, std::uint64_t Ntiles,
                   std::uint64_t TileSamples,
                   const std::vector<SimWorker> &Workers, WorkerRates &Rates,
                   double Jitter = 0) {
  std::vector<WorkerLimits> Limits(Workers.size());
  for (std::size_t W = 0; W < Workers.size(); ++W)
    Limits[W].MinChunkSamples = Workers[W].MinChunkSamples;
  TileScheduler S(Spec, Ntiles, TileSamples, Limits, Rates);
  SimResult R;
  R.Tiles.assign(Workers.size(), 0);
  R.Covered.assign(Ntiles, false);
  std::vector<double> Done(Workers.size(), 0);
  // (time free, worker, the finished chunk's samples and seconds): the
  // earliest free worker reports and asks next.
  using Event = std::tuple<double, unsigned, std::uint64_t, double>;
  std::priority_queue<Event, std::vector<Event>, std::greater<Event>> Q;
  for (unsigned W = 0; W < Workers.size(); ++W)
    Q.push({0.0, W, 0, 0.0});
  while (!Q.empty()) {
    auto [T, W, Finished, FinishedSecs] = Q.top();
    Q.pop();
    if (Finished)
      S.report(W, Finished, FinishedSecs);
    TileScheduler::Chunk C = S.next(W);
    if (C.empty()) {
      Done[W] = T;
      continue;
    }
    for (std::uint64_t I = C.Begin; I < C.End; ++I) {
      EXPECT_FALSE(R.Covered[I]) << "tile " << I << " handed out twice";
      R.Covered[I] = true;
    }
    std::uint64_t Samples = (C.End - C.Begin) * TileSamples;
    // Jitter: measured speeds wobble from chunk to chunk, as real ones do,
    // so which worker looks fastest keeps changing.
    double Wobble = 1 + Jitter * ((R.Tiles[W] + C.Begin) % 3 == 0 ? 1 : -1);
    double Secs = double(Samples) / (Workers[W].Speed * Wobble);
    if (R.Tiles[W] == 0)
      Secs += Workers[W].FirstChunkDelay;
    R.Tiles[W] += C.End - C.Begin;
    Q.push({T + Secs, W, Samples, Secs});
  }
  R.End = *std::max_element(Done.begin(), Done.end());
  for (unsigned W = 0; W < Workers.size(); ++W)
    R.Imbalance = std::max(R.Imbalance, (R.End - Done[W]) / R.End);
  return R;
}

SimResult simulate(ScheduleSpec Spec, std::uint64_t Ntiles,
                   std::uint64_t TileSamples, const std::vector<double> &Speeds,
                   WorkerRates &Rates, double Jitter = 0) {
  std::vector<SimWorker> Workers;
  for (double Speed : Speeds)
    Workers.push_back({Speed});
  return simulate(Spec, Ntiles, TileSamples, Workers, Rates, Jitter);
}

ScheduleSpec spec(const char *Text) { return *ScheduleSpec::parse(Text); }

} // namespace

/// ScheduleSpec::parse accepts the four policies and rejects the rest.
TEST(TileSchedulerTest, ParsePolicies) {
  EXPECT_EQ(spec("static").Policy, SchedulePolicy::Static);
  EXPECT_EQ(spec("guided").Policy, SchedulePolicy::Guided);
  EXPECT_EQ(spec("adaptive").Policy, SchedulePolicy::Adaptive);
  EXPECT_EQ(spec("dynamic:7").DynamicChunk, 7u);
  EXPECT_EQ(spec("dynamic:7").str(), "dynamic:7");
  EXPECT_FALSE(ScheduleSpec::parse("dynamic:0"));
  EXPECT_FALSE(ScheduleSpec::parse("dynamic:x"));
  EXPECT_FALSE(ScheduleSpec::parse("fastest"));
}

/// Every policy hands out every tile exactly once.
TEST(TileSchedulerTest, EveryTileOnce) {
  for (const char *P : {"static", "dynamic:3", "guided", "adaptive"}) {
    WorkerRates Rates(3);
    SimResult R = simulate(spec(P), 1000, 1000, {1e6, 1e7, 1e8}, Rates);
    EXPECT_EQ(std::count(R.Covered.begin(), R.Covered.end(), true), 1000)
        << P;
  }
}

/// Speeds 1:10:100: after the first iteration (which measures the rates),
/// the adaptive policy keeps every worker busy to within 5% of the end;
/// static, which splits evenly, leaves the fast workers idle most of the
/// time.
TEST(TileSchedulerTest, AdaptiveBalancesHeterogeneousWorkers) {
  std::vector<double> Speeds = {1e6, 1e7, 1e8};
  WorkerRates Adaptive(3), Static(3);
  for (int It = 0; It < 4; ++It) {
    SimResult A = simulate(spec("adaptive"), 4096, 2048, Speeds, Adaptive);
    SimResult S = simulate(spec("static"), 4096, 2048, Speeds, Static);
    EXPECT_GT(S.Imbalance, 0.5) << "iteration " << It;
    if (It == 0)
      continue;
    EXPECT_LT(A.Imbalance, 0.05) << "iteration " << It;
    // Work follows speed.
    EXPECT_GT(A.Tiles[2], 5 * A.Tiles[1]);
    EXPECT_GT(A.Tiles[1], 5 * A.Tiles[0]);
  }
}

/// The first iteration as an H200 with 15 CPU threads ran it (d = 8,
/// 1e10 calls): the GPU's first chunk, a saturating one plus the module's
/// start-up, came back after the CPU threads' first tiles. The first CPU
/// thread to report, seeing only CPU rates, took half of everything and
/// ran for minutes while the GPU sat idle. Until every worker has
/// reported, a chunk may only double, so the iteration ends near the time
/// the rates allow.
TEST(TileSchedulerTest, FirstReporterDoesNotTakeHalfBeforeTheGpuReports) {
  std::vector<SimWorker> Workers(15, SimWorker{1.6e7});
  Workers.push_back({2.5e9, 512 * 65536, 0.05});
  WorkerRates Rates(Workers.size());
  const std::uint64_t Ntiles = 100000, TileSamples = 65536;
  SimResult R = simulate(spec("adaptive"), Ntiles, TileSamples, Workers, Rates);
  double Total = 0;
  for (const SimWorker &W : Workers)
    Total += W.Speed;
  double Ideal = double(Ntiles * TileSamples) / Total;
  EXPECT_LT(R.End, 1.5 * Ideal + 0.05)
      << "the iteration took " << R.End << " s where the rates allow " << Ideal
      << " s";
  EXPECT_EQ(std::count(R.Covered.begin(), R.Covered.end(), true),
            std::ptrdiff_t(Ntiles));
}

/// Equally fast workers whose measured rates wobble, so each in turn looks
/// slower than the other: one may stop early, never both (every tile runs).
TEST(TileSchedulerTest, NearEqualWorkersNeverAllStop) {
  for (int It = 0; It < 20; ++It) {
    WorkerRates Rates(2);
    SimResult R = simulate(spec("adaptive"), 240 + It, 4096, {1e7, 1e7},
                           Rates, 0.05);
    EXPECT_EQ(std::count(R.Covered.begin(), R.Covered.end(), true),
              240 + It);
  }
}

/// The case above made explicit: B stops early because A is faster; then
/// A's measured rate drops below B's. A must still take the rest, since B
/// is no longer active.
TEST(TileSchedulerTest, LastActiveWorkerTakesTheRest) {
  WorkerRates Rates(2);
  TileScheduler S(spec("adaptive"), 2, 1000, {{}, {}}, Rates);
  S.report(0, 1000000, 0.1); // A: 1e7 samples/s
  S.report(1, 900000, 0.1);  // B: 9e6 samples/s
  TileScheduler::Chunk First = S.next(0);
  ASSERT_EQ(First.End - First.Begin, 1u);
  // One tile left: B would finish it after A could; B stops.
  EXPECT_TRUE(S.next(1).empty());
  S.report(0, 100000, 0.1); // A's rate falls below B's (5.5e6 < 9e6)
  TileScheduler::Chunk Rest = S.next(0);
  EXPECT_EQ(Rest.Begin, 1u) << "every worker stopped with a tile left";
  EXPECT_EQ(Rest.End, 2u);
}

/// Requeued tiles (a failed worker's) are handed out again.
TEST(TileSchedulerTest, RequeuedTilesComeBack) {
  WorkerRates Rates(2);
  TileScheduler S(spec("dynamic:4"), 16, 10, {{}, {}}, Rates);
  TileScheduler::Chunk Lost = S.next(0);
  EXPECT_EQ(Lost.End - Lost.Begin, 4u);
  S.requeue(Lost);
  TileScheduler::Chunk Again = S.next(1);
  EXPECT_EQ(Again.Begin, Lost.Begin);
  EXPECT_EQ(Again.End, Lost.End);
}

/// A worker's minimum chunk (e.g. what saturates a GPU) is respected.
TEST(TileSchedulerTest, MinimumChunk) {
  WorkerRates Rates(2);
  std::vector<WorkerLimits> L(2);
  L[1].MinChunkSamples = 50000;
  TileScheduler S(spec("guided"), 1000, 1000, L, Rates);
  TileScheduler::Chunk C = S.next(1);
  EXPECT_GE((C.End - C.Begin) * 1000, 50000u);
}

/// Under static, a worker that retired before taking its range leaves it
/// to the others, and hasWork() says when every range is gone.
TEST(TileSchedulerTest, StaticRangeOfARetiredWorkerIsTakenOver) {
  WorkerRates Rates(3);
  TileScheduler S(spec("static"), 30, 10, {{}, {}, {}}, Rates);
  S.retire(1);
  std::vector<bool> Covered(30, false);
  for (unsigned W : {0u, 2u, 0u, 2u})
    for (TileScheduler::Chunk C = S.next(W); !C.empty(); C = S.next(W)) {
      for (std::uint64_t T = C.Begin; T < C.End; ++T) {
        EXPECT_FALSE(Covered[T]);
        Covered[T] = true;
      }
    }
  EXPECT_TRUE(std::all_of(Covered.begin(), Covered.end(),
                          [](bool B) { return B; }));
  EXPECT_FALSE(S.hasWork());
}

/// A requeued chunk is work again even after every tile was handed out.
TEST(TileSchedulerTest, HasWorkCountsRequeuedTiles) {
  WorkerRates Rates(1);
  TileScheduler S(spec("dynamic:8"), 8, 10, {{}}, Rates);
  TileScheduler::Chunk C = S.next(0);
  EXPECT_FALSE(S.hasWork());
  S.requeue({C.Begin + 3, C.End});
  EXPECT_TRUE(S.hasWork());
  TileScheduler::Chunk Again = S.next(0);
  EXPECT_EQ(Again.Begin, C.Begin + 3);
  EXPECT_FALSE(S.hasWork());
}

// The adaptive rule that workers and MPI ranks share: half the share of
// what is left by rate, clamped; a slower one stops only while a faster
// one is there and its chunk would outlast everyone finishing the rest.
TEST(TileSchedulerTest, AdaptiveChunkRule) {
  // Rates 1 and 3 of 4, 64 left: half of 16 and of 48.
  EXPECT_EQ(adaptiveChunk(1, 4, 3, 64, 1, 64), 8u);
  EXPECT_EQ(adaptiveChunk(3, 4, 1, 64, 1, 64), 24u);
  EXPECT_EQ(adaptiveChunk(3, 4, 1, 64, 1, 10), 10u);
  // 1/100 of the speed, 4 left: one unit takes 1/1 s against 4/101 s for
  // all together, so the slow one stops; the fast one never does.
  EXPECT_EQ(adaptiveChunk(1, 101, 100, 4, 1, 4), 0u);
  EXPECT_GT(adaptiveChunk(100, 101, 1, 4, 1, 4), 0u);
  // Alone (no faster one left), even a slow worker takes the rest.
  EXPECT_GT(adaptiveChunk(1, 1, 0, 4, 1, 4), 0u);
}
