//===- runtime/integrator/Iteration.cpp - One VEGAS+ iteration ------------===//
//
// The steps of one iteration (Iteration.h lists them) and run(), their
// sequence; the reduction to an estimate is IterationEstimate.cpp, the
// memory check MemoryBudget.cpp.
//
//===----------------------------------------------------------------------===//

#include "integrator/Iteration.h"

#include "integrator/FormatDouble.h"
#include "reduction/Segments.h"

#include "IntegrandCode.h"

#include <cfloat>
#include <chrono>
#include <cmath>
#include <utility>

namespace vf {

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

Expected<IterationOutcome> Iteration::run(RunState &S, std::uint64_t Calls,
                                          bool Warmup) {
  if (S.channels())
    return runChannels(S, Calls, Warmup);
  const Clock::time_point Start = Clock::now();
  if (Status B = bounds(S); !B)
    return B.error();
  if (Status M = checkMemory(Calls); !M)
    return M.error();
  prepare(S, Calls);
  ++S.Iteration;
  const vf_sampler_args A = samplerArgs(S, Calls);
  resetBuffers(A);
  IterationOutcome Out;
  if (Status T = runTiles(S, A, Warmup, Out); !T)
    return T.error();
  if (Out.Cancelled) {
    // Its Philox words are drawn again by the iteration that replaces it.
    --S.Iteration;
    return Out;
  }
  if (A.train)
    Buffers.Training.finish();
  if (Status F = checkNonFinite(S, A, Out.Row); !F)
    return F.error();
  if (Status E = estimate(S, A, Out.Mean, Out.Cov); !E)
    return E.error();
  if (I.HistCells) {
    Buffers.Histograms.finish();
    addHistograms(S, Warmup, Out.Cov[0], Buffers.Histograms.totals());
  }
  largestWeight(S, A, Out.Cov[0], Out.Row);
  adapt(S, Warmup);
  Out.Row.Index = S.Iteration;
  Out.Row.Warmup = Warmup;
  Out.Row.Samples = A.nsamples;
  Out.Row.Seconds = std::chrono::duration<double>(Clock::now() - Start).count();
  return Out;
}

Status Iteration::bounds(RunState &S) {
  std::vector<double> NewLo, Hi;
  if (Status D = I.Domain(Params, NewLo, Hi); !D)
    return D;
  if (I.HistCells)
    if (Status H = I.HistRanges(Params, S.HistRanges); !H)
      return H;
  Lo = std::move(NewLo);
  if (Status B = checkBox(Hi); !B)
    return B;
  if (Status T = checkTileBox(Hi); !T)
    return T;
  Width.resize(I.Dim);
  for (unsigned D = 0; D < I.Dim; ++D)
    Width[D] = Hi[D] - Lo[D];
  return Status::ok();
}

Status Iteration::checkBox(const std::vector<double> &Hi) const {
  // In single precision the kernels read the box as floats.
  const bool Single = O.Arithmetic == Precision::F32;
  const auto Holds = [Single](double V) {
    return std::isfinite(Single ? double(float(V)) : V);
  };
  const char *Type =
      Single ? "a float (3.4e38, single precision)" : "a double (1.8e308)";
  double Volume = 1;
  bool Empty = false;
  for (unsigned D = 0; D < I.Dim; ++D) {
    const double W = Hi[D] - Lo[D];
    if (!Holds(W) || !Holds(Lo[D]))
      return Error{"integrand '" + I.Name + "': the interval [" +
                   formatDouble(Lo[D]) + ", " + formatDouble(Hi[D]) +
                   "] of x[" + std::to_string(D) + "] is wider than " + Type +
                   " holds" + (Holds(Lo[D]) ? "" : ", or lies beyond it") +
                   ". Rescale that variable: integrate over t = x / s "
                   "on [lo/s, hi/s] and multiply the integrand by s"};
    Empty = Empty || W == 0;
    Volume *= W;
  }
  // In single precision a subnormal volume would start every Jacobian
  // with few significant bits: the box must keep a normal float's.
  const double Kept = Single ? double(float(Volume)) : Volume;
  const bool Small = Single ? Volume < FLT_MIN : Kept == 0;
  if (!std::isfinite(Kept) || (Small && !Empty))
    return Error{
        "integrand '" + I.Name + "': the box's volume (the product of its " +
        std::to_string(I.Dim) + " widths) is " + formatDouble(Volume) + ", " +
        (Small ? std::string("below the ") +
                     (Single ? "normal range of a float (1.2e-38, single "
                               "precision)"
                             : "range of a double")
               : std::string("beyond the range of ") + Type) +
        ", so every sample's Jacobian would be " +
        (Single && Small && Kept != 0 ? "imprecise" : formatDouble(Kept)) +
        ". Rescale the variables: integrate over t = x / s and "
        "multiply the integrand by s per axis"};
  return Status::ok();
}

Status Iteration::checkTileBox(const std::vector<double> &Hi) const {
  if (!I.Code || !I.Code->UnitBoxTile)
    return Status::ok();
  for (unsigned D = 0; D < I.Dim; ++D)
    if (Lo[D] != 0 || Hi[D] != 1)
      return Error{"integrand '" + I.Name +
                   "': its code was compiled for "
                   "the unit cube its source declares, but its domain "
                   "gives [" +
                   formatDouble(Lo[D]) + ", " + formatDouble(Hi[D]) +
                   "] for x[" + std::to_string(D) +
                   "]. A domain changed after compiling (IntegrandInfo::"
                   "Domain replaced) needs its own code: write it in the "
                   "integrand's source"};
  return Status::ok();
}

void Iteration::prepare(RunState &S, std::uint64_t Calls) {
  if (!S.Str || S.Str->neval() != Calls)
    S.Str = std::make_unique<Strata>(I.Dim, Calls, O.Beta, hcubeCap());
  const unsigned Ninc =
      AdaptiveMap::chooseNinc(Calls, S.Str->nstrat(), O.MaxNinc);
  if (!S.Map)
    S.Map = std::make_unique<AdaptiveMap>(I.Dim, Ninc);
  // A loaded grid finer than these calls can train (100,000 increments
  // for 10,000 calls) would adapt to noise and bias the estimate: it is
  // re-sampled, its shape kept, to the increments a fresh map would have.
  if (std::exchange(FitLoadedMap, false) && S.Map->ninc() > Ninc)
    S.Map->adapt(0, Ninc);
}

vf_sampler_args Iteration::samplerArgs(const RunState &S, std::uint64_t Calls) {
  vf_sampler_args A{};
  A.seed = O.Seed;
  A.iteration = S.Iteration;
  A.dim = I.Dim;
  A.nout = I.Outputs;
  A.ninc = S.Map->ninc();
  A.nstrat = S.Str->nstrat();
  A.train = S.Frozen ? 0 : 1;
  A.nhcube = S.Str->nhcube();
  A.nsamples = S.Str->nevalUsed();
  A.tile_size = tileSize(Calls);
  A.edges = S.Map->edges().data();
  A.hcube_offsets = reinterpret_cast<const vf_u64 *>(S.Str->offsets().data());
  A.box_lo = Lo.data();
  A.box_width = Width.data();
  A.box_volume = 1;
  for (double W : Width)
    A.box_volume *= W;
  A.params = kernelParams().data();
  A.hist_cells = I.HistCells;
  A.channel = S.Channel;
  for (const WeightListSpec &W : I.WeightLists)
    A.nweights += W.Entries;
  if (O.Arithmetic == Precision::F32)
    singleInputs(A);
  return A;
}

void Iteration::singleInputs(vf_sampler_args &A) {
  const std::size_t Edges = std::size_t(A.dim) * (A.ninc + 1);
  SingleInputs.resize(Edges + 2 * std::size_t(A.dim));
  std::copy(A.edges, A.edges + Edges, SingleInputs.begin());
  std::copy(Lo.begin(), Lo.end(), SingleInputs.begin() + Edges);
  std::copy(Width.begin(), Width.end(), SingleInputs.begin() + Edges + A.dim);
  A.single_edges = SingleInputs.data();
  A.single_lo = A.single_edges + Edges;
  A.single_width = A.single_lo + A.dim;
  A.single_volume = float(A.box_volume);
}

void Iteration::resetBuffers(const vf_sampler_args &A) {
  const unsigned Stride = segmentStride(I.Outputs);
  const std::uint64_t Ntiles = (A.nsamples + A.tile_size - 1) / A.tile_size;
  Buffers.Segs.resize(A.nhcube * Stride); // not cleared: see estimate()
  Buffers.Edges.assign(Ntiles * 2 * Stride, 0.0);
  Buffers.Results.assign(Ntiles, vf_tile_result{});
  const std::size_t TrainBins = A.train ? std::size_t(I.Dim) * A.ninc : 0;
  // Histograms share the training's groups, sized for both partials.
  // Ranks exchange the groups' partials; a process alone adds each group
  // to the total once it is complete.
  Buffers.Training.reset(TrainBins, Ntiles,
                         TrainingSums::groupCount(
                             TrainBins + 3 * std::size_t(I.HistCells), Ntiles),
                         {}, shared());
  Buffers.Histograms.reset(I.HistCells, Ntiles, Buffers.Training.groups(), A,
                           Buffers.Results.data());
}

Status Iteration::runTiles(const RunState &S, const vf_sampler_args &A,
                           bool Warmup, IterationOutcome &Out) {
  const std::uint64_t Ntiles = Buffers.Results.size();
  std::vector<std::string> Failures(Workers.size());
  Workers.begin(A, kernelParams().size(), Failures);
  std::atomic<std::uint64_t> TilesDone{0}, SamplesDone{0};
  auto TileDone = [&](std::uint64_t Tile) {
    std::uint64_t N = tileSamples(A, Tile);
    std::uint64_t Done = SamplesDone.fetch_add(N) + N;
    // Within an iteration a rank sees only its own tiles: with several
    // ranks, progress is reported per iteration (onIteration) only.
    if (Progress && !shared())
      Progress({S.Iteration, Warmup, TilesDone.fetch_add(1) + 1, Ntiles, Done,
                A.nsamples});
  };
  const TileSink Sink{Buffers.Segs.data(),
                      Buffers.Edges.data(),
                      Buffers.Results.data(),
                      A.train ? &Buffers.Training : nullptr,
                      TileDone,
                      I.HistCells ? &Buffers.Histograms : nullptr};
  std::vector<WorkerTimes> Times(Workers.size());
  // Several ranks share the tiles: one alone cannot leave the iteration.
  const std::atomic<bool> *StopAt = shared() ? nullptr : &Cancel;
  auto RunTiles = [&](std::uint64_t Tb, std::uint64_t Te) {
    return Workers.run(Schedule, A, Tb, Te, Sink, Times, Failures, StopAt);
  };
  bool Finished = true;
  if (shared()) {
    const RankWork W{.Buffers = Buffers,
                     .Offsets = S.Str->offsets(),
                     .Args = A,
                     .Stride = segmentStride(I.Outputs),
                     .Iteration = S.Iteration,
                     .RunTiles = RunTiles,
                     .SamplesDone = SamplesDone};
    if (Status R = Ranks.run(*O.Ranks, W, Finished, Out.Row.Ranks); !R)
      return R;
  } else {
    Finished = RunTiles(0, Ntiles);
  }
  // Cancelled while under way: dropped even if its last tiles were out
  // already (a caller's integrand may have cut them short).
  if (StopAt && StopAt->load()) {
    Out.Cancelled = true;
    return Status::ok();
  }
  if (!Finished)
    return devicesFailed(S.Iteration, Failures);
  Out.Row.Devices = deviceRows(Times, Failures);
  return Status::ok();
}

std::vector<DeviceStats>
Iteration::deviceRows(const std::vector<WorkerTimes> &Times,
                      const std::vector<std::string> &Failures) const {
  std::vector<DeviceStats> Rows;
  for (unsigned W = 0; W < Times.size(); ++W) {
    const WorkerTimes &T = Times[W];
    Rows.push_back({Workers[W].name(), Workers[W].kind(), T.Samples, T.Chunks,
                    T.BusySeconds, T.IdleSeconds, Failures[W]});
  }
  return Rows;
}

Error Iteration::devicesFailed(unsigned Index,
                               const std::vector<std::string> &Failures) const {
  std::string Why;
  for (const std::string &F : Failures)
    if (!F.empty())
      Why += "; " + F;
  std::string Where;
  if (shared()) {
    Where = "rank " + std::to_string(O.Ranks->rank()) + ": ";
    O.Ranks->setErrorScope(ErrorScope::Rank);
  }
  return Error{Where + "iteration " + std::to_string(Index) +
               ": every device failed, samples are left unevaluated" + Why};
}

Status Iteration::checkNonFinite(const RunState &S, const vf_sampler_args &A,
                                 IterationRow &Row) const {
  // The first in sample order, whatever ran it.
  std::uint64_t NonFinite = 0, FirstBad = 0;
  for (const vf_tile_result &R : Buffers.Results) {
    if (R.nonfinite && !NonFinite)
      FirstBad = R.first_bad;
    NonFinite += R.nonfinite;
  }
  Row.NonFinite = NonFinite;
  if (NonFinite && O.OnNonFinite == NonFinitePolicy::Stop)
    return nonFiniteError(S, A, FirstBad, NonFinite);
  return Status::ok();
}

Error Iteration::nonFiniteError(const RunState &S, const vf_sampler_args &A,
                                std::uint64_t Index,
                                std::uint64_t Count) const {
  std::vector<double> X = samplePoint(S, A, Index), F(I.Outputs);
  std::string Point, Value;
  for (unsigned D = 0; D < I.Dim; ++D)
    Point += (D ? ", " : "") + formatDouble(X[D]);
  // A multi-channel integrand's sampled term is its channel's, from the
  // kernels' parameter block (Evaluate would give the channels' sum).
  const bool Channels = S.channels();
  const std::string Name = Channels ? "channel '" + I.Channels[S.Channel] +
                                          "' of integrand '" + I.Name + "'"
                                    : "integrand '" + I.Name + "'";
  if (Channels ? bool(I.EvaluateChannel) : bool(I.Evaluate)) {
    if (Channels)
      I.EvaluateChannel(S.Channel, X.data(), 1, kernelParams().data(),
                        F.data());
    else
      I.Evaluate(X.data(), 1, Params.data(), F.data());
    for (unsigned C = 0; C < I.Outputs; ++C)
      Value += (C ? ", " : "") + formatDouble(F[C]);
    Value = " is " + (I.Outputs > 1 ? "[" + Value + "]" : Value);
  }
  return Error{Name + (Value.empty() ? " is not finite" : Value) + " at x = [" +
               Point + "] (sample " + std::to_string(Index) + " of iteration " +
               std::to_string(S.Iteration) + "; " + std::to_string(Count) +
               " non-finite sample(s) in this iteration). Fix the "
               "integrand there, or set " +
               optionRef("on_nonfinite", "zero") +
               " to count such samples as 0"};
}

void Iteration::addHistograms(RunState &S, bool Warmup, double Variance,
                              std::span<const double> Cells) {
  if (!Warmup)
    S.HistAverage.add(Cells, S.Average->predictedVariance(Variance));
}

void Iteration::adapt(RunState &S, bool Warmup) const {
  if (S.Frozen)
    return;
  S.Map->addTrainingData(Buffers.Training.sums(), Buffers.Training.weights());
  S.Map->adapt(Warmup ? AdaptiveMap::warmupAlpha(O.Alpha) : O.Alpha);
  if (O.Beta > 0)
    S.Str->adapt();
}

} // namespace vf
