//===- runtime/integrator/Integrator.cpp - The VEGAS+ iteration loop ------===//
//
// One iteration (ALGORITHM.md sections 1-4):
//   1. Strata gives the allocation n_h; its prefix sums order the samples
//      by hypercube. Tiles of T(N) samples are handed to the CPU workers.
//   2. Each tile runs the fused kernel: segments of complete hypercubes go
//      to their own slots, the tile's first and last (possibly partial)
//      hypercube to the tile's edge slots, map-training sums to a histogram
//      of the tile's own, added to the total in tile order.
//   3. Edge segments are merged in tile order; hypercubes give the estimate
//      and its (co)variance; Stats combines iterations.
//   4. The map and the allocation adapt, unless frozen.
// Every floating-point reduction happens in an order fixed by tile and
// hypercube indices, never by timing: the result is bitwise the same for
// any number of threads.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"

#include "SamplePoint.h"
#include "devices/WorkerPool.h"
#include "devices/cuda/CudaDevice.h"
#include "devices/cuda/CudaDriver.h"
#include "integrator/AdaptiveMap.h"
#include "integrator/Checkpoint.h"
#include "integrator/EventSampler.h"
#include "integrator/Segments.h"
#include "integrator/Stats.h"
#include "integrator/Strata.h"
#include "integrator/TrainingSums.h"

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <mutex>

#include <unistd.h>

namespace vf {

namespace {

using Clock = std::chrono::steady_clock;

/// Samples per tile: a function of the requested sample count only (so the
/// tiling, and hence the reduction order, is the same for any device mix).
/// Up to 4096 tiles per iteration, so that a device 100 times slower than
/// the fastest still gets its share in whole tiles and stops within a few
/// percent of the others, and at least 4096 samples each, so that per-tile
/// work (a dim x ninc training histogram) stays small.
std::uint64_t tileSize(std::uint64_t Calls) {
  std::uint64_t T = (Calls + 4095) / 4096;
  return std::clamp<std::uint64_t>(T, 4096, std::uint64_t(1) << 20);
}

std::string formatDouble(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.17g", V);
  return Buf;
}

void addTimes(WorkerTimes &Sum, const WorkerTimes &T) {
  Sum.Tiles += T.Tiles;
  Sum.Chunks += T.Chunks;
  Sum.Samples += T.Samples;
  Sum.BusySeconds += T.BusySeconds;
  Sum.IdleSeconds += T.IdleSeconds;
}

} // namespace

struct Integrator::Impl {
  IntegrandInfo I;
  IntegratorOptions O;
  std::vector<double> Params;
  std::unique_ptr<AdaptiveMap> Map;
  std::unique_ptr<Strata> Str;
  bool Frozen = false;
  std::uint64_t NextEvent = 0; // next event of the stream (sample/unweight)
  unsigned Iteration = 0; // the Philox iteration word; counts warm-up too
  RAvg Scalar;
  RAvgArray Vector;
  std::vector<IterationRow> Rows;
  std::vector<std::vector<double>> Covs; // per row, for checkpoints
  std::vector<DeviceStats> Devices;
  std::uint64_t Evaluations = 0;
  double Wall = 0;
  RunPlan Plan;
  std::string CheckpointPath;
  std::function<void(const IterationRow &)> Observer;
  std::function<void(const IterationProgress &)> Progress;
  /// The workers (CPU threads, simulated devices, GPUs), their measured
  /// rates (carried across iterations), the scheduling policy, and the
  /// workers that failed (out for the rest of the run).
  std::vector<std::unique_ptr<CudaDevice>> Gpus;
  std::vector<WorkerSpec> Workers;
  WorkerRates Rates;
  ScheduleSpec Schedule;
  std::vector<bool> Failed;
  std::vector<IntegratorNote> Notes;
  /// The per-iteration arrays (iterate) and the exchange's packets.
  struct {
    std::vector<double> Segs, Edges;
    std::vector<vf_tile_result> Results;
    TrainingSums Training{0, 1};
    std::vector<std::uint64_t> Send, Receive;
  } Buffers;
  /// MPI ranks' samples/s in the last iteration (empty: none measured).
  std::vector<double> RankRates;
  std::vector<RankStats> RankTotals;
  std::uint64_t ExchangeBytes = 0;

