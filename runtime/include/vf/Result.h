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

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

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
  double Seconds = 0;
  /// Each device's share of this iteration (same order as
  /// Result::Devices).
  std::vector<DeviceStats> Devices;
  /// Each rank's share (empty unless several MPI ranks ran it).
  std::vector<RankStats> Ranks;
};

/// Why the last run() ended.
enum class StopReason {
  None,       ///< no run yet
  Iterations, ///< it ran every iteration asked for (no target)
  Target,     ///< the accuracy target was met
  Cap,        ///< the target was not met within the iterations allowed
  Error,      ///< an error stopped it (a non-finite value, a checkpoint)
};
/// "none", "iterations", "target", "max_iterations", "error" (JSON's
/// `stopped_because`).
const char *stopReasonName(StopReason R);

struct Result {
  std::vector<double> Mean;
  std::vector<double> Error;
  std::vector<double> Covariance; ///< Outputs x Outputs, row-major
  double Chi2Dof = 0;
  double Q = 1;
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
  /// Why the last run ended, and whether an accuracy target was set and
  /// met (by the combined estimate, every component).
  StopReason Stopped = StopReason::None;
  bool HasTarget = false;
  bool TargetMet = false;
  /// Per component, the part of Error that floating-point rounding alone
  /// accounts for (docs/user-guide.md, "Round-off"): each measured
  /// iteration's variance includes it, so Error is never below it.
  std::vector<double> RoundoffFloor;
};

} // namespace vf

#endif // VF_RESULT_H
