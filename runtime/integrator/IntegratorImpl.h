//===- runtime/integrator/IntegratorImpl.h - The integrator's state -*- C++ -*-===//
//
// Integrator::Impl, shared by the files that implement one concept each:
//   Integrator.cpp    create, run, the result and the small accessors
//   Iteration.cpp     one iteration: tiles on the devices, the reduction,
//                     the estimate (sums that overflow or underflow are
//                     errors), adaptation
//   MemoryBudget.cpp  an iteration's memory, checked before allocating
//   RankExchange.cpp  MPI: ranks claim groups of tiles and exchange them
//   GroupPacket.cpp   the exchanged packets, checked before use
//   State.cpp         snapshot/restore, checkpoint and grid files
//   StateChecks.cpp   a loaded state's invariants (forged checkpoints)
//   DeviceSet.cpp     the devices of a run
//   EventStream.cpp   events from the frozen map (sample, unweight)
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H
#define VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H

#include "vf/Integrator.h"

#include "integrator/AdaptiveMap.h"
#include "integrator/Checkpoint.h"
#include "integrator/DeviceSet.h"
#include "integrator/HistogramAverage.h"
#include "integrator/Stats.h"
#include "integrator/Strata.h"
#include "reduction/HistogramSums.h"
#include "reduction/Segments.h"
#include "reduction/TrainingSums.h"
#include "scheduler/TileScheduler.h"

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <span>
#include <thread>

namespace vf {

using Clock = std::chrono::steady_clock;

/// Held by every Integrator call that reads or changes the state: a second
/// such call from another thread is refused with busyError rather than
/// waited for or let race. On the thread of the call under way (its
/// observers) only the Reentrant calls pass, those that take effect
/// between iterations (a checkpoint's path, a target, saving the state).
class BusyClaim {
public:
  BusyClaim(std::atomic<std::thread::id> &Owner, bool Reentrant = false)
      : Owner(Owner) {
    std::thread::id None;
    const std::thread::id Me = std::this_thread::get_id();
    Took = Owner.compare_exchange_strong(None, Me);
    Held = Took || (Reentrant && None == Me);
  }
  ~BusyClaim() {
    if (Took)
      Owner = std::thread::id();
  }
  BusyClaim(const BusyClaim &) = delete;
  BusyClaim &operator=(const BusyClaim &) = delete;
  explicit operator bool() const { return Held; }

private:
  std::atomic<std::thread::id> &Owner;
  bool Took = false, Held = false;
};

/// The error of a call refused by BusyClaim; \p What names the call.
Error busyError(const std::string &What);

struct Integrator::Impl {
  IntegrandInfo I;
  IntegratorOptions O;
  std::vector<double> Params;
  std::unique_ptr<AdaptiveMap> Map;
  std::unique_ptr<Strata> Str;
  bool Frozen = false;
  bool GridLoaded = false;     ///< loadGrid's map, not yet fitted to the calls
  std::uint64_t NextEvent = 0; // next event of the stream (sample/unweight)
  unsigned Iteration = 0; // the Philox iteration word; counts warm-up too
  /// The measured iterations combined (scalar or vector, chosen once).
  std::unique_ptr<IterationAverage> Average;
  std::vector<IterationRow> Rows;
  std::vector<std::vector<double>> Covs; // per row, for checkpoints
  std::vector<DeviceStats> Devices;
  std::uint64_t Evaluations = 0;
  double Wall = 0;
  RunPlan Plan;
  /// loadState() restored Plan: the next run() may continue it (run()).
  bool Restored = false;
  StopReason Stopped = StopReason::None;
  /// Integrator::cancel(); run() clears it when it returns.
  std::atomic<bool> CancelRequested{false};
  /// The thread of the call under way that reads or changes the state
  /// (BusyClaim), or none.
  std::atomic<std::thread::id> Busy{};
  std::string CheckpointPath;
  std::function<void(const IterationRow &)> Observer;
  std::function<void(const IterationProgress &)> Progress;
  /// The devices (with their rates and failures) and the scheduling policy.
  DeviceSet Workers;
  ScheduleSpec Schedule;
  std::vector<IntegratorNote> Notes;
  /// The per-iteration arrays (iterate) and the exchange's packets.
  struct {
    std::vector<double> Segs, Edges;
    HypercubeTerms Terms; // estimate()'s, one output
    std::vector<vf_tile_result> Results;
    TrainingSums Training{0, 1};
    HistogramSums Histograms;
    std::vector<std::uint64_t> Send, Receive;
  } Buffers;
  /// Histograms of observables: the cells combined over the measured
  /// iterations, and the ranges (lo, hi per axis) of the last iteration.
  HistogramAverage HistAverage;
  std::vector<double> HistRanges;
  /// MPI ranks' samples/s in the last iteration (empty: none measured).
  std::vector<double> RankRates;
  std::vector<RankStats> RankTotals;
  std::uint64_t ExchangeBytes = 0;

