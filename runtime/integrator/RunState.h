//===- runtime/integrator/RunState.h - Where a run stands -------*- C++ -*-===//
//
// Everything the iteration loop carries from one iteration to the next,
// and exactly what a checkpoint stores of it (Checkpoint.h), as vegas
// keeps its "generated" fields apart from its inputs: the map, the
// allocation, the Philox iteration word, the channel sampled, the run
// plan, every iteration's row and covariance with their combination, the
// histograms' average and ranges, the device totals, evaluations and wall
// time, the event stream's position and the frozen flag. save() and load() are
// its one conversion to and from CheckpointState; a resumed run is bitwise the
// uninterrupted one because nothing else survives an iteration.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_RUNSTATE_H
#define VF_RUNTIME_INTEGRATOR_RUNSTATE_H

#include "vf/Integrator.h"
#include "vf/Result.h"

#include "integrator/AdaptiveMap.h"
#include "integrator/Checkpoint.h"
#include "integrator/HistogramAverage.h"
#include "integrator/Stats.h"
#include "integrator/Strata.h"

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

namespace vf {

struct RunState {
  /// A run of an integrand of \p Dim dimensions and \p Outputs components
  /// with \p HistCells histogram cells and \p Channels channels (0 for an
  /// integrand without); no iteration yet.
  RunState(unsigned Dim, unsigned Outputs, unsigned HistCells,
           unsigned Channels = 0);

  // The algorithm: null before the first iteration.
  std::unique_ptr<AdaptiveMap> Map;
  std::unique_ptr<Strata> Str;
  /// The Philox iteration word; counts warm-up iterations too.
  unsigned Iteration = 0;
  /// The channel sampled (kernels/Channel.h): 0 between iterations.
  unsigned Channel = 0;
  /// A multi-channel integrand's channels (both empty without channels):
  /// each one's weight for the next iteration (ChannelWeights.h), and the
  /// grids of the channels not being sampled. Map and Str are channel
  /// Channel's grid; Parked[Channel] is empty, every other entry holds its
  /// channel's grid (null before the channel's first iteration).
  struct ChannelGrid {
    std::unique_ptr<AdaptiveMap> Map;
    std::unique_ptr<Strata> Str;
  };
  std::vector<double> Alpha;
  std::vector<ChannelGrid> Parked;
  bool Frozen = false;
  /// One rounding's relative size in the samples' arithmetic
  /// (vf::roundingUnit): the round-off floor's unit.
  double Unit = 0x1p-52;
  /// The next event of the stream (EventStream: sample, unweight).
  std::uint64_t NextEvent = 0;
  RunPlan Plan;

  // The measured iterations.
  /// Combined, scalar or vector (chosen once by the output count).
  std::unique_ptr<IterationAverage> Average;
  std::vector<IterationRow> Rows;
  std::vector<std::vector<double>> Covs; ///< per row, as add() was given it
  /// Histograms of observables: the cells combined over the measured
  /// iterations, and the ranges (lo, hi per axis) of the last iteration.
  HistogramAverage HistAverage;
  std::vector<double> HistRanges;
  /// Per device name, over the run (a resumed run may have other devices
  /// than the one that saved it).
  std::vector<DeviceStats> Devices;
  std::uint64_t Evaluations = 0;
  double Wall = 0;

  /// Parks the selected channel's grid and makes channel \p C's Map and
  /// Str.
  void selectChannel(unsigned C);
  unsigned channels() const { return unsigned(Parked.size()); }
  /// The parameter block a channel's kernel reads: \p User, then the
  /// weights (alpha()); with \p Densities (some channel calls density())
  /// then the maps' increments per axis N and every channel's edges in
  /// channel order, dim x (N + 1) each (every channel's map has N
  /// increments: Iteration::prepareChannel). Without channels, \p User.
  std::vector<double> kernelParams(const std::vector<double> &User,
                                   bool Densities) const;

  /// Adds a finished iteration: its \p Row (Index, Warmup, Samples,
  /// Seconds and Devices set), its \p Mean and sampled covariance \p Cov.
  void add(IterationRow Row, std::span<const double> Mean,
           std::span<const double> Cov);
  /// Drops every iteration's statistics (a parameter changed), keeping the
  /// map, the allocation and the random stream's position.
  void startFreshStatistics();
  /// Starts the statistics afresh (Integrator::restartStatistics): the
  /// last row stays, marked warm-up, to weight the next iteration as it
  /// would have been, in a restored checkpoint too; the plan is over.
  void restartAfterLastRow();
  /// \p Error with the round-off floor of \p Mean added in quadrature.
  std::vector<double> withRoundoff(std::vector<double> Error,
                                   const std::vector<double> &Mean) const;

  /// The maps (and a multi-channel run's weights) into \p G's fields,
  /// whose integrand and dimension are the caller's; Map must be set.
  void saveGrid(GridFile &G) const;
  /// The maps (and weights) of grid \p G, read from \p Path, for an
  /// integrand \p I of the same dimension; an error if its channels are
  /// not \p I's.
  Status loadGrid(GridFile G, const IntegrandInfo &I, const std::string &Path);

  /// Fills \p S's run fields (its identity and options are the caller's).
  void save(CheckpointState &S) const;
  /// Replaces the state by \p S's, compatible with this integrand and
  /// options \p O; the statistics are rebuilt by adding every iteration's
  /// inputs again, in order.
  Status load(CheckpointState S, const IntegratorOptions &O);

private:
  /// \p G from a checkpoint's fields: strata sized for \p Sizing calls
  /// with channels (for \p Neval without), allocating \p Neval.
  Status restoreGrid(ChannelGrid &G, unsigned Ninc, std::vector<double> Edges,
                     std::uint64_t Neval,
                     std::span<const std::uint64_t> Offsets,
                     std::uint64_t Sizing, const IntegratorOptions &O);

  unsigned Dim, Outputs;
};

/// The round-off floor of an estimate \p Mean of a \p Dim-dimensional
/// integral: sqrt(Dim + 2) eps |Mean|, eps = \p Unit (2^-52 in double;
/// docs/user-guide.md, "Round-off"). Each sample's weight is a product of Dim
/// map Jacobians and the box volume, each rounded, and the estimate a sum: what
/// the sampled variance cannot see when those roundings repeat.
double roundoffFloor(unsigned Dim, double Mean, double Unit);
/// sqrt(Variance + Floor^2), without Floor^2's underflow for tiny values.
double withFloor(double Variance, double Floor);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_RUNSTATE_H
