//===- runtime/integrator/ChannelPasses.cpp - A multi-channel iteration ---===//
//
// An iteration of an integrand with channels (LANGUAGE.md v3, "Channels";
// ALGORITHM.md section 8): one pass per channel, in channel order, each
// the steps of a single-channel iteration on that channel's grid (its map
// and strata, RunState::selectChannel) and its share of the iteration's
// samples (ChannelWeights.h). The kernel is told the channel
// (vf_sampler_args::channel: which body runs and which Philox blocks it
// draws) and reads the weights after the parameters (alpha()). The
// channels' estimates are independent, so the iteration's estimate is
// their sum and its covariance the sum of theirs; histogram cells add the
// same way. Only when every pass is done do the weights and the grids
// adapt, so a cancelled or failed iteration leaves nothing of itself. Each
// pass reduces in its own fixed order and the passes add in channel
// order: the bits do not depend on the devices. A rank that only sends
// (Cluster::sendsOnly: a task engine's part) runs every pass's tiles and
// sends their packets without estimating any: its merge does.
//
//===----------------------------------------------------------------------===//

#include "integrator/ChannelWeights.h"
#include "integrator/IntegratorImpl.h"
#include "integrator/Iteration.h"

#include <chrono>
#include <utility>

namespace vf {

using Clock = std::chrono::steady_clock;

/// What one channel's pass gives the iteration.
struct Iteration::ChannelPass {
  IterationOutcome Out;      ///< its devices, non-finite count and estimate
  std::vector<double> Cells; ///< its histogram cells, (I, V) per cell
};

namespace {

/// Adds \p Pass's devices and ranks to \p Row's (the same devices, in the
/// same order, ran every pass).
void addShares(IterationRow &Row, const IterationRow &Pass) {
  if (Row.Devices.empty()) {
    Row.Devices = Pass.Devices;
    Row.Ranks = Pass.Ranks;
    return;
  }
  for (std::size_t W = 0; W < Row.Devices.size(); ++W) {
    DeviceStats &D = Row.Devices[W];
    const DeviceStats &P = Pass.Devices[W];
    D.Samples += P.Samples;
    D.Chunks += P.Chunks;
    D.BusySeconds += P.BusySeconds;
    D.IdleSeconds += P.IdleSeconds;
    if (D.Error.empty())
      D.Error = P.Error;
  }
  for (std::size_t R = 0; R < Row.Ranks.size() && R < Pass.Ranks.size(); ++R) {
    Row.Ranks[R].Samples += Pass.Ranks[R].Samples;
    Row.Ranks[R].BusySeconds += Pass.Ranks[R].BusySeconds;
    Row.Ranks[R].IdleSeconds += Pass.Ranks[R].IdleSeconds;
  }
}

/// Forgets the training data the passes so far gave the channels' maps.
void dropTraining(RunState &S) {
  for (unsigned C = 0; C < S.channels(); ++C) {
    S.selectChannel(C);
    if (S.Map)
      S.Map->clear();
  }
  S.selectChannel(0);
}

} // namespace

Expected<IterationOutcome>
Iteration::runChannels(RunState &S, std::uint64_t Calls, bool Warmup) {
  const Clock::time_point Start = Clock::now();
  if (Status B = bounds(S); !B)
    return B.error();
  if (Status M = checkMemory(Calls); !M)
    return M.error();
  const unsigned M = S.channels(), K = I.Outputs;
  if (S.Alpha.empty())
    S.Alpha = initialChannelWeights(O, M);
  // Every channel's grid before the first pass: density() reads them all.
  const bool Fit = std::exchange(FitLoadedMap, false);
  for (unsigned C = 0; C < M; ++C) {
    S.selectChannel(C);
    prepareChannel(S, Calls, channelCalls(S.Alpha[C], Calls), Fit);
  }
  S.selectChannel(0);
  ChannelParams = S.kernelParams(Params, I.ChannelDensityUsed);
  ++S.Iteration;
  IterationOutcome Out;
  Out.Mean.assign(K, 0.0);
  Out.Cov.assign(K * K, 0.0);
  std::vector<double> Cells(2 * std::size_t(I.HistCells), 0.0);
  std::vector<ChannelMoments> Moments;
  // The largest weight's term in the variance (the passes' shares are of
  // their own channel's variance).
  double BestTerm = 0;
  for (unsigned C = 0; C < M; ++C) {
    S.selectChannel(C);
    ChannelPass Pass;
    const Status P = channelPass(S, Calls, Warmup, Pass);
    if (!P || Pass.Out.Cancelled) {
      dropTraining(S);
      if (!P)
        return P.error();
      // Its Philox words are drawn again by the iteration that replaces it.
      --S.Iteration;
      Out.Cancelled = true;
      return Out;
    }
    // A part task's pass is its packet alone: the merge estimates it.
    if (sendsOnly())
      continue;
    const IterationRow &Row = Pass.Out.Row;
    for (unsigned J = 0; J < K * K; ++J)
      Out.Cov[J] += Pass.Out.Cov[J];
    for (unsigned J = 0; J < K; ++J)
      Out.Mean[J] += Pass.Out.Mean[J];
    for (std::size_t J = 0; J < Pass.Cells.size(); ++J)
      Cells[J] += Pass.Cells[J];
    addShares(Out.Row, Row);
    Out.Row.NonFinite += Row.NonFinite;
    Out.Row.Samples += Row.Samples;
    if (Row.MaxShare * Pass.Out.Cov[0] > BestTerm) {
      BestTerm = Row.MaxShare * Pass.Out.Cov[0];
      Out.Row.MaxPoint = Row.MaxPoint;
    }
    Moments.push_back({Row.Samples, Pass.Out.Mean[0], Pass.Out.Cov[0]});
    Out.Row.Channels.push_back({S.Alpha[C], Row.Samples, Pass.Out.Mean[0],
                                std::sqrt(Pass.Out.Cov[0])});
  }
  S.selectChannel(0);
  if (Out.Cov[0] > 0)
    Out.Row.MaxShare = std::min(1.0, BestTerm / Out.Cov[0]);
  if (I.HistCells)
    addHistograms(S, Warmup, Out.Cov[0], Cells);
  adaptChannels(S, Calls, Warmup, Moments);
  Out.Row.Index = S.Iteration;
  Out.Row.Warmup = Warmup;
  Out.Row.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  return Out;
}

Status Iteration::channelPass(RunState &S, std::uint64_t Calls, bool Warmup,
                              ChannelPass &Pass) {
  // The grid was prepared for this share before the first pass.
  const vf_sampler_args A =
      samplerArgs(S, channelCalls(S.Alpha[S.Channel], Calls));
  resetBuffers(A);
  IterationOutcome &Out = Pass.Out;
  if (Status T = runTiles(S, A, Warmup, Out); !T)
    return T;
  if (Out.Cancelled || sendsOnly())
    return Status::ok();
  if (A.train)
    Buffers.Training.finish();
  if (Status F = checkNonFinite(S, A, Out.Row); !F)
    return F;
  if (Status E = estimate(S, A, Out.Mean, Out.Cov); !E)
    return E;
  if (I.HistCells) {
    Buffers.Histograms.finish();
    const std::span<const double> T = Buffers.Histograms.totals();
    Pass.Cells.assign(T.begin(), T.end());
  }
  largestWeight(S, A, Out.Cov[0], Out.Row);
  if (A.train)
    S.Map->addTrainingData(Buffers.Training.sums(), Buffers.Training.weights());
  Out.Row.Samples = A.nsamples;
  return Status::ok();
}

void Iteration::prepareChannel(RunState &S, std::uint64_t Calls,
                               std::uint64_t Share, bool Fit) {
  // The hypercubes of the channel's share, kept while they fit it
  // (ChannelWeights.h, strataFit).
  if (!S.Str || !strataFit(S.Str->sizedFor(), Share))
    S.Str = std::make_unique<Strata>(I.Dim, Share, O.Beta, hcubeCap());
  if (S.Str->neval() != Share) {
    S.Str->setNeval(Share);
    S.Str->resetUniform();
  }
  // Every channel's map has the increments of an equal share (the
  // parameter block of density() has one count for all).
  const std::uint64_t Equal = Calls / S.channels();
  const unsigned Ninc = AdaptiveMap::chooseNinc(
      Equal, Strata::chooseNstrat(I.Dim, Equal, hcubeCap()), O.MaxNinc);
  if (!S.Map)
    S.Map = std::make_unique<AdaptiveMap>(I.Dim, Ninc);
  // A loaded grid finer than these calls can train is re-sampled, as
  // Iteration::prepare does for one channel.
  if (Fit && S.Map->ninc() > Ninc)
    S.Map->adapt(0, Ninc);
}

void Iteration::adaptChannels(
    RunState &S, std::uint64_t Calls, bool Warmup,
    const std::vector<ChannelMoments> &Moments) const {
  if (S.Frozen)
    return;
  if (O.ChannelWeights.empty())
    S.Alpha = nextChannelWeights(Moments, S.Alpha, I.ChannelWeightsUsed,
                                 channelFloor(O, S.channels()));
  for (unsigned C = 0; C < S.channels(); ++C) {
    S.selectChannel(C);
    S.Map->adapt(Warmup ? AdaptiveMap::warmupAlpha(O.Alpha) : O.Alpha);
    // The allocation for the channel's next share: with beta = 0, uniform.
    S.Str->setNeval(channelCalls(S.Alpha[C], Calls));
    S.Str->adapt();
  }
  S.selectChannel(0);
}

std::vector<ChannelSummary> Integrator::Impl::channels() const {
  const unsigned M = State.channels();
  const std::vector<double> Alpha =
      State.Alpha.empty() ? initialChannelWeights(O, M) : State.Alpha;
  std::vector<ChannelSummary> Out(M);
  double Variance = 0;
  for (unsigned C = 0; C < M; ++C) {
    ChannelSummary &Ch = Out[C];
    Ch.Name = I.Channels[C];
    Ch.Alpha = Alpha[C];
    for (const IterationRow &R : State.Rows)
      if (C < R.Channels.size())
        Ch.Samples += R.Channels[C].Samples;
    if (!State.Rows.empty() && C < State.Rows.back().Channels.size())
      Ch.Last = State.Rows.back().Channels[C];
    Variance += Ch.Last.Error * Ch.Last.Error;
  }
  for (ChannelSummary &Ch : Out)
    Ch.ErrorShare = Variance > 0 ? Ch.Last.Error * Ch.Last.Error / Variance : 0;
  return Out;
}

Expected<std::vector<double>>
Integrator::evaluate(std::span<const double> X) const {
  const IntegrandInfo &I = P->I;
  if (X.size() != I.Dim)
    return Error{"a point of integrand '" + I.Name + "' has " +
                 std::to_string(I.Dim) + " coordinates, got " +
                 std::to_string(X.size())};
  std::vector<double> Out(I.Outputs, 0.0), Term(I.Outputs);
  const RunState &S = P->State;
  if (!S.channels() || !I.EvaluateChannel) {
    if (!I.Evaluate)
      return Error{"integrand '" + I.Name + "' has no batch entry point"};
    I.Evaluate(X.data(), 1, P->Params.data(), Out.data());
    return Out;
  }
  // Before any iteration or grid: equal weights and, for density(),
  // identity maps (one increment per axis).
  std::vector<double> Block;
  if (!S.Alpha.empty() && S.Map && S.Parked.back().Map) {
    Block = S.kernelParams(P->Params, I.ChannelDensityUsed);
  } else {
    Block = P->Params;
    Block.insert(Block.end(), S.channels(), 1 / double(S.channels()));
    if (I.ChannelDensityUsed) {
      Block.push_back(1);
      for (unsigned C = 0; C < S.channels() * I.Dim; ++C)
        Block.insert(Block.end(), {0.0, 1.0});
    }
  }
  for (unsigned C = 0; C < S.channels(); ++C) {
    I.EvaluateChannel(C, X.data(), 1, Block.data(), Term.data());
    for (unsigned K = 0; K < I.Outputs; ++K)
      Out[K] += Term[K];
  }
  return Out;
}

} // namespace vf