  Impl(IntegrandInfo In, IntegratorOptions Opt, ScheduleSpec S, DeviceSet D,
       std::vector<IntegratorNote> N)
      : I(std::move(In)), O(std::move(Opt)), Params(I.ParamDefaults),
        Average(IterationAverage::create(I.Outputs)), Workers(std::move(D)),
        Schedule(S), Notes(std::move(N)), HistAverage(I.HistCells) {}

  /// Whether several MPI ranks share the run.
  bool shared() const { return O.Ranks && O.Ranks->size() > 1; }

  /// Drops every iteration's statistics (a parameter changed), keeping
  /// the map, the allocation and the random stream's position.
  void startFreshStatistics();

  // Iteration.cpp
  /// One iteration; \p Cancelled set when cancel() dropped it (nothing
  /// of it is kept: the next one redraws it).
  Status iterate(std::uint64_t Calls, bool Warmup, bool &Cancelled);
  void prepare(std::uint64_t Calls);
  /// Whether an iteration of \p Calls fits in memory (MemoryBudget.cpp),
  /// checked before prepare() allocates anything for it.
  Status checkMemory(std::uint64_t Calls) const;
  /// Whether the integrand's box has finite widths and volume.
  Status checkBox(const std::vector<double> &Lo,
                  const std::vector<double> &Hi) const;
  vf_sampler_args samplerArgs(std::uint64_t Calls,
                              const std::vector<double> &Lo,
                              const std::vector<double> &Width);
  /// Sample \p Index's point x (in the integrand's box), as the kernel
  /// drew it.
  std::vector<double> samplePoint(const vf_sampler_args &A,
                                  std::uint64_t Index) const;
  Status nonFiniteError(const vf_sampler_args &A, std::uint64_t Index,
                        std::uint64_t Count);
  /// The iteration's largest weight: its share of \p Variance (component
  /// 0's) and its point, into \p Row (Result.h).
  void largestWeight(const vf_sampler_args &A, double Variance,
                     IterationRow &Row) const;
  Status estimate(const vf_sampler_args &A, std::vector<double> &Mean,
                  std::vector<double> &Cov);
  /// The error for hypercube \p H's segment \p S, whose sums overflowed
  /// or (\p Underflow) whose component's variance underflowed.
  /// "integrand 'f'", or "component C of integrand 'f'" for a vector one.
  std::string componentName(unsigned C) const;
  Status checkEstimate(std::uint64_t Nhcube, const std::vector<double> &Mean,
                       const std::vector<double> &Cov,
                       const std::vector<std::uint64_t> &Underflow,
                       const std::vector<double> &Largest) const;
  /// The error for a component whose values are so small (below 1e-301)
  /// that their average underflows to 0.
  Error tinyValuesError(unsigned C, double Largest) const;
  Error sumsError(std::uint64_t H, const double *S, unsigned Component,
                  bool Underflow) const;
  DeviceStats &deviceTotals(const Device &D);
  std::vector<DeviceStats>
  recordDevices(const std::vector<WorkerTimes> &Times,
                const std::vector<std::string> &Failures);
  void record(IterationRow Row, std::span<const double> Mean,
              std::span<const double> SampledCov);
  /// \p Error with the round-off floor of \p Mean added in quadrature.
  std::vector<double> withRoundoff(std::vector<double> Error,
                                   const std::vector<double> &Mean) const;
  /// The histograms of the result (Integrator::result).
  std::vector<Histogram> histograms() const;

