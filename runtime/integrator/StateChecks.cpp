//===- runtime/integrator/StateChecks.cpp - A saved state's invariants ----===//
//
// A checkpoint's checksum detects damage, not a file written by hand (or by
// a script that recomputes the checksum): a state whose parts contradict
// each other would be restored and change the result without a word. So
// every invariant the integrator keeps between iterations is checked here
// on load, each failure naming the field (as CheckpointState names it) and
// what it should be.
//
//===----------------------------------------------------------------------===//

#include "integrator/AdaptiveMap.h"
#include "integrator/Checkpoint.h"
#include "integrator/FormatDouble.h"
#include "integrator/Strata.h"

#include "SamplerABI.h"

#include <cmath>

namespace vf {

namespace {

std::string u(std::uint64_t V) { return std::to_string(V); }

bool allFinite(const std::vector<double> &V) {
  for (double D : V)
    if (!std::isfinite(D))
      return false;
  return true;
}

/// The first problem of iteration row \p K (its fields, its covariance), or
/// empty.
std::string rowProblem(const CheckpointState &S, std::size_t K) {
  const IterationRow &R = S.Rows[K];
  const std::vector<double> &Cov = S.Covs[K];
  const std::size_t N = S.Outputs;
  const std::string Row =
      "iteration row " + u(K + 1) + " (Index " + u(R.Index) + "): ";
  if (R.Mean.size() != N || R.Error.size() != N || R.CumMean.size() != N ||
      R.CumError.size() != N || Cov.size() != N * N)
    return Row +
           "its Mean, Error, CumMean, CumError or covariance does not "
           "have the " +
           u(N) + " outputs' size";
  // CumMean and CumError are only shown (NaN before the first measured
  // iteration); the restore rebuilds them from these three.
  if (!allFinite(R.Mean) || !allFinite(R.Error) || !allFinite(Cov))
    return Row + "a Mean, Error or covariance value is not finite";
  for (std::size_t C = 0; C < N; ++C)
    if (!(R.Error[C] == std::sqrt(Cov[C * N + C])))
      return Row + "Error[" + u(C) + "] = " + formatDouble(R.Error[C]) +
             " is not the square root of its covariance's diagonal " +
             formatDouble(Cov[C * N + C]);
  if (std::isnan(R.Chi2Dof) || R.Chi2Dof < 0)
    return Row + "Chi2Dof = " + formatDouble(R.Chi2Dof) + " is not >= 0";
  if (!(R.Q >= 0 && R.Q <= 1))
    return Row + "Q = " + formatDouble(R.Q) + " is not between 0 and 1";
  if (R.Samples < 2 || R.NonFinite > R.Samples)
    return Row + "Samples = " + u(R.Samples) +
           ", NonFinite = " + u(R.NonFinite) +
           " (at least 2 samples, at most all non-finite)";
  if (!std::isfinite(R.Seconds) || R.Seconds < 0)
    return Row + "Seconds = " + formatDouble(R.Seconds) + " is not a duration";
  return "";
}

/// The first problem of the run plan, the rows and the counters, or empty.
std::string progressProblem(const CheckpointState &S) {
  const RunPlan &P = S.Plan;
  if (P.total() > 0)
    if (Status St = checkRunPlan(P.Iterations, P.Calls, P.Warmup); !St)
      return "Plan: " + St.message();
  if (P.Done > P.total())
    return "Plan.Done = " + u(P.Done) + " is more than the plan's " +
           u(P.total()) + " iterations";
  if (P.Done > S.Rows.size())
    return "Plan.Done = " + u(P.Done) + " but the file holds " +
           u(S.Rows.size()) + " iteration rows";
  if (S.Rows.size() > S.Iteration)
    return "Iteration = " + u(S.Iteration) +
           " (iterations drawn) is less "
           "than the " +
           u(S.Rows.size()) + " iteration rows";
  std::uint64_t Samples = 0;
  for (std::size_t K = 0; K < S.Rows.size(); ++K) {
    const IterationRow &R = S.Rows[K];
    if (R.Index < 1 || R.Index > S.Iteration ||
        (K > 0 && R.Index <= S.Rows[K - 1].Index))
      return "iteration row " + u(K + 1) + ": Index = " + u(R.Index) +
             " does not increase from 1 to Iteration = " + u(S.Iteration);
    // The plan's rows are the last Done: its warm-up ones first.
    const std::size_t First = S.Rows.size() - P.Done;
    if (K >= First && R.Warmup != (K - First < P.Warmup))
      return "iteration row " + u(K + 1) +
             ": its warm-up flag contradicts "
             "the plan (" +
             u(P.Warmup) + " warm-up iterations, " + u(P.Done) + " done)";
    if (std::string Why = rowProblem(S, K); !Why.empty())
      return Why;
    Samples += R.Samples;
  }
  if (S.Evaluations != Samples)
    return "Evaluations = " + u(S.Evaluations) +
           " but the iteration rows "
           "hold " +
           u(Samples) + " samples";
  if (!std::isfinite(S.Wall) || S.Wall < 0)
    return "Wall = " + formatDouble(S.Wall) + " is not a duration";
  return "";
}

/// The first problem of the map and the allocation, or empty.
std::string shapeProblem(const CheckpointState &S) {
  if (S.Channel != 0)
    return "Channel = " + u(S.Channel) + " is not 0, the one channel";
  if (S.Dim < 1 || S.Dim > VF_SAMPLER_MAX_DIM)
    return "Dim = " + u(S.Dim) + " is not from 1 to " + u(VF_SAMPLER_MAX_DIM);
  if (S.Outputs < 1 || S.Outputs > VF_SAMPLER_MAX_OUT)
    return "Outputs = " + u(S.Outputs) + " is not from 1 to " +
           u(VF_SAMPLER_MAX_OUT);
  for (std::size_t K = 0; K < S.Params.size(); ++K)
    if (!std::isfinite(S.Params[K]))
      return "parameter '" + S.ParamNames[K] +
             "' = " + formatDouble(S.Params[K]) + " is not finite";
  if (S.Edges.empty() != (S.Ninc == 0))
    return "Ninc = " + u(S.Ninc) + " with " + u(S.Edges.size()) + " edges";
  if (!S.Edges.empty()) {
    if (S.Ninc > S.Options.MaxNinc)
      return "Ninc = " + u(S.Ninc) + " is more than the options' ninc " +
             u(S.Options.MaxNinc);
    if (std::string Why = AdaptiveMap::edgesProblem(S.Dim, S.Ninc, S.Edges);
        !Why.empty())
      return Why;
  } else if (!S.Rows.empty()) {
    return "the file holds iterations but no map (Edges)";
  }
  if (S.Offsets.empty())
    return S.Rows.empty() ? ""
                          : "the file holds iterations but no allocation"
                            " (Offsets)";
  if (S.Offsets.size() < 2 || S.Offsets[0] != 0)
    return "Offsets must start at 0 and hold one entry per hypercube and one"
           " more";
  for (std::size_t H = 0; H + 1 < S.Offsets.size(); ++H)
    if (S.Offsets[H + 1] < S.Offsets[H] ||
        S.Offsets[H + 1] - S.Offsets[H] < Strata::MinNevalHcube)
      return "Offsets[" + u(H + 1) + "] = " + u(S.Offsets[H + 1]) +
             " is not at least Offsets[" + u(H) + "] + " +
             u(Strata::MinNevalHcube) + " (each hypercube has samples)";
  if (S.Offsets.back() > S.StrataNeval)
    return "the allocation (Offsets) places " + u(S.Offsets.back()) +
           " samples, more than StrataNeval = " + u(S.StrataNeval);
  // A channel's strata allocate its share of the calls (ChannelWeights.h).
  if (S.Plan.Done > 0 && S.ChannelAlpha.empty() &&
      S.StrataNeval != S.Plan.Calls)
    return "StrataNeval = " + u(S.StrataNeval) + " but the run has " +
           u(S.Plan.Calls) + " calls per iteration (Plan.Calls)";
  return "";
}

/// The first problem of a multi-channel run's weights and grids, or
/// empty.
std::string channelProblem(const CheckpointState &S) {
  double Sum = 0;
  for (std::size_t C = 0; C < S.ChannelAlpha.size(); ++C) {
    const double A = S.ChannelAlpha[C];
    if (!(A > 0) || !(A < 1))
      return "ChannelAlpha[" + u(C) + "] = " + formatDouble(A) +
             " is not a weight between 0 and 1";
    Sum += A;
  }
  if (!S.ChannelAlpha.empty() && !(std::fabs(Sum - 1) < 1e-9))
    return "the channel weights (ChannelAlpha) add up to " + formatDouble(Sum) +
           ", not 1";
  for (std::size_t C = 0; C < S.ChannelGrids.size(); ++C) {
    const CheckpointState::ChannelGrid &G = S.ChannelGrids[C];
    const std::string Which = "ChannelGrids[" + u(C) + "]";
    if (G.Edges.empty() != (G.Ninc == 0) || G.Ninc > S.Options.MaxNinc)
      return Which + ": Ninc = " + u(G.Ninc) + " with " + u(G.Edges.size()) +
             " edges";
    if (!G.Edges.empty())
      if (std::string Why = AdaptiveMap::edgesProblem(S.Dim, G.Ninc, G.Edges);
          !Why.empty())
        return Which + ": " + Why;
    if (G.Edges.empty() != G.Offsets.empty() || G.StrataNeval > S.Plan.Calls ||
        (!G.Offsets.empty() && G.Offsets.back() > G.StrataNeval))
      return Which + ": the allocation (Offsets, StrataNeval) does not fit "
                     "the map or the calls";
  }
  return "";
}

} // namespace

std::string stateProblem(const CheckpointState &S) {
  if (std::string Why = shapeProblem(S); !Why.empty())
    return Why;
  if (std::string Why = channelProblem(S); !Why.empty())
    return Why;
  return progressProblem(S);
}

} // namespace vf
