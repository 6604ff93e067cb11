//===- vf/Result.h - The result of an integration --------------*- C++ -*-===//
//
// Everything a run produced: the combined estimate (per component for a
// vector-valued integrand, with covariance), chi2/dof and Q over the
// measured iterations, one row per iteration (warm-up included, marked),
// and per-device statistics. JSON round-trip in vf/ResultJson.h.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RESULT_H
#define VF_RESULT_H

#include "vf/Derived.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

/// The arithmetic of the per-sample path (docs/user-guide.md,
/// "Precision"): double, the default, or single (the integrand's values in
/// float, for GPUs whose double rate is a small fraction of their float
/// rate).
enum class Precision { F64, F32 };

/// "f64" or "f32", as every door spells it.
inline const char *precisionName(Precision P) {
  return P == Precision::F32 ? "f32" : "f64";
}

/// One rounding's relative size in \p P's results, the unit of the
/// round-off floor: 2^-52, or 2^-23 in single precision.
inline double roundingUnit(Precision P) {
  return P == Precision::F32 ? 0x1p-23 : 0x1p-52;
}

struct DeviceStats {
  std::string Name;            ///< "cpu:0", ...
  std::string Kind;            ///< "cpu"
  std::uint64_t Samples = 0;
  std::uint64_t Chunks = 0;
  double BusySeconds = 0;
  double IdleSeconds = 0;      ///< waiting for others at iterations' ends
  /// Why the device failed (it then takes no further part in the run; its
  /// unfinished tiles were recomputed by the others). Empty: it did not.
  std::string Error;
  double imbalance() const {
    double T = BusySeconds + IdleSeconds;
    return T > 0 ? IdleSeconds / T : 0;
  }
};

/// One MPI rank's share of a distributed run (only with several ranks).
struct RankStats {
  int Rank = 0;
  std::uint64_t Samples = 0;
  double BusySeconds = 0; ///< claiming and running tiles
  double IdleSeconds = 0; ///< waiting for the other ranks to finish
};

/// One channel's part of an iteration of a multi-channel integrand
/// (LANGUAGE.md v3, "Channels"): its weight, its samples and its estimate
/// of component 0. A channel's own integral moves with the weights, so it
/// is reported per iteration and never averaged over iterations.
struct ChannelRow {
  double Alpha = 0;
  std::uint64_t Samples = 0;
  double Mean = 0;
  double Error = 0;
};

struct IterationRow {
  unsigned Index = 0;          ///< 1-based, over the integrator's lifetime
  bool Warmup = false;         ///< excluded from the combined estimate
  std::vector<double> Mean;    ///< this iteration's estimate, per component
  std::vector<double> Error;   ///< and its standard deviation
  std::vector<double> CumMean; ///< combined estimate so far
  std::vector<double> CumError;
  double Chi2Dof = 0;          ///< over the measured iterations so far
  double Q = 1;
  std::uint64_t Samples = 0;
  std::uint64_t NonFinite = 0; ///< samples whose value was NaN or +-inf
  /// The largest term one sample contributes to this iteration's variance
  /// (component 0), n_h/(n_h - 1) ((v - v_h)/(n_h N_h))^2 for v = J f_0
  /// and its hypercube's mean v_h, over sigma^2 (0 when sigma is 0).
  /// About 1/N for a well-behaved integrand; a sizeable fraction when a
  /// few samples carry the error estimate (docs/algorithm.md, "Unstable
  /// variance").
  double MaxShare = 0;
  /// That sample's point x (empty when MaxShare is 0).
  std::vector<double> MaxPoint;
  double Seconds = 0;
  /// Each device's share of this iteration (same order as
  /// Result::Devices).
  std::vector<DeviceStats> Devices;
  /// Each rank's share (empty unless several MPI ranks ran it).
  std::vector<RankStats> Ranks;
  /// The integrand's derived items at this iteration's estimate and
  /// covariance (Integrator::result fills them).
  std::vector<DerivedValue> Derived;
  /// Per channel, in source order (empty for an integrand without
  /// channels); Mean is their sum.
  std::vector<ChannelRow> Channels;
};

/// A channel of a multi-channel integrand over the run: its name, the
/// weight it has now (what the next iteration uses), its samples over the
/// run, and its last iteration (ChannelRow) with that iteration's share
/// of the variance of component 0.
struct ChannelSummary {
  std::string Name;
  double Alpha = 0;
  std::uint64_t Samples = 0;
  ChannelRow Last;
  double ErrorShare = 0;
};

