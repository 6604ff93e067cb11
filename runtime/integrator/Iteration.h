//===- runtime/integrator/Iteration.h - One VEGAS+ iteration ----*- C++ -*-===//
//
// One iteration of the loop, as a sequence of named steps over a RunState
// (ALGORITHM.md sections 1-4):
//   1. bounds: the integrand's box (and histogram ranges) for the current
//      parameters, checked; checkMemory: the iteration's arrays fit;
//   2. prepare: the allocation n_h and the map for these calls; the
//      iteration's Philox word; its tiles of T(N) samples;
//   3. runTiles: the tiles on this process's devices (or, with several
//      ranks, this rank's claims and the exchange, RankExchange), each
//      committing its sums to IterationBuffers; cancellation drops it;
//   4. checkNonFinite: the policy for samples that are not finite;
//   5. estimate: edge segments merged in tile order, the hypercubes' mean
//      and (co)variance, Strata's moments; the histograms' cells;
//   6. adapt: the map and the allocation, unless frozen.
// It returns what happened (an IterationOutcome); adding it to the run and
// writing the checkpoint are the loop's (Integrator::Impl). Every
// floating-point reduction happens in an order fixed by tile and
// hypercube indices, never by timing: the result is bitwise the same for
// any number of threads, devices or ranks.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_ITERATION_H
#define VF_RUNTIME_INTEGRATOR_ITERATION_H

#include "vf/Integrand.h"
#include "vf/Integrator.h"
#include "vf/Result.h"

#include "integrator/ChannelWeights.h"
#include "integrator/DeviceSet.h"
#include "integrator/IterationBuffers.h"
#include "integrator/RankExchange.h"
#include "integrator/RunState.h"
#include "scheduler/TileScheduler.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vf {

/// What one iteration gives the loop.
struct IterationOutcome {
  /// cancel() dropped it: nothing of it is kept, and the next iteration
  /// draws its Philox words again.
  bool Cancelled = false;
  /// Index, Warmup, Samples, NonFinite, Seconds, Devices, Ranks and the
  /// largest weight set; RunState::add sets the rest.
  IterationRow Row;
  std::vector<double> Mean, Cov; ///< the estimate, its sampled covariance
};

class Iteration {
public:
  /// Iterations of \p I with options \p O and parameters \p Params on
  /// \p Workers, scheduled by \p Schedule; with several MPI ranks through
  /// \p Ranks. \p Cancel is cancel()'s request, \p Progress the progress
  /// observer (may be empty). All are borrowed and must outlive it.
  Iteration(const IntegrandInfo &I, const IntegratorOptions &O,
            const std::vector<double> &Params, DeviceSet &Workers,
            const ScheduleSpec &Schedule, RankExchange &Ranks,
            const std::atomic<bool> &Cancel,
            const std::function<void(const IterationProgress &)> &Progress)
      : I(I), O(O), Params(Params), Workers(Workers), Schedule(Schedule),
        Ranks(Ranks), Cancel(Cancel), Progress(Progress) {}

  /// One iteration of \p Calls samples on \p S (a warm-up one when
  /// \p Warmup): its Philox word, its map and allocation adapted, its
  /// histograms added; an error leaves no statistics of it.
  Expected<IterationOutcome> run(RunState &S, std::uint64_t Calls, bool Warmup);
  /// A multi-channel integrand's iteration (ChannelPasses.cpp): one pass
  /// per channel, in channel order, each with its own grid and share of
  /// \p Calls; their estimates added; then the weights and the grids
  /// adapted.
  Expected<IterationOutcome> runChannels(RunState &S, std::uint64_t Calls,
                                         bool Warmup);
  /// The next iteration re-samples a loaded grid finer than its calls
  /// can train (loadGrid).
  void fitLoadedMap() { FitLoadedMap = true; }

private:
  /// The options' max_hcube, lowered in single precision
  /// (Strata::hcubeCap).
  std::uint64_t hcubeCap() const {
    return Strata::hcubeCap(I.Dim, O.MaxHcube, O.Arithmetic == Precision::F32);
  }
  /// Whether several MPI ranks share the run.
  bool shared() const { return O.Ranks && O.Ranks->size() > 1; }
  /// Whether this rank's passes end at their packets (Cluster::sendsOnly).
  bool sendsOnly() const { return O.Ranks && O.Ranks->sendsOnly(); }

  // ChannelPasses.cpp: a multi-channel iteration's steps.
  struct ChannelPass;
  /// Channel S.Channel's pass of \p Calls in all, on the grid
  /// prepareChannel made for its share: its tiles, its estimate into
  /// \p Pass; its map's training data added.
  Status channelPass(RunState &S, std::uint64_t Calls, bool Warmup,
                     ChannelPass &Pass);
  /// The selected channel's grid for its share \p Share of \p Calls;
  /// with \p Fit, a loaded map re-sampled to what the calls can train.
  void prepareChannel(RunState &S, std::uint64_t Calls, std::uint64_t Share,
                      bool Fit);
  /// After every pass: the weights, then each channel's map and strata.
  void adaptChannels(RunState &S, std::uint64_t Calls, bool Warmup,
                     const std::vector<ChannelMoments> &Moments) const;
  /// The parameter block the kernels read: the user's parameters, then
  /// (with channels) the weights, which alpha() reads.
  const std::vector<double> &kernelParams() const {
    return ChannelParams.empty() ? Params : ChannelParams;
  }