  // RankExchange.cpp
  /// This rank's part of the iteration's tiles (in Buffers), claimed group
  /// by group and run with \p RunTiles, then the exchange; Finished is
  /// false when this rank's devices all failed.
  Status runOnRanks(
      Cluster &C,
      const std::function<bool(std::uint64_t, std::uint64_t)> &RunTiles,
      const std::atomic<std::uint64_t> &SamplesDone, const vf_sampler_args &A,
      unsigned Stride, bool &Finished, std::vector<RankStats> &RankRow);
  /// Gives every rank what the others computed for their groups (tile
  /// results, edge segments, the segments of hypercubes inside the groups,
  /// training partials), each sent once by its owner; returns the bytes
  /// this rank sent.
  /// Every received packet is checked whole before use (GroupPacket.h):
  /// a bad one is an error naming it (Cluster::describeRank).
  Expected<std::uint64_t> exchangeGroups(Cluster &C, std::uint64_t Owned,
                                         const vf_sampler_args &A,
                                         unsigned Stride);
  /// The groups this rank claims next of the \p Left unclaimed.
  std::uint64_t rankChunk(const Cluster &C, std::uint64_t Left) const;
  void learnRankRates(const std::vector<RankStats> &Row);

  // Integrator.cpp
  /// Runs Plan's remaining iterations, stopping early at the target.
  Expected<Result> runPlan(Integrator &Self);
  /// Whether the accuracy target is set and met by the combined estimate
  /// after a measured iteration of this plan (never in its warm-up).
  bool targetReached() const;
  /// Why the run stopped: as runPlan() decided, or, for a state restored
  /// by loadState() and not run since (a task engine's merged state), what
  /// runPlan() would decide at once.
  StopReason stopReason() const;

  // State.cpp
  CheckpointState snapshot(bool WithState) const;
  Status restore(CheckpointState S);
  Status restoreChecked(CheckpointState S, const std::string &Name);
};

/// The round-off floor of an estimate \p Mean of a \p Dim-dimensional
/// integral: sqrt(Dim + 2) eps |Mean|, eps = 2^-52 (docs/user-guide.md,
/// "Round-off"). Each sample's weight is a product of Dim map Jacobians
/// and the box volume, each rounded, and the estimate a sum: what the
/// sampled variance cannot see when those roundings repeat.
double roundoffFloor(unsigned Dim, double Mean);
/// sqrt(Variance + Floor^2), without Floor^2's underflow for tiny values.
double withFloor(double Variance, double Floor);

/// V with 17 significant digits (messages).
std::string formatDouble(double V);

/// The Error for the exception being handled, from an entry point doing
/// \p What ("run", "loadState", ...): out of memory says so and what to
/// lower; anything else is named by its what().
Error currentExceptionError(const std::string &What);

/// Runs an entry point's body \p Fn; an exception from below it (the
/// standard library's std::bad_alloc, std::system_error, or a callback's)
/// becomes an Error value, so that none leaves the library: a caller
/// through the C API, or a front end, sees an error, never std::terminate.
template <typename F>
auto guarded(const std::string &What, F &&Fn) -> decltype(Fn()) {
  try {
    return Fn();
  } catch (...) {
    return currentExceptionError(What);
  }
}

/// Samples per tile of an iteration of \p Calls (Iteration.cpp).
std::uint64_t tileSize(std::uint64_t Calls);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H
