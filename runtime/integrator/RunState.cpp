//===- runtime/integrator/RunState.cpp - Where a run stands ---------------===//
//
// A finished iteration added to the run (its row, the combined average,
// the device totals), the statistics started afresh, and the state's one
// conversion to and from a checkpoint.
//
//===----------------------------------------------------------------------===//

#include "integrator/RunState.h"

#include "integrator/ChannelWeights.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

namespace vf {

RunState::RunState(unsigned Dim, unsigned Outputs, unsigned HistCells,
                   unsigned Channels)
    : Parked(Channels), Average(IterationAverage::create(Outputs)),
      HistAverage(HistCells), Dim(Dim), Outputs(Outputs) {}

std::vector<double> RunState::kernelParams(const std::vector<double> &User,
                                           bool Densities) const {
  std::vector<double> P = User;
  P.insert(P.end(), Alpha.begin(), Alpha.end());
  if (!Densities || !Map)
    return P;
  P.push_back(double(Map->ninc()));
  for (unsigned C = 0; C < channels(); ++C) {
    const AdaptiveMap &M = C == Channel ? *Map : *Parked[C].Map;
    P.insert(P.end(), M.edges().begin(), M.edges().end());
  }
  return P;
}

void RunState::saveGrid(GridFile &G) const {
  G.Ninc = Map->ninc();
  G.Edges.assign(Map->edges().begin(), Map->edges().end());
  G.Alpha = Alpha;
  for (unsigned C = 1; C < channels(); ++C) {
    const AdaptiveMap &M = *Parked[C].Map;
    G.OtherMaps.push_back(
        {M.ninc(), std::vector<double>(M.edges().begin(), M.edges().end())});
  }
}

Status RunState::loadGrid(GridFile G, const IntegrandInfo &I,
                          const std::string &Path) {
  const std::size_t Has = G.OtherMaps.size() + 1;
  if (Has != std::max<std::size_t>(channels(), 1))
    return Error{"grid '" + Path + "' holds " +
                 (Has > 1 ? "the maps of " + std::to_string(Has) + " channels"
                          : std::string("one map")) +
                 " (trained on '" + G.Integrand + "'); integrand '" + I.Name +
                 "' has " +
                 (channels() ? std::to_string(channels()) + " channels"
                             : std::string("no channels")) +
                 ": a grid fits an integrand with as many channels"};
  Map = std::make_unique<AdaptiveMap>(Dim, G.Ninc, std::move(G.Edges));
  for (unsigned C = 1; C < channels(); ++C)
    Parked[C].Map = std::make_unique<AdaptiveMap>(
        Dim, G.OtherMaps[C - 1].Ninc, std::move(G.OtherMaps[C - 1].Edges));
  if (channels())
    Alpha = std::move(G.Alpha);
  return Status::ok();
}

void RunState::selectChannel(unsigned C) {
  ChannelGrid &Out = Parked[Channel];
  std::swap(Map, Out.Map);
  std::swap(Str, Out.Str);
  ChannelGrid &In = Parked[C];
  std::swap(Map, In.Map);
  std::swap(Str, In.Str);
  Channel = C;
}

double roundoffFloor(unsigned Dim, double Mean, double Unit) {
  const double F = std::sqrt(double(Dim) + 2) * Unit * std::fabs(Mean);
  return std::isfinite(F) ? F : 0;
}

double withFloor(double Variance, double Floor) {
  // Floor^2 underflows below 1e-154 (a component near 1e-150): hypot keeps
  // the floor there; elsewhere the bits are sqrt's as they always were.
  if (Floor == 0 || Floor >= 0x1p-500)
    return std::sqrt(Variance + Floor * Floor);
  return std::hypot(std::sqrt(Variance), Floor);
}

std::vector<double>
RunState::withRoundoff(std::vector<double> Error,
                       const std::vector<double> &Mean) const {
  // Rounding in the map and the sums repeats from one iteration to the
  // next (the same edges, the same products), so the combined estimate's
  // floor is one iteration's, not divided by the square root of their
  // number.
  for (std::size_t C = 0; C < Error.size() && C < Mean.size(); ++C) {
    const double F = roundoffFloor(Dim, Mean[C], Unit);
    if (std::isfinite(Error[C]))
      Error[C] = withFloor(Error[C] * Error[C], F);
  }
  return Error;
}

void RunState::add(IterationRow Row, std::span<const double> Mean,
                   std::span<const double> SampledCov) {
  // The totals are kept by device name and kind: a run resumed from a
  // checkpoint may have other devices than the one that saved it.
  for (const DeviceStats &Now : Row.Devices) {
    auto Same = [&](const DeviceStats &D) {
      return D.Name == Now.Name && D.Kind == Now.Kind;
    };
    auto It = std::find_if(Devices.begin(), Devices.end(), Same);
    if (It == Devices.end())
      It = Devices.insert(Devices.end(),
                          DeviceStats{Now.Name, Now.Kind, 0, 0, 0, 0, {}});
    if (!Now.Error.empty() && It->Error.empty())
      It->Error = Now.Error;
    It->Samples += Now.Samples;
    It->Chunks += Now.Chunks;
    It->BusySeconds += Now.BusySeconds;
    It->IdleSeconds += Now.IdleSeconds;
  }
  Evaluations += Row.Samples;
  Wall += Row.Seconds;
  ++Plan.Done;
  Row.Mean.assign(Mean.begin(), Mean.end());
  // The iteration's variance includes the round-off floor, so that
  // iterations agreeing to rounding do not count as disagreeing in chi2.
  std::vector<double> Cov(SampledCov.begin(), SampledCov.end());
  for (unsigned C = 0; C < Outputs; ++C) {
    const double F = roundoffFloor(Dim, Mean[C], Unit);
    Row.Error.push_back(withFloor(Cov[C * Outputs + C], F));
    Cov[C * Outputs + C] += F * F;
  }
  Average->add(Row.Mean, Row.Error, Cov, Row.Warmup);
  Row.CumMean = Average->mean();
  Row.CumError = withRoundoff(Average->sdev(), Row.CumMean);
  Row.Chi2Dof = Average->chi2dof();
  Row.Q = Average->Q();
  Rows.push_back(std::move(Row));
  Covs.push_back(std::move(Cov));
}

void RunState::startFreshStatistics() {
  // Another parameter value is another integral: averaging it with the
  // old one's iterations would give neither. The map and the allocation
  // stay, as vegas keeps its adapted map, to start the new one well.
  Average = IterationAverage::create(Outputs);
  Rows.clear();
  Covs.clear();
  Devices.clear();
  Evaluations = 0;
  Wall = 0;
}

void RunState::restartAfterLastRow() {
  // The next measured iteration is weighted by the variance of the one
  // before it (RAvg's prediction): the last row, added again as warm-up,
  // gives the fresh average the prediction the old one had, and stays
  // among the rows (and its samples in the counts) so that a checkpoint
  // rebuilds it.
  HistAverage.reset(HistAverage.cells());
  // The plan is over; its calls stay (what the allocation was made for),
  // and with no iteration of a plan done, a state saved now holds rows
  // that are none of a plan's, as checkpoints require.
  Plan = RunPlan{0, Plan.Calls, 0, 0};
  if (Rows.empty()) {
    startFreshStatistics();
    return;
  }
  IterationRow Last = std::move(Rows.back());
  std::vector<double> LastCov = std::move(Covs.back());
  startFreshStatistics();
  Last.Warmup = true;
  Average->add(Last.Mean, Last.Error, LastCov, true);
  Last.CumMean = Average->mean();
  Last.CumError = withRoundoff(Average->sdev(), Last.CumMean);
  Last.Chi2Dof = Average->chi2dof();
  Last.Q = Average->Q();
  Evaluations = Last.Samples;
  Wall = Last.Seconds;
  Rows.push_back(std::move(Last));
  Covs.push_back(std::move(LastCov));
}

void RunState::save(CheckpointState &S) const {
  S.Plan = Plan;
  S.Iteration = Iteration;
  S.Channel = Channel;
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
  S.Histograms = HistAverage.state();
  S.HistRanges = HistRanges;
  S.ChannelAlpha = Alpha;
  for (unsigned C = 0; C < channels(); ++C) {
    const Strata *G = C == Channel ? Str.get() : Parked[C].Str.get();
    S.ChannelSizing.push_back(G ? G->sizedFor() : 0);
  }
  for (unsigned C = 1; C < channels(); ++C) {
    const ChannelGrid &G = Parked[C];
    CheckpointState::ChannelGrid &Out = S.ChannelGrids.emplace_back();
    if (G.Map) {
      Out.Ninc = G.Map->ninc();
      Out.Edges.assign(G.Map->edges().begin(), G.Map->edges().end());
    }
    if (G.Str) {
      Out.StrataNeval = G.Str->neval();
      Out.Offsets.assign(G.Str->offsets().begin(), G.Str->offsets().end());
    }
  }
}

Status RunState::restoreGrid(ChannelGrid &G, unsigned Ninc,
                             std::vector<double> Edges, std::uint64_t Neval,
                             std::span<const std::uint64_t> Offsets,
                             std::uint64_t Sizing, const IntegratorOptions &O) {
  G.Str = nullptr;
  if (!Offsets.empty()) {
    // A channel's strata were sized for a share (Sizing) and allocate
    // its current one.
    auto Str = std::make_unique<Strata>(
        Dim, channels() ? Sizing : Neval, O.Beta,
        Strata::hcubeCap(Dim, O.MaxHcube, O.Arithmetic == Precision::F32));
    Str->setNeval(Neval);
    if (!Str->restoreOffsets(Offsets))
      return Error{"the checkpoint's allocation does not fit " +
                   std::to_string(Neval) + " calls per iteration"};
    G.Str = std::move(Str);
  }
  G.Map = Edges.empty()
              ? nullptr
              : std::make_unique<AdaptiveMap>(Dim, Ninc, std::move(Edges));
  return Status::ok();
}

Status RunState::load(CheckpointState S, const IntegratorOptions &O) {
  const unsigned M = channels();
  if (M && ((S.ChannelAlpha.size() != M && !S.ChannelAlpha.empty()) ||
            S.ChannelGrids.size() != M - 1 || S.ChannelSizing.size() != M))
    return Error{
        "the checkpoint holds " + std::to_string(S.ChannelGrids.size() + 1) +
        " channel grids and " + std::to_string(S.ChannelAlpha.size()) +
        " weights, but the integrand has " + std::to_string(M) + " channels"};
  if (!M && (!S.ChannelAlpha.empty() || !S.ChannelGrids.empty() ||
             !S.ChannelSizing.empty()))
    return Error{"the checkpoint is a multi-channel run's, but the integrand "
                 "has no channels"};
  std::vector<ChannelGrid> Grids(std::max(M, 1u));
  if (Status G =
          restoreGrid(Grids[0], S.Ninc, std::move(S.Edges), S.StrataNeval,
                      S.Offsets, M ? S.ChannelSizing[0] : 0, O);
      !G)
    return G;
  for (unsigned C = 1; C < M; ++C) {
    CheckpointState::ChannelGrid &In = S.ChannelGrids[C - 1];
    if (Status G =
            restoreGrid(Grids[C], In.Ninc, std::move(In.Edges), In.StrataNeval,
                        In.Offsets, S.ChannelSizing[C], O);
        !G)
      return G;
  }
  Map = std::move(Grids[0].Map);
  Str = std::move(Grids[0].Str);
  for (unsigned C = 1; C < M; ++C)
    Parked[C] = std::move(Grids[C]);
  Alpha = std::move(S.ChannelAlpha);
  Plan = S.Plan;
  Iteration = S.Iteration;
  Channel = S.Channel;
  Frozen = S.Frozen;
  NextEvent = S.NextEvent;
  Evaluations = S.Evaluations;
  Wall = S.Wall;
  Average = IterationAverage::create(Outputs);
  for (std::size_t K = 0; K < S.Rows.size(); ++K) {
    const IterationRow &R = S.Rows[K];
    Average->add(R.Mean, R.Error, S.Covs[K], R.Warmup);
  }
  if (!HistAverage.setState(S.Histograms))
    return Error{"the checkpoint's histograms do not fit the integrand's " +
                 std::to_string(HistAverage.cells()) + " histogram cells"};
  HistRanges = std::move(S.HistRanges);
  Rows = std::move(S.Rows);
  Covs = std::move(S.Covs);
  Devices = std::move(S.Devices);
  return Status::ok();
}

} // namespace vf