  // Iteration.cpp: the steps.
  /// The box (Lo, Width) and histogram ranges for the parameters, checked.
  Status bounds(RunState &S);
  /// Whether the box has finite widths and volume.
  Status checkBox(const std::vector<double> &Hi) const;
  /// Whether the box is one the host tile samples (IntegrandCode::
  /// UnitBoxTile).
  Status checkTileBox(const std::vector<double> &Hi) const;
  /// Whether an iteration of \p Calls fits in memory (MemoryBudget.cpp),
  /// checked before prepare() allocates anything for it.
  Status checkMemory(std::uint64_t Calls) const;
  void prepare(RunState &S, std::uint64_t Calls);
  /// The kernel's inputs (pointers into \p S, Lo, Width, Params and,
  /// single, SingleInputs).
  vf_sampler_args samplerArgs(const RunState &S, std::uint64_t Calls);
  /// The single-precision kernels' inputs of \p A, rounded to float.
  void singleInputs(vf_sampler_args &A);
  void resetBuffers(const vf_sampler_args &A);
  /// The tiles on the devices (or this rank's share), into Buffers; sets
  /// Out.Cancelled, or Out.Row's Devices and Ranks.
  Status runTiles(const RunState &S, const vf_sampler_args &A, bool Warmup,
                  IterationOutcome &Out);
  /// This iteration's share of each device.
  std::vector<DeviceStats>
  deviceRows(const std::vector<WorkerTimes> &Times,
             const std::vector<std::string> &Failures) const;
  Error devicesFailed(unsigned Index,
                      const std::vector<std::string> &Failures) const;
  /// Counts the non-finite samples into \p Row; with on_nonfinite = stop
  /// the first of them, in sample order, is an error.
  Status checkNonFinite(const RunState &S, const vf_sampler_args &A,
                        IterationRow &Row) const;
  Error nonFiniteError(const RunState &S, const vf_sampler_args &A,
                       std::uint64_t Index, std::uint64_t Count) const;
  /// Adds the iteration's cells \p Cells ((I, V) per cell) to the run's.
  void addHistograms(RunState &S, bool Warmup, double Variance,
                     std::span<const double> Cells);
  void adapt(RunState &S, bool Warmup) const;

  // IterationEstimate.cpp: the reduction to an estimate.
  Status estimate(RunState &S, const vf_sampler_args &A,
                  std::vector<double> &Mean, std::vector<double> &Cov);
  Status checkEstimate(const RunState &S, std::uint64_t Nhcube,
                       const std::vector<double> &Mean,
                       const std::vector<double> &Cov,
                       const std::vector<std::uint64_t> &Underflow,
                       const std::vector<double> &Largest) const;
  /// The iteration's largest weight: its share of \p Variance (component
  /// 0's) and its point, into \p Row (Result.h).
  void largestWeight(const RunState &S, const vf_sampler_args &A,
                     double Variance, IterationRow &Row) const;
  /// Sample \p Index's point x (in the integrand's box), as the kernel
  /// drew it.
  std::vector<double> samplePoint(const RunState &S, const vf_sampler_args &A,
                                  std::uint64_t Index) const;
  /// "integrand 'f'", or "component C of integrand 'f'" for a vector one.
  std::string componentName(unsigned C) const;
  /// The error for a component whose values are so small (below 1e-301)
  /// that their average underflows to 0.
  Error tinyValuesError(unsigned C, double Largest) const;
  /// The error for hypercube \p H's segment \p Seg, whose sums overflowed
  /// or (\p Underflow) whose component's variance underflowed.
  Error sumsError(const RunState &S, std::uint64_t H, const double *Seg,
                  unsigned Component, bool Underflow) const;

  // Inputs, borrowed.
  const IntegrandInfo &I;
  const IntegratorOptions &O;
  const std::vector<double> &Params;
  DeviceSet &Workers;
  const ScheduleSpec &Schedule;
  RankExchange &Ranks;
  const std::atomic<bool> &Cancel;
  const std::function<void(const IterationProgress &)> &Progress;

  // Work areas, kept from one iteration to the next.
  IterationBuffers Buffers;
  std::vector<double> Lo, Width; ///< the box, for the kernel's inputs
  /// With --precision f32, the map's edges, then Lo and Width, as floats
  /// (vf_sampler_args::single_*).
  std::vector<float> SingleInputs;
  bool FitLoadedMap = false;     ///< loadGrid's map, not yet fitted
  std::vector<double> ChannelParams; ///< kernelParams() with channels
};

/// Samples per tile of an iteration of \p Calls.
std::uint64_t tileSize(std::uint64_t Calls);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_ITERATION_H