  /// The groups this rank claims next of the \p Left unclaimed: the
  /// adaptive policy's chunk among the ranks' measured rates (0: a slower
  /// rank stops), half an equal share until they are measured.
  std::uint64_t rankChunk(const Cluster &C, std::uint64_t Left) const {
    double Sum = 0, FastestOther = 0;
    for (int R = 0; R < int(RankRates.size()); ++R) {
      Sum += RankRates[R];
      if (R != C.rank())
        FastestOther = std::max(FastestOther, RankRates[R]);
    }
    if (RankRates.size() != std::size_t(C.size()) ||
        !(RankRates[C.rank()] > 0))
      return std::max<std::uint64_t>(
          1, std::uint64_t(std::ceil(double(Left) / C.size() / 2)));
    return adaptiveChunk(RankRates[C.rank()], Sum, FastestOther, Left, 1,
                         Left);
  }
  DeviceStats &deviceTotals(const WorkerSpec &W) {
    for (DeviceStats &D : Devices)
      if (D.Name == W.Name && D.Kind == W.Kind)
        return D;
    Devices.push_back({W.Name, W.Kind, 0, 0, 0, 0, {}});
    return Devices.back();
  }
  /// This rank's part of the iteration's tiles (in Buffers), claimed group
  /// by group and run with \p RunTiles, then the exchange; Finished is
  /// false when this rank's devices all failed.
  Status runOnRanks(
      Cluster &C,
      const std::function<bool(std::uint64_t, std::uint64_t)> &RunTiles,
      const std::atomic<std::uint64_t> &SamplesDone, unsigned Stride,
      bool &Finished, std::vector<RankStats> &RankRow);
  /// Gives every rank what the others computed for their groups (tile
  /// results, edge segments, the segments of hypercubes inside the groups,
  /// training partials), each sent once by its owner; returns the bytes
  /// this rank sent.
  Expected<std::uint64_t> exchangeGroups(Cluster &C, std::uint64_t Owned,
                                         unsigned Stride);
  void learnRankRates(const std::vector<RankStats> &Row) {
    RankRates.clear();
    for (const RankStats &R : Row)
      RankRates.push_back(R.BusySeconds > 0 ? double(R.Samples) / R.BusySeconds
                                            : 0.0);
    RankTotals.resize(Row.size());
    for (std::size_t R = 0; R < Row.size(); ++R) {
      RankTotals[R].Rank = Row[R].Rank;
      RankTotals[R].Samples += Row[R].Samples;
      RankTotals[R].BusySeconds += Row[R].BusySeconds;
      RankTotals[R].IdleSeconds += Row[R].IdleSeconds;
    }
  }

  Impl(IntegrandInfo In, IntegratorOptions Opt, ScheduleSpec S,
       std::vector<std::unique_ptr<CudaDevice>> G,
       std::vector<IntegratorNote> N)
      : I(std::move(In)), O(Opt), Params(I.ParamDefaults),
        Vector(std::max(1u, I.Outputs)), Gpus(std::move(G)),
        Workers(makeWorkers(cpuThreads(), O.NoCpu, O.SimulatedDevices)),
        Schedule(S), Notes(std::move(N)) {
    for (std::size_t G = 0; G < Gpus.size(); ++G)
      Workers.push_back({Gpus[G]->name(), "gpu", 0, int(G)});
    Rates = WorkerRates(Workers.size());
    Failed.assign(Workers.size(), false);
  }

  /// CPU threads: as asked, or this process's share of the hardware
  /// threads but one per GPU (the thread that feeds it).
  unsigned cpuThreads() const {
    if (O.Threads)
      return O.Threads;
    unsigned All = cpuThreadCount(0) / std::max(1u, O.MachineShare);
    unsigned G = unsigned(Gpus.size());
    return All > G ? All - G : 1;
  }