/// Whether the error bar can be trusted: the variance estimate is unstable
/// when single samples carry much of it (docs/algorithm.md, "Unstable
/// variance"), as they do when the integrand's variance or fourth moment
/// is infinite.
struct VarianceCheck {
  bool Unstable = false;
  /// The median over the measured iterations of IterationRow::MaxShare.
  double Share = 0;
  /// Where the largest such sample of the measured iterations lay.
  std::vector<double> Point;
  /// What to tell the user when Unstable (empty otherwise): the share, the
  /// coordinates near an end of the domain, and a change of variables.
  std::string Message;
};

/// One axis of a histogram: Bins equal bins over [Lo, Hi).
struct HistogramAxis {
  double Lo = 0, Hi = 1;
  unsigned Bins = 1;
  /// The Bins + 1 bin edges, exactly those the compiled code bins by
  /// (vf_hist_edge_at): Lo, ..., Hi, each the double nearest its decimal
  /// value where Lo and Hi are short decimals (-0.3, not
  /// -0.30000000000000004).
  std::vector<double> edges() const;
};

/// A histogram's bins, each the integral of the integrand's component 0
/// over the samples whose observables fall in it, combined over the
/// measured iterations like the integral (docs/algorithm.md).
struct Histogram {
  std::string Name;
  std::vector<HistogramAxis> Axes; ///< one or two
  /// Per bin (row-major: the first axis outer), value and error.
  std::vector<double> Values, Errors;
  /// 1-D: underflow then overflow (a NaN observable counts as overflow);
  /// 2-D: one entry, outside (either observable out of its range).
  std::vector<double> Flow, FlowErrors;
};

/// A `weights` list's entries, each integrated as a histogram cell is
/// (over the same samples, combined over the measured iterations like the
/// integral: docs/algorithm.md, "Weight lists"), and their envelope.
struct WeightListResult {
  std::string Name;
  std::vector<double> Values, Errors; ///< per entry, k rising
  double Low = 0, High = 0;           ///< the least and largest value
  /// The list's band (docs/user-guide.md, "Hadron colliders"):
  /// "envelope" (Low to High, about the integrand's value), or the
  /// ErrorType of the PDF set whose members the entries are ("replicas",
  /// "hessian", "symmhessian"): its central value and limits at 68.27 %.
  std::string Band = "envelope";
  double BandCentral = 0, BandLow = 0, BandHigh = 0;
  /// Per entry, its ratio to the integrand's value on the same samples
  /// and that ratio's error, which counts their correlation (the
  /// variation's shift is known better than the entry alone); NaN where
  /// the integrand's value is 0.
  std::vector<double> Ratios, RatioErrors;
};

/// Why the last run() ended.
enum class StopReason {
  None,       ///< no run yet
  Iterations, ///< it ran every iteration asked for (no target)
  Target,     ///< the accuracy target was met
  Cap,        ///< the target was not met within the iterations allowed
  Error,      ///< an error stopped it (a non-finite value, a checkpoint)
  Cancelled,  ///< Integrator::cancel(): unfinished, and resumable
};
/// "none", "iterations", "target", "max_iterations", "error",
/// "cancelled" (JSON's `stopped_because`).
const char *stopReasonName(StopReason R);

struct Result {
  std::vector<double> Mean;
  std::vector<double> Error;
  std::vector<double> Covariance; ///< Outputs x Outputs, row-major
  double Chi2Dof = 0;
  double Q = 1;
  VarianceCheck Variance;
  unsigned Outputs = 1;
  std::vector<IterationRow> Iterations;
  std::vector<DeviceStats> Devices;
  std::uint64_t Evaluations = 0;
  double WallSeconds = 0;
  /// Totals per rank, and the bytes each rank contributes to the exchange
  /// after an iteration (empty / 0 without several ranks). The devices
  /// above are this process's.
  std::vector<RankStats> Ranks;
  std::uint64_t ExchangeBytes = 0;
  /// The integrand's histograms (`hist` statements), in source order.
  std::vector<Histogram> Histograms;
  /// The integrand's weight lists (`weights` statements), in source order.
  std::vector<WeightListResult> WeightLists;

  /// Why the last run ended, and whether an accuracy target was set and
  /// met (by the combined estimate, every component).
  StopReason Stopped = StopReason::None;
  bool HasTarget = false;
  bool TargetMet = false;
  /// Per component, the part of Error that floating-point rounding alone
  /// accounts for (docs/user-guide.md, "Round-off"): each measured
  /// iteration's variance includes it, so Error is never below it.
  std::vector<double> RoundoffFloor;
  /// The arithmetic the samples were computed in.
  Precision Arithmetic = Precision::F64;
  /// The integrand's `derived` items at the combined estimate, their
  /// errors propagated from Covariance (vf/Derived.h).
  std::vector<DerivedValue> Derived;
  /// A multi-channel integrand's channels, in source order (empty
  /// without channels).
  std::vector<ChannelSummary> Channels;
};

} // namespace vf

#endif // VF_RESULT_H