  Status iterate(std::uint64_t Calls, bool Warmup);
  vf_sampler_args samplerArgs(std::uint64_t Calls,
                              const std::vector<double> &Lo,
                              const std::vector<double> &Width);
  std::vector<DeviceStats>
  recordDevices(const std::vector<WorkerTimes> &Times,
                const std::vector<std::string> &Failures);
  void prepare(std::uint64_t Calls);
  Status nonFiniteError(const vf_sampler_args &A, std::uint64_t Index,
                        std::uint64_t Count);
  void record(IterationRow Row, std::span<const double> Mean,
              std::span<const double> Cov);
  CheckpointState snapshot(bool WithState) const;
  Status restore(CheckpointState S);
};

void Integrator::Impl::prepare(std::uint64_t Calls) {
  double Beta = O.Beta;
  if (!Str || Str->neval() != Calls)
    Str = std::make_unique<Strata>(I.Dim, Calls, Beta, O.MaxHcube);
  if (!Map)
    Map = std::make_unique<AdaptiveMap>(
        I.Dim, AdaptiveMap::chooseNinc(Calls, Str->nstrat(), O.MaxNinc));
}

Status Integrator::Impl::nonFiniteError(const vf_sampler_args &A,
                                        std::uint64_t Index,
                                        std::uint64_t Count) {
  // Recompute the bad sample's point exactly as the kernel drew it.
  std::uint64_t H = Strata::findHcube(Str->offsets(), Index);
  std::vector<double> K(I.Dim), X(I.Dim), F(I.Outputs);
  std::vector<vf_u32> Bin(I.Dim);
  vf_hcube_coords(H, I.Dim, A.nstrat, K.data());
  vf_sample_point(&A, I.Dim, Index, K.data(), X.data(), Bin.data());
  std::string Point, Value;
  for (unsigned D = 0; D < I.Dim; ++D)
    Point += (D ? ", " : "") + formatDouble(X[D]);
  if (I.Evaluate) {
    I.Evaluate(X.data(), 1, Params.data(), F.data());
    for (unsigned C = 0; C < I.Outputs; ++C)
      Value += (C ? ", " : "") + formatDouble(F[C]);
    Value = " is " + (I.Outputs > 1 ? "[" + Value + "]" : Value);
  }
  return Error{"integrand '" + I.Name + "'" + (Value.empty() ? " is not finite" : Value) +
               " at x = [" + Point + "] (sample " + std::to_string(Index) +
               " of iteration " + std::to_string(Iteration) + "; " +
               std::to_string(Count) +
               " non-finite sample(s) in this iteration). Fix the integrand "
               "there, or run with --on-nonfinite=zero to count such "
               "samples as 0"};
}

/// The kernel's inputs for this iteration (pointers into the map, the
/// allocation, \p Lo, \p Width and the parameters, which must outlive it).
vf_sampler_args Integrator::Impl::samplerArgs(std::uint64_t Calls,
                                              const std::vector<double> &Lo,
                                              const std::vector<double> &Width) {
  vf_sampler_args A{};
  A.seed = O.Seed;
  A.iteration = Iteration;
  A.dim = I.Dim;
  A.nout = I.Outputs;
  A.ninc = Map->ninc();
  A.nstrat = Str->nstrat();
  A.train = Frozen ? 0 : 1;
  A.nhcube = Str->nhcube();
  A.nsamples = Str->nevalUsed();
  A.tile_size = tileSize(Calls);
  A.edges = Map->edges().data();
  A.hcube_offsets = reinterpret_cast<const vf_u64 *>(Str->offsets().data());
  A.box_lo = Lo.data();
  A.box_width = Width.data();
  A.box_volume = 1;
  for (double W : Width)
    A.box_volume *= W;
  A.params = Params.data();
  return A;
}

/// This iteration's share of each worker, added to the run's totals, which
/// are kept by worker name: a run resumed from a checkpoint may have other
/// workers than the one that saved it.
std::vector<DeviceStats>
Integrator::Impl::recordDevices(const std::vector<WorkerTimes> &Times,
                                const std::vector<std::string> &Failures) {
  std::vector<DeviceStats> ThisIteration;
  for (unsigned W = 0; W < Times.size(); ++W) {
    const WorkerTimes &T = Times[W];
    ThisIteration.push_back({Workers[W].Name, Workers[W].Kind, T.Samples,
                             T.Chunks, T.BusySeconds, T.IdleSeconds,
                             Failures[W]});
    DeviceStats &D = deviceTotals(Workers[W]);
    if (!Failures[W].empty() && D.Error.empty())
      D.Error = Failures[W];
    D.Samples += T.Samples;
    D.Chunks += T.Chunks;
    D.BusySeconds += T.BusySeconds;
    D.IdleSeconds += T.IdleSeconds;
  }
  return ThisIteration;
}

Status Integrator::Impl::iterate(std::uint64_t Calls, bool Warmup) {
  Clock::time_point Start = Clock::now();
  std::vector<double> Lo, Hi;
  if (Status S = I.Domain(Params, Lo, Hi); !S)
    return S;
  prepare(Calls);
  ++Iteration;
  const unsigned K = I.Outputs, Stride = segmentStride(K);
  const unsigned Ninc = Map->ninc();
  std::vector<double> Width(I.Dim);
  for (unsigned D = 0; D < I.Dim; ++D)
    Width[D] = Hi[D] - Lo[D];
  const vf_sampler_args A = samplerArgs(Calls, Lo, Width);
  const std::uint64_t Ntiles = (A.nsamples + A.tile_size - 1) / A.tile_size;

  // The per-iteration arrays keep their memory from one iteration to the
  // next: freshly allocated, their pages would fault in every iteration.
  std::vector<double> &Segs = Buffers.Segs, &Edges = Buffers.Edges;
  std::vector<vf_tile_result> &Results = Buffers.Results;
  Segs.assign(A.nhcube * Stride, 0.0);
  Edges.assign(Ntiles * 2 * Stride, 0.0);
  Results.assign(Ntiles, vf_tile_result{});
  const std::size_t Bins = std::size_t(I.Dim) * Ninc;
  TrainingSums &Training = Buffers.Training;
  Training.reset(A.train ? Bins : 0, Ntiles);

  // GPUs receive the iteration's inputs; one that cannot is out.
  std::vector<std::string> NewFailures(Workers.size());
  for (unsigned W = 0; W < Workers.size(); ++W)
    if (Workers[W].Gpu >= 0 && !Failed[W])
      if (Status S = Gpus[Workers[W].Gpu]->begin(A, Params.size()); !S) {
        Failed[W] = true;
        NewFailures[W] = Workers[W].Name + ": " + S.message();
      }
  auto TileSamples = [&](std::uint64_t Tile) {
    return std::min(A.tile_size, A.nsamples - Tile * A.tile_size);
  };
  std::atomic<std::uint64_t> TilesDone{0}, SamplesDone{0};
  auto TileDone = [&](std::uint64_t Tile) {
    std::uint64_t N = TileSamples(Tile);
    std::uint64_t Done = SamplesDone.fetch_add(N) + N;
    // Within an iteration a rank sees only its own tiles: with several
    // ranks, progress is reported per iteration (onIteration) only.
    if (Progress && !(O.Ranks && O.Ranks->size() > 1))
      Progress({Iteration, Warmup, TilesDone.fetch_add(1) + 1, Ntiles, Done,
                A.nsamples});
  };
  const TileSink Sink{Segs.data(), Edges.data(), Results.data(),
                      A.train ? &Training : nullptr, TileDone};
  auto RunChunk = [&](unsigned W, TileScheduler::Chunk &C) -> Status {
    if (Workers[W].Gpu >= 0) {
      Status S = Gpus[Workers[W].Gpu]->run(C, Sink);
      return S ? S : Status(Error{Workers[W].Name + ": " + S.message()});
    }
    for (; C.Begin < C.End; ++C.Begin) {
      const std::uint64_t Tile = C.Begin;
      // A frozen map has no histograms: no buffer, no ordered submit.
      std::vector<double> Hist;
      if (A.train)
        Hist = Training.acquire();
      vf_tile_outputs Out{Segs.data(), Edges.data() + Tile * 2 * Stride,
                          Hist.data(), A.train ? Hist.data() + Bins : nullptr,
                          &Results[Tile]};
      I.SampleTile(&A, Tile, &Out);
      if (A.train)
        Training.submit(Tile, std::move(Hist));
      TileDone(Tile);
    }
    return Status::ok();
  };
  // Tiles [Tb, Te) on this process's workers; false if some are left
  // because every worker failed.
  std::vector<WorkerTimes> Times(Workers.size());
  auto RunTiles = [&](std::uint64_t Tb, std::uint64_t Te) {
    // A GPU's chunk sizes follow the tiles at hand: a rank's claim can be
    // a small part of the iteration.
    std::vector<WorkerLimits> Limits;
    for (const WorkerSpec &W : Workers)
      Limits.push_back(W.Gpu >= 0 ? Gpus[W.Gpu]->limits(A.tile_size, Te - Tb)
                                  : WorkerLimits{});
    TileScheduler Sched(Schedule, Te - Tb, A.tile_size, Limits, Rates);
    std::vector<WorkerTimes> T = runWorkers(
        Workers, Sched, [&](std::uint64_t L) { return TileSamples(Tb + L); },
        [&](unsigned W, TileScheduler::Chunk &C) {
          TileScheduler::Chunk Abs{C.Begin + Tb, C.End + Tb};
          Status S = RunChunk(W, Abs);
          C.Begin = Abs.Begin - Tb;
          return S;
        },
        Failed);
    for (unsigned W = 0; W < T.size(); ++W) {
      addTimes(Times[W], T[W]);
      if (!T[W].Error.empty()) {
        Failed[W] = true;
        NewFailures[W] = T[W].Error;
      }
    }
    return !Sched.hasWork();
  };
  bool Finished = true;
  std::vector<RankStats> RankRow;
  if (O.Ranks && O.Ranks->size() > 1) {
    if (Status S = runOnRanks(*O.Ranks, RunTiles, SamplesDone, Stride,
                              Finished, RankRow);
        !S)
      return S;
  } else {
    Finished = RunTiles(0, Ntiles);
  }
  if (!Finished) {
    std::string Why;
    for (unsigned W = 0; W < Workers.size(); ++W)
      if (!NewFailures[W].empty())
        Why += "; " + NewFailures[W];
    const bool Shared = O.Ranks && O.Ranks->size() > 1;
    std::string Where =
        Shared ? "rank " + std::to_string(O.Ranks->rank()) + ": " : "";
    return Error{Where + "iteration " + std::to_string(Iteration) +
                     ": every device failed, samples are left unevaluated" +
                     Why,
                 Shared ? ErrorScope::Rank : ErrorScope::Shared};
  }
  if (A.train)
    Training.finish();

  // Non-finite samples: the first in sample order, whatever ran it.
  std::uint64_t NonFinite = 0, FirstBad = 0;
  for (const vf_tile_result &R : Results) {
    if (R.nonfinite && !NonFinite)
      FirstBad = R.first_bad;
    NonFinite += R.nonfinite;
  }
  if (NonFinite && O.OnNonFinite == NonFinitePolicy::Stop)
    return nonFiniteError(A, FirstBad, NonFinite);

  for (std::uint64_t T = 0; T < Ntiles; ++T) {
    const vf_tile_result &R = Results[T];
    double *E = Edges.data() + T * 2 * Stride;
    mergeSegment(Segs.data() + R.first_hcube * Stride, E, K);
    if (R.last_hcube != R.first_hcube)
      mergeSegment(Segs.data() + R.last_hcube * Stride, E + Stride, K);
  }
  std::vector<double> Mean(K, 0.0), Cov(K * K, 0.0);
  Str->clearSums();
  for (std::uint64_t H = 0; H < A.nhcube; ++H) {
    const double *S = Segs.data() + H * Stride;
    addHypercubeEstimate(S, K, double(A.nhcube), Mean, Cov);
    Str->addSums(H, HypercubeSums{S[0], S[1], S[1 + K], S[1 + 2 * K]});
  }

  std::vector<DeviceStats> ThisIteration = recordDevices(Times, NewFailures);

  if (!Frozen) {
    Map->addTrainingData(Training.sums(), Training.weights());
    Map->adapt(O.Alpha);
    if (O.Beta > 0)
      Str->adapt();
  }
  Evaluations += A.nsamples;
  IterationRow Row;
  Row.Index = Iteration;
  Row.Warmup = Warmup;
  Row.Samples = A.nsamples;
  Row.NonFinite = NonFinite;
  Row.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  Row.Devices = std::move(ThisIteration);
  Row.Ranks = std::move(RankRow);
  Wall += Row.Seconds;
  ++Plan.Done;
  record(std::move(Row), Mean, Cov);
  if (!CheckpointPath.empty())
    if (Status S = writeCheckpoint(CheckpointPath, snapshot(true)); !S)
      return Error{"checkpoint: " + S.message()};
  if (Observer)
    Observer(Rows.back());
  return Status::ok();
}

/// Ranks claim groups of tiles (TrainingSums' groups, so each rank's
/// training partials are whole), guided by their measured shares, and run
/// them with RunTiles; then each sends what it computed to the others, so
/// every rank continues with the single-process state, bit for bit.
/// Finished turns false when this rank's devices all failed.
Status Integrator::Impl::runOnRanks(
    Cluster &C,
    const std::function<bool(std::uint64_t, std::uint64_t)> &RunTiles,
    const std::atomic<std::uint64_t> &SamplesDone, unsigned Stride,
    bool &Finished, std::vector<RankStats> &RankRow) {
  const TrainingSums &Training = Buffers.Training;
  const std::uint64_t G = Training.groups();
  if (Status S = C.startClaims(G); !S)
    return S;
  Clock::time_point T0 = Clock::now();
  std::uint64_t Owned = 0; // bit g: this rank ran group g (G <= 64)
  while (Finished) {
    // The ranks share the groups as the adaptive policy shares tiles.
    Expected<std::uint64_t> Now = C.claimed();
    if (!Now)
      return Now.error();
    const std::uint64_t Want = *Now < G ? rankChunk(C, G - *Now) : 0;
    if (Want == 0)
      break;
    Expected<Cluster::Range> R = C.claim(Want);
    if (!R)
      return R.error();
    if (R->empty())
      break;
    for (std::uint64_t Grp = R->Begin; Grp < R->End; ++Grp)
      Owned |= std::uint64_t(1) << Grp;
    Finished = RunTiles(Training.groupBegin(R->Begin),
                        Training.groupBegin(R->End));
  }
  double Busy = std::chrono::duration<double>(Clock::now() - T0).count();
  std::uint64_t Bad = Finished ? 0 : std::uint64_t(1) << (C.rank() % 64);
  if (Status S = C.orAll(&Bad, 1); !S)
    return S;
  double Idle = std::chrono::duration<double>(Clock::now() - T0).count() - Busy;
  // A rank whose devices all failed says why itself (Finished is false);
  // the others stop with it, and none takes part in another collective.
  if (Bad)
    return Finished ? Status(Error{"iteration " + std::to_string(Iteration) +
                                   ": every device of another rank failed "
                                   "(its messages say why); stopping every "
                                   "rank"})
                    : Status::ok();
  Expected<std::uint64_t> Bytes = exchangeGroups(C, Owned, Stride);
  if (!Bytes)
    return Bytes.error();
  ExchangeBytes = *Bytes;
  Expected<std::vector<double>> All = C.gatherAll(
      {double(SamplesDone.load()), Busy, Idle});
  if (!All)
    return All.error();
  for (int R = 0; R < C.size(); ++R)
    RankRow.push_back({R, std::uint64_t((*All)[3 * R]), (*All)[3 * R + 1],
                       (*All)[3 * R + 2]});
  learnRankRates(RankRow);
  return Status::ok();
}

namespace {
/// Copies N words between a packet and an array, in the packet's order.
struct Packer {
  std::vector<std::uint64_t> *Out = nullptr; ///< put() appends here
  const std::uint64_t *In = nullptr;         ///< get() reads from here
  template <typename T> void put(const T *Data, std::size_t Count) {
    std::size_t At = Out->size();
    Out->resize(At + Count * sizeof(T) / 8);
    std::memcpy(Out->data() + At, Data, Count * sizeof(T));
  }
  template <typename T> void get(T *Data, std::size_t Count) {
    std::memcpy(Data, In, Count * sizeof(T));
    In += Count * sizeof(T) / 8;
  }
};
} // namespace

Expected<std::uint64_t> Integrator::Impl::exchangeGroups(Cluster &C,
                                                         std::uint64_t Owned,
                                                         unsigned Stride) {
  static_assert(sizeof(vf_tile_result) % 8 == 0 && sizeof(double) == 8);
  TrainingSums &Training = Buffers.Training;
  std::vector<vf_tile_result> &Results = Buffers.Results;
  std::vector<double> &Edges = Buffers.Edges, &Segs = Buffers.Segs;
  const std::uint64_t G = Training.groups();
  std::span<double> Partials = Training.partials();
  const std::size_t PartialSize = Partials.size() / G;
  // A group's inner hypercubes: only its owner wrote them.
  auto Inside = [&](std::uint64_t Tb, std::uint64_t Te) {
    return innerHypercubes(Results[Tb].first_hcube, Results[Te - 1].last_hcube);
  };
  // Each group: its tiles' results and edge segments, its hypercubes'
  // segments, its training partial.
  auto Walk = [&](std::uint64_t Mask, Packer &P, bool Put) {
    for (std::uint64_t Grp = 0; Grp < G; ++Grp) {
      if (!(Mask >> Grp & 1))
        continue;
      std::uint64_t Tb = Training.groupBegin(Grp), Te = Training.groupBegin(Grp + 1);
      auto Move = [&](auto *Data, std::size_t Count) {
        Put ? P.put(Data, Count) : P.get(Data, Count);
      };
      Move(Results.data() + Tb, Te - Tb);
      Move(Edges.data() + Tb * 2 * Stride, (Te - Tb) * 2 * Stride);
      auto [First, Count] = Inside(Tb, Te);
      Move(Segs.data() + First * Stride, Count * Stride);
      Move(Partials.data() + Grp * PartialSize, PartialSize);
    }
  };
  std::vector<std::uint64_t> &Mine = Buffers.Send, &All = Buffers.Receive;
  Mine.assign(1, Owned);
  Packer Out{&Mine, nullptr};
  Walk(Owned, Out, true);
  const std::uint64_t Sent = 8 * Mine.size();
  std::vector<std::size_t> Counts;
  if (Status S = C.gatherWords(Mine, All, Counts); !S)
    return S.error();
  std::size_t Offset = 0;
  for (int R = 0; R < C.size(); Offset += Counts[R], ++R) {
    if (R == C.rank())
      continue;
    const std::uint64_t *Packet = All.data() + Offset;
    Packer In{nullptr, Packet + 1};
    Walk(Packet[0], In, false);
  }
  return Sent;
}

void Integrator::Impl::record(IterationRow Row, std::span<const double> Mean,
                              std::span<const double> Cov) {
  const unsigned K = I.Outputs;
  Row.Mean.assign(Mean.begin(), Mean.end());
  for (unsigned C = 0; C < K; ++C)
    Row.Error.push_back(std::sqrt(Cov[C * K + C]));
  if (K == 1) {
    Scalar.add(Mean[0], Row.Error[0], Row.Warmup);
    Row.CumMean = {Scalar.mean()};
    Row.CumError = {Scalar.sdev()};
    Row.Chi2Dof = Scalar.chi2dof();
    Row.Q = Scalar.Q();
  } else {
    Vector.add(Mean, Cov, Row.Warmup);
    Row.CumMean = Vector.mean();
    Row.CumError = Vector.sdev();
    Row.Chi2Dof = Vector.chi2dof();
    Row.Q = Vector.Q();
  }
  Rows.push_back(Row);
  Covs.emplace_back(Cov.begin(), Cov.end());
}

/// The state as plain data; without `WithState` only what
/// checkCompatible compares (identity, options, parameters).
CheckpointState Integrator::Impl::snapshot(bool WithState) const {
  CheckpointState S;
  S.Name = I.Name;
  S.Dim = I.Dim;
  S.Outputs = I.Outputs;
  S.ModuleHash = I.ModuleHash;
  S.Options = O;
  S.ParamNames = I.ParamNames;
  S.Params = Params;
  if (!WithState)
    return S;
  S.Plan = Plan;
  S.Iteration = Iteration;
  S.Frozen = Frozen;
  S.NextEvent = NextEvent;
  S.Evaluations = Evaluations;
  S.Wall = Wall;
  if (Map) {
    S.Ninc = Map->ninc();
    S.Edges.assign(Map->edges().begin(), Map->edges().end());
  }
  if (Str) {
    S.StrataNeval = Str->neval();
    S.Offsets.assign(Str->offsets().begin(), Str->offsets().end());
  }
  S.Rows = Rows;
  S.Covs = Covs;
  S.Devices = Devices;
  return S;
}

/// Replaces the state by a compatible checkpoint's; the statistics are
/// rebuilt by adding every iteration's inputs again, in order.
Status Integrator::Impl::restore(CheckpointState S) {
  std::unique_ptr<Strata> NewStr;
  if (!S.Offsets.empty()) {
    NewStr = std::make_unique<Strata>(I.Dim, S.StrataNeval, O.Beta, O.MaxHcube);
    if (!NewStr->restoreOffsets(S.Offsets))
      return Error{"the checkpoint's allocation does not fit " +
                   std::to_string(S.StrataNeval) + " calls per iteration"};
  }
  Str = std::move(NewStr);
  Map = S.Edges.empty()
            ? nullptr
            : std::make_unique<AdaptiveMap>(I.Dim, S.Ninc, std::move(S.Edges));
  Plan = S.Plan;
  Iteration = S.Iteration;
  Frozen = S.Frozen;
  NextEvent = S.NextEvent;
  Evaluations = S.Evaluations;
  Wall = S.Wall;
  Scalar = RAvg();
  Vector = RAvgArray(std::max(1u, I.Outputs));
  for (std::size_t K = 0; K < S.Rows.size(); ++K) {
    const IterationRow &R = S.Rows[K];
    if (I.Outputs == 1)
      Scalar.add(R.Mean[0], R.Error[0], R.Warmup);
    else
      Vector.add(R.Mean, S.Covs[K], R.Warmup);
  }
  Rows = std::move(S.Rows);
  Covs = std::move(S.Covs);
  Devices = std::move(S.Devices);
  return Status::ok();
}

Status checkSchedule(const std::string &Schedule) {
  Expected<ScheduleSpec> S = ScheduleSpec::parse(Schedule);
  return S ? Status::ok() : Status(S.error());
}

namespace {
/// This process's part of \p Which when O.MachineShare processes share
/// the machine.
std::vector<int> machineShareOf(const std::vector<int> &Which,
                                const IntegratorOptions &O) {
  const unsigned L = std::max(1u, O.MachineShare), R = O.MachineRank % L;
  if (L < 2 || Which.empty())
    return Which;
  std::vector<int> Mine;
  for (std::size_t K = R; K < Which.size(); K += L)
    Mine.push_back(Which[K]);
  // More processes than GPUs: the extra ones share, rather than have none.
  if (Mine.empty())
    Mine.push_back(Which[R % Which.size()]);
  return Mine;
}

/// The GPUs \p O asks for, set up for \p In. Named GPUs must work, and so
/// must every GPU found under GpusRequired; otherwise, with AllGpus, what
/// is missing or fails becomes a note.
Status setUpGpus(const IntegrandInfo &In, const IntegratorOptions &O,
                 std::vector<std::unique_ptr<CudaDevice>> &Gpus,
                 std::vector<IntegratorNote> &Notes) {
  if (!O.AllGpus && O.Gpus.empty())
    return Status::ok();
  const bool Optional = O.AllGpus && !O.GpusRequired;
  const CudaDriver &D = CudaDriver::get();
  if (!D.detected()) {
    if (!Optional)
      return Error{"no GPU to run on: " + D.unavailableReason()};
    Notes.push_back({IntegratorNote::Kind::NoGpu,
                     "no GPU (" + D.unavailableReason() + ")"});
    return Status::ok();
  }
  std::vector<int> Which = O.Gpus;
  if (O.AllGpus)
    for (int G = 0; G < D.deviceCount(); ++G)
      Which.push_back(G);
  for (int G : machineShareOf(Which, O)) {
    Expected<std::unique_ptr<CudaDevice>> Dev = CudaDevice::create(G, In);
    if (Dev)
      Gpus.push_back(std::move(*Dev));
    else if (Optional)
      Notes.push_back({IntegratorNote::Kind::GpuSkipped,
                       Dev.message() + "; running without it"});
    else
      return Dev.error();
  }
  return Status::ok();
}
} // namespace

Status checkOptions(const IntegratorOptions &O) {
  if (!(O.Alpha >= 0) || !std::isfinite(O.Alpha))
    return Error{optionRef("alpha") + " must be >= 0 (0: no map adaptation), "
                 "got " + formatDouble(O.Alpha),
                 ErrorScope::Shared, "alpha"};
  if (!(O.Beta >= 0 && O.Beta <= 1))
    return Error{optionRef("beta") + " must be between 0 and 1 (0: classic "
                 "VEGAS), got " + formatDouble(O.Beta),
                 ErrorScope::Shared, "beta"};
  if (O.MaxNinc < 2 || O.MaxNinc > 100000)
    return Error{optionRef("ninc") + " must be an integer from 2 to 100000, "
                 "got " + std::to_string(O.MaxNinc),
                 ErrorScope::Shared, "ninc"};
  if (O.MaxHcube < 1)
    return Error{"the hypercube cap must be at least 1"};
  if (Status S = checkSchedule(O.Schedule); !S) {
    Error E = S.error();
    if (E.Option.empty())
      E.Option = "schedule";
    return E;
  }
  for (double R : O.SimulatedDevices)
    if (!(R > 0) || !std::isfinite(R))
      return Error{"a simulated device needs a positive rate in samples/s, "
                   "got " + formatDouble(R)};
  if (O.NoCpu && O.SimulatedDevices.empty() && O.Gpus.empty() && !O.AllGpus)
    return Error{"no device to run on: no CPU threads and no other device"};
  return Status::ok();
}

Integrator::Integrator(std::unique_ptr<Impl> I) : P(std::move(I)) {}
Integrator::~Integrator() = default;

Expected<std::unique_ptr<Integrator>>
Integrator::create(IntegrandInfo In, IntegratorOptions O) {
  if (!In.SampleTile || !In.Domain)
    return Error{"integrand '" + In.Name +
                 "' has no compiled sampling kernel"};
  if (In.Dim == 0 || In.Dim > VF_SAMPLER_MAX_DIM)
    return Error{"integrand '" + In.Name + "' has " +
                 std::to_string(In.Dim) + " dimensions; the sampler supports "
                 "1 to " + std::to_string(VF_SAMPLER_MAX_DIM)};
  if (In.Outputs == 0 || In.Outputs > VF_SAMPLER_MAX_OUT)
    return Error{"integrand '" + In.Name + "' has " +
                 std::to_string(In.Outputs) + " components; integration "
                 "supports 1 to " + std::to_string(VF_SAMPLER_MAX_OUT)};
  if (Status C = checkOptions(O); !C)
    return C.error();
  Expected<ScheduleSpec> S = ScheduleSpec::parse(O.Schedule);
  std::vector<std::unique_ptr<CudaDevice>> Gpus;
  std::vector<IntegratorNote> Notes;
  if (Status G = setUpGpus(In, O, Gpus, Notes); !G)
    return G.error();
  if (O.NoCpu && O.SimulatedDevices.empty() && Gpus.empty())
    return Error{"no device to run on: no CPU threads and no other device"};
  return std::unique_ptr<Integrator>(new Integrator(std::make_unique<Impl>(
      std::move(In), O, *S, std::move(Gpus), std::move(Notes))));
}

Expected<Result> Integrator::run(unsigned Iterations, std::uint64_t Calls,
                                 unsigned Warmup) {
  if (Status S = checkRunPlan(Iterations, Calls, Warmup); !S)
    return S.error();
  RunPlan &Plan = P->Plan;
  if (Plan.unfinished())
    if (Status S = checkResume(Plan, Iterations, Calls, Warmup); !S)
      return S.error();
  if (!Plan.unfinished())
    Plan = RunPlan{Iterations, Calls, Warmup, 0};
  while (Plan.unfinished())
    if (Status S = P->iterate(Calls, Plan.Done < Warmup); !S) {
      Plan.Done = Plan.total(); // abandoned: the next run() starts afresh
      return S.error();
    }
  return result();
}

const RunPlan &Integrator::plan() const { return P->Plan; }

Status Integrator::saveState(const std::string &Path) const {
  return writeCheckpoint(Path, P->snapshot(true));
}

Status Integrator::loadState(const std::string &Path) {
  Expected<CheckpointState> S = readCheckpoint(Path);
  if (!S)
    return S.error();
  if (Status C = checkCompatible(*S, P->snapshot(false), Path); !C)
    return C;
  if (Status R = P->restore(std::move(*S)); !R)
    return Error{"checkpoint '" + Path + "': " + R.message()};
  return Status::ok();
}

Status Integrator::checkpointTo(std::string Path) {
  if (!Path.empty()) {
    // Probe the folder with a new file of our own (mkstemp never opens an
    // existing one), so a typo in the path is reported before the first,
    // possibly long, iteration.
    std::string Probe = Path + ".probe-XXXXXX";
    int Fd = ::mkstemp(Probe.data());
    if (Fd < 0)
      return Error{"cannot write the checkpoint '" + Path + "': " +
                   std::strerror(errno)};
    ::close(Fd);
    std::remove(Probe.c_str());
  }
  P->CheckpointPath = std::move(Path);
  return Status::ok();
}

Status Integrator::saveGrid(const std::string &Path) const {
  if (!P->Map)
    return Error{"no grid to save: the map is trained by run(), and no "
                 "iteration has run"};
  return writeGrid(Path, GridFile{P->I.Name, P->Map->dim(), P->Map->ninc(),
                                  std::vector<double>(P->Map->edges().begin(),
                                                      P->Map->edges().end())});
}

Status Integrator::loadGrid(const std::string &Path) {
  Expected<GridFile> G = readGrid(Path);
  if (!G)
    return G.error();
  if (G->Dim != P->I.Dim)
    return Error{"grid '" + Path + "' has " + std::to_string(G->Dim) +
                 " dimensions (trained on '" + G->Integrand +
                 "'); integrand '" + P->I.Name + "' has " +
                 std::to_string(P->I.Dim)};
  P->Map = std::make_unique<AdaptiveMap>(G->Dim, G->Ninc, std::move(G->Edges));
  return Status::ok();
}

void Integrator::freeze() { P->Frozen = true; }
bool Integrator::frozen() const { return P->Frozen; }

Status Integrator::setParam(const std::string &Name, double Value) {
  for (std::size_t K = 0; K < P->I.ParamNames.size(); ++K)
    if (P->I.ParamNames[K] == Name) {
      P->Params[K] = Value;
      return Status::ok();
    }
  std::string Names;
  for (const std::string &N : P->I.ParamNames)
    Names += (Names.empty() ? "" : ", ") + N;
  return Error{"unknown parameter '" + Name + "'" +
               (Names.empty() ? std::string("; the integrand has none")
                              : "; parameters: " + Names)};
}

const std::vector<double> &Integrator::params() const { return P->Params; }

Result Integrator::result() const {
  Result R;
  unsigned K = P->I.Outputs;
  R.Outputs = K;
  if (K == 1) {
    R.Mean = {P->Scalar.mean()};
    R.Error = {P->Scalar.sdev()};
    R.Covariance = {R.Error[0] * R.Error[0]};
    R.Chi2Dof = P->Scalar.chi2dof();
    R.Q = P->Scalar.Q();
  } else {
    R.Mean = P->Vector.mean();
    R.Error = P->Vector.sdev();
    R.Covariance = P->Vector.cov();
    R.Chi2Dof = P->Vector.chi2dof();
    R.Q = P->Vector.Q();
  }
  R.Iterations = P->Rows;
  R.Devices = P->Devices;
  R.Ranks = P->RankTotals;
  R.ExchangeBytes = P->ExchangeBytes;
  R.Evaluations = P->Evaluations;
  R.WallSeconds = P->Wall;
  return R;
}

void Integrator::onIteration(std::function<void(const IterationRow &)> F) {
  P->Observer = std::move(F);
}

void Integrator::onProgress(std::function<void(const IterationProgress &)> F) {
  P->Progress = std::move(F);
}

const IntegrandInfo &Integrator::integrand() const { return P->I; }
const IntegratorOptions &Integrator::options() const { return P->O; }

std::vector<WorkerInfo> Integrator::devices() const {
  std::vector<WorkerInfo> D;
  for (const WorkerSpec &W : P->Workers)
    D.push_back({W.Name, W.Kind,
                 W.Gpu >= 0        ? P->Gpus[W.Gpu]->description()
                 : W.Kind == "sim" ? "simulated device"
                                   : "CPU thread"});
  return D;
}

const std::vector<IntegratorNote> &Integrator::notes() const {
  return P->Notes;
}

//===-- Event generation (runtime/integrator/EventSampler.h) --------------===//

namespace {
Expected<EventSampler> frozenSampler(const IntegrandInfo &I,
                                     const IntegratorOptions &O,
                                     const std::vector<double> &Params,
                                     const AdaptiveMap *Map, const Strata *Str,
                                     bool Frozen) {
  if (!Map || !Str)
    return Error{"no events before training: run() at least one iteration, "
                 "then freeze()"};
  if (!Frozen)
    return Error{"events come from a frozen map: call freeze() after "
                 "training"};
  return EventSampler::create(
      {&I, Params, Map->edges(), Map->ninc(), Str->offsets(), Str->nstrat(),
       O.Seed, O.Threads, O.OnNonFinite == NonFinitePolicy::Stop});
}
} // namespace

Status
Integrator::sample(std::uint64_t N,
                   const std::function<void(const EventBatch &)> &Callback) {
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen);
  if (!E)
    return E.error();
  Status S = E->draw(EventSampler::EventStream, P->NextEvent, N,
                     [&](const EventBatch &B) {
                       Callback(B);
                       return true;
                     });
  if (S)
    P->NextEvent += N;
  return S;
}

Expected<UnweightStats>
Integrator::unweight(std::uint64_t N,
                     const std::function<void(const EventBatch &)> &Callback,
                     const UnweightOptions &O) {
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen);
  if (!E)
    return E.error();
  return E->unweight(N, P->NextEvent, O, Callback);
}

} // namespace vf
