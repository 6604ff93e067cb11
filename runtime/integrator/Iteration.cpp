//===- runtime/integrator/Iteration.cpp - One VEGAS+ iteration ------------===//
//
// One iteration (ALGORITHM.md sections 1-4):
//   1. Strata gives the allocation n_h; its prefix sums order the samples
//      by hypercube. Tiles of T(N) samples are handed to the devices.
//   2. Each tile runs the fused kernel: segments of complete hypercubes go
//      to their own slots, the tile's first and last (possibly partial)
//      hypercube to the tile's edge slots, map-training sums to a histogram
//      of the tile's own, added to the total in tile order.
//   3. Edge segments are merged in tile order; hypercubes give the estimate
//      and its (co)variance; the average combines iterations. Histogram
//      cells are reduced alike (HistogramSums) and combined with the
//      integral's weights (HistogramAverage).
//   4. The map and the allocation adapt, unless frozen.
// Every floating-point reduction happens in an order fixed by tile and
// hypercube indices, never by timing: the result is bitwise the same for
// any number of threads.
//
//===----------------------------------------------------------------------===//

#include "integrator/IntegratorImpl.h"

#include "SamplePoint.h"
#include "reduction/Segments.h"

#include <cmath>
#include <cstdio>
#include <utility>

namespace vf {

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

void Integrator::Impl::prepare(std::uint64_t Calls) {
  double Beta = O.Beta;
  if (!Str || Str->neval() != Calls)
    Str = std::make_unique<Strata>(I.Dim, Calls, Beta, O.MaxHcube);
  const unsigned Ninc =
      AdaptiveMap::chooseNinc(Calls, Str->nstrat(), O.MaxNinc);
  if (!Map)
    Map = std::make_unique<AdaptiveMap>(I.Dim, Ninc);
  // A loaded grid finer than these calls can train (100,000 increments
  // for 10,000 calls) would adapt to noise and bias the estimate: it is
  // re-sampled, its shape kept, to the increments a fresh map would have.
  if (std::exchange(GridLoaded, false) && Map->ninc() > Ninc)
    Map->adapt(0, Ninc);
}

std::vector<double> Integrator::Impl::samplePoint(const vf_sampler_args &A,
                                                 std::uint64_t Index) const {
  // Exactly as the kernel drew it: this iteration's map and allocation.
  std::uint64_t H = Strata::findHcube(Str->offsets(), Index);
  std::vector<double> K(I.Dim), X(I.Dim);
  std::vector<vf_u32> Bin(I.Dim);
  vf_hcube_coords(H, I.Dim, A.nstrat, K.data());
  vf_sample_point(&A, I.Dim, Index, K.data(), X.data(), Bin.data());
  return X;
}

Status Integrator::Impl::nonFiniteError(const vf_sampler_args &A,
                                        std::uint64_t Index,
                                        std::uint64_t Count) {
  std::vector<double> X = samplePoint(A, Index), F(I.Outputs);
  std::string Point, Value;
  for (unsigned D = 0; D < I.Dim; ++D)
    Point += (D ? ", " : "") + formatDouble(X[D]);
  if (I.Evaluate) {
    I.Evaluate(X.data(), 1, Params.data(), F.data());
    for (unsigned C = 0; C < I.Outputs; ++C)
      Value += (C ? ", " : "") + formatDouble(F[C]);
    Value = " is " + (I.Outputs > 1 ? "[" + Value + "]" : Value);
  }
  return Error{"integrand '" + I.Name + "'" +
               (Value.empty() ? " is not finite" : Value) + " at x = [" +
               Point + "] (sample " + std::to_string(Index) + " of iteration " +
               std::to_string(Iteration) + "; " + std::to_string(Count) +
               " non-finite sample(s) in this iteration). Fix the "
               "integrand there, or set " +
               optionRef("on_nonfinite", "zero") +
               " to count such samples as 0"};
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
  A.hist_cells = I.HistCells;
  return A;
}

DeviceStats &Integrator::Impl::deviceTotals(const Device &W) {
  for (DeviceStats &D : Devices)
    if (D.Name == W.name() && D.Kind == W.kind())
      return D;
  Devices.push_back({W.name(), W.kind(), 0, 0, 0, 0, {}});
  return Devices.back();
}

/// This iteration's share of each device, added to the run's totals, which
/// are kept by device name: a run resumed from a checkpoint may have other
/// devices than the one that saved it.
std::vector<DeviceStats>
Integrator::Impl::recordDevices(const std::vector<WorkerTimes> &Times,
                                const std::vector<std::string> &Failures) {
  std::vector<DeviceStats> ThisIteration;
  for (unsigned W = 0; W < Times.size(); ++W) {
    const WorkerTimes &T = Times[W];
    ThisIteration.push_back({Workers[W].name(), Workers[W].kind(), T.Samples,
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

/// Merges the tiles' edge segments in tile order and turns the complete
/// hypercubes into the iteration's \p Mean and \p Cov and Strata's moments.
/// A hypercube whose sums overflowed, or whose variance underflowed, is an
/// error: its estimate would be NaN (and spread to every component through
/// the covariance) or taken as exact.
Status Integrator::Impl::estimate(const vf_sampler_args &A,
                                  std::vector<double> &Mean,
                                  std::vector<double> &Cov) {
  const unsigned K = I.Outputs, Stride = segmentStride(K);
  std::vector<double> &Segs = Buffers.Segs, &Edges = Buffers.Edges;
  const std::vector<vf_tile_result> &Results = Buffers.Results;
  // Segs is not cleared between iterations (2 MiB at 65536 hypercubes):
  // the kernels store each hypercube inside a tile whole, and only the
  // tiles' end hypercubes, built here from their edges, start from zero.
  for (const vf_tile_result &R : Results)
    for (std::uint64_t H : {R.first_hcube, R.last_hcube})
      std::fill_n(Segs.begin() + H * Stride, Stride, 0.0);
  for (std::uint64_t T = 0; T < Results.size(); ++T) {
    const vf_tile_result &R = Results[T];
    double *E = Edges.data() + T * 2 * Stride;
    mergeSegment(Segs.data() + R.first_hcube * Stride, E, K);
    if (R.last_hcube != R.first_hcube)
      mergeSegment(Segs.data() + R.last_hcube * Stride, E + Stride, K);
  }
  Mean.assign(K, 0.0);
  Cov.assign(K * K, 0.0);
  std::vector<double> Carry(K, 0.0);
  // Per component, the first hypercube whose variance underflowed.
  std::vector<std::uint64_t> Underflow(K, A.nhcube);
  // Per component, the largest |f J| seen (a hypercube's first value).
  std::vector<double> Largest(K, 0.0);
  // Every hypercube's moments are set below; a failed iteration leaves
  // none of its own.
  auto Fail = [&](Error E) {
    Str->clearSums();
    return E;
  };
  if (K == 1) {
    // Each hypercube's terms in a vector pass; here only the sums, which
    // keep hypercube order.
    HypercubeTerms &T = Buffers.Terms;
    singleOutputTerms(Segs.data(), A.nhcube, double(A.nhcube), T);
    for (std::uint64_t H = 0; H < A.nhcube; ++H) {
      const double *S = Segs.data() + H * Stride;
      if (T.Flags[H] & 1)
        return Fail(sumsError(H, S, 0, false));
      if (T.Flags[H] & 2 && Underflow[0] == A.nhcube)
        Underflow[0] = H;
      Largest[0] = std::max(Largest[0], std::fabs(S[1]));
      if (!(S[0] > 0)) {
        Str->setMoments(H, 0, 0, 0, 0);
        continue;
      }
      compensatedAdd(Mean[0], Carry[0], T.Mean[H]);
      Cov[0] += T.Var[H]; // 0 where n < 2, as addHypercubeEstimate skips
      Str->setMoments(H, S[0], S[1], T.MeanD[H], T.M2[H]);
    }
  } else {
    for (std::uint64_t H = 0; H < A.nhcube; ++H) {
      const double *S = Segs.data() + H * Stride;
      if (unsigned C = 0; segmentOverflows(S, K, C))
        return Fail(sumsError(H, S, C, false));
      for (unsigned C = 0; C < K; ++C) {
        if (Underflow[C] == A.nhcube && varianceUnderflows(S, K, C))
          Underflow[C] = H;
        Largest[C] = std::max(Largest[C], std::fabs(S[1 + C]));
      }
      addHypercubeEstimate(S, K, double(A.nhcube), Mean, Carry, Cov);
      Str->setSums(H, HypercubeSums{S[0], S[1], S[1 + K], S[1 + 2 * K]});
    }
  }
  for (unsigned C = 0; C < K; ++C)
    Mean[C] += Carry[C];
  if (Status S = checkEstimate(A.nhcube, Mean, Cov, Underflow, Largest); !S)
    return Fail(S.error());
  return Status::ok();
}

/// What the hypercubes' sums cannot give honestly: values below the normal
/// range (their mean underflows to 0), a variance lost to underflow where
/// the values really differ, an estimate that overflows.
Status Integrator::Impl::checkEstimate(
    std::uint64_t Nhcube, const std::vector<double> &Mean,
    const std::vector<double> &Cov, const std::vector<std::uint64_t> &Underflow,
    const std::vector<double> &Largest) const {
  const unsigned K = I.Outputs, Stride = segmentStride(K);
  const double *Segs = Buffers.Segs.data();
  // What an underflowed hypercube loses is below 1e-323 / (N_h (n - 1)):
  // nothing beside a variance that is not itself that small (a Gaussian's
  // far tail, say), everything when the whole component is tiny.
  for (unsigned C = 0; C < K; ++C)
    if (Mean[C] == 0 && Largest[C] != 0 && Largest[C] < 0x1p-1000)
      return tinyValuesError(C, Largest[C]);
  for (unsigned C = 0; C < K; ++C)
    if (Underflow[C] < Nhcube && Cov[C * K + C] < 1e-290 &&
        !roundingOnly(Segs + Underflow[C] * Stride, K, C))
      return sumsError(Underflow[C], Segs + Underflow[C] * Stride, C, true);
  for (unsigned C = 0; C < K; ++C)
    for (unsigned D = 0; D < K; ++D)
      if (!std::isfinite(Mean[C]) || !std::isfinite(Cov[C * K + D]))
        return Error{"the estimate of " + componentName(C) +
                     " overflows when its hypercubes are added (" +
                     formatDouble(Mean[C]) + " +- " +
                     formatDouble(std::sqrt(Cov[C * K + C])) +
                     "). Rescale the integrand: divide it by a constant "
                     "near its size and multiply the result back"};
  return Status::ok();
}

/// Sample \p Index (value \p V = J f_0) of hypercube \p H: its term of
/// the iteration's variance, n / (n - 1) ((V - v_h) / (n N_h))^2 with n
/// and v_h the hypercube's count and mean.
static double varianceTerm(const double *Seg, unsigned Outputs, double V,
                           double Nhcube) {
  const double N = Seg[0];
  if (!(N > 1))
    return 0;
  const double Dev = (V - (Seg[1] + Seg[1 + Outputs] / N)) / (N * Nhcube);
  return N / (N - 1) * Dev * Dev;
}

void Integrator::Impl::largestWeight(const vf_sampler_args &A,
                                     double Variance, IterationRow &Row) const {
  if (!(Variance > 0))
    return;
  // Each tile's candidate, and the first sample of its hypercube (the
  // segment's shift, which the kernel's deviations are taken from); in
  // tile order, the first largest wins: the same sample whatever device
  // ran which tile.
  const unsigned Stride = segmentStride(I.Outputs);
  double Best = 0;
  std::uint64_t BestIndex = 0;
  for (const vf_tile_result &R : Buffers.Results) {
    // Searched among the tile's own hypercubes: a search of the whole
    // allocation per tile missed the cache at every step.
    const std::uint64_t H =
        R.first_hcube +
        Strata::findHcube(Str->offsets().subspan(
                              R.first_hcube, R.last_hcube - R.first_hcube + 2),
                          R.max_index);
    const double *Seg = Buffers.Segs.data() + H * Stride;
    const double Nh = double(A.nhcube);
    const double Term = varianceTerm(Seg, I.Outputs, R.max_value, Nh),
                 First = varianceTerm(Seg, I.Outputs, Seg[1], Nh);
    if (Term > Best || First > Best) {
      Best = std::max(Term, First);
      BestIndex = Term >= First ? R.max_index : Str->offsets()[H];
    }
  }
  if (!(Best > 0))
    return;
  Row.MaxShare = std::min(1.0, Best / Variance);
  Row.MaxPoint = samplePoint(A, BestIndex);
}

std::string Integrator::Impl::componentName(unsigned C) const {
  return I.Outputs > 1 ? "component " + std::to_string(C) + " of integrand '" +
                             I.Name + "'"
                       : "integrand '" + I.Name + "'";
}

Error Integrator::Impl::tinyValuesError(unsigned C, double Largest) const {
  return Error{componentName(C) +
               " is too small to integrate: its weighted "
               "values f*J are at most " +
               formatDouble(Largest) +
               ", below the normal range of doubles, and their average "
               "underflows to 0. Rescale it: multiply it by a constant near "
               "1 / " +
               formatDouble(Largest) + " and divide the result by it"};
}

Error Integrator::Impl::sumsError(std::uint64_t H, const double *S,
                                  unsigned C, bool Underflow) const {
  const double Value = S[1 + C]; // the hypercube's first weighted value
  const std::string Where = " in hypercube " + std::to_string(H) +
                            " of iteration " + std::to_string(Iteration);
  if (Underflow)
    return Error{componentName(C) + " is too small to have an error bar" +
                 Where + ": its weighted values f*J (about " +
                 formatDouble(Value) +
                 ") differ, but the squares of their differences underflow "
                 "to 0 (below 1e-308), so its variance would be taken as "
                 "exactly 0. Rescale it: multiply it by a constant near 1 / " +
                 formatDouble(std::fabs(Value)) +
                 " and divide the result by it"};
  if (!std::isfinite(Value))
    return Error{componentName(C) + " has a weighted value f*J that is not "
                 "finite" + Where + " (" + formatDouble(Value) +
                 "), though f itself is: f times the Jacobian of the map "
                 "and the box volume overflows the double range (1.8e308). "
                 "Rescale the integrand or the integration variables, so "
                 "that f times the volume stays far below 1e154"};
  return Error{componentName(C) + " overflows" + Where +
               ": its weighted values f*J are about " + formatDouble(Value) +
               ", and their squares (for the variance) exceed the double "
               "range (1.8e308; values must stay below about 1e154). "
               "Rescale it: divide it by a constant near " +
               formatDouble(std::fabs(Value)) +
               " and multiply the result by it"};
}

Status Integrator::Impl::checkBox(const std::vector<double> &Lo,
                                  const std::vector<double> &Hi) const {
  double Volume = 1;
  bool Empty = false;
  for (unsigned D = 0; D < I.Dim; ++D) {
    const double W = Hi[D] - Lo[D];
    if (!std::isfinite(W))
      return Error{"integrand '" + I.Name + "': the interval [" +
                   formatDouble(Lo[D]) + ", " + formatDouble(Hi[D]) +
                   "] of x[" + std::to_string(D) +
                   "] is wider than a double holds (1.8e308). Rescale "
                   "that variable: integrate over t = x / s on [lo/s, hi/s] "
                   "and multiply the integrand by s"};
    Empty = Empty || W == 0;
    Volume *= W;
  }
  if (!std::isfinite(Volume) || (Volume == 0 && !Empty))
    return Error{"integrand '" + I.Name + "': the box's volume (the "
                 "product of its " + std::to_string(I.Dim) +
                 " widths) is " + (Volume == 0 ? "below" : "beyond") +
                 " the double range, so every sample's Jacobian would be " +
                 formatDouble(Volume) +
                 ". Rescale the variables: integrate over t = x / s and "
                 "multiply the integrand by s per axis"};
  return Status::ok();
}

Status Integrator::Impl::iterate(std::uint64_t Calls, bool Warmup,
                                 bool &Cancelled) {
  Clock::time_point Start = Clock::now();
  std::vector<double> Lo, Hi;
  if (Status S = I.Domain(Params, Lo, Hi); !S)
    return S;
  if (I.HistCells)
    if (Status S = I.HistRanges(Params, HistRanges); !S)
      return S;
  if (Status S = checkBox(Lo, Hi); !S)
    return S;
  if (Status S = checkMemory(Calls); !S)
    return S;
  prepare(Calls);
  ++Iteration;
  const unsigned Stride = segmentStride(I.Outputs);
  std::vector<double> Width(I.Dim);
  for (unsigned D = 0; D < I.Dim; ++D)
    Width[D] = Hi[D] - Lo[D];
  const vf_sampler_args A = samplerArgs(Calls, Lo, Width);
  const std::uint64_t Ntiles = (A.nsamples + A.tile_size - 1) / A.tile_size;

  // The per-iteration arrays keep their memory from one iteration to the
  // next: freshly allocated, their pages would fault in every iteration.
  Buffers.Segs.resize(A.nhcube * Stride); // not cleared: see estimate()
  Buffers.Edges.assign(Ntiles * 2 * Stride, 0.0);
  Buffers.Results.assign(Ntiles, vf_tile_result{});
  TrainingSums &Training = Buffers.Training;
  const std::size_t TrainBins = A.train ? std::size_t(I.Dim) * A.ninc : 0;
  // Histograms share the training's groups, sized for both partials.
  // Ranks exchange the groups' partials; a process alone adds each group
  // to the total once it is complete.
  Training.reset(TrainBins, Ntiles,
                 TrainingSums::groupCount(TrainBins + 3 * std::size_t(I.HistCells),
                                          Ntiles),
                 {}, shared());
  HistogramSums &Hists = Buffers.Histograms;
  Hists.reset(I.HistCells, Ntiles, Training.groups(), A,
              Buffers.Results.data());

  std::vector<std::string> NewFailures(Workers.size());
  Workers.begin(A, Params.size(), NewFailures);
  std::atomic<std::uint64_t> TilesDone{0}, SamplesDone{0};
  auto TileDone = [&](std::uint64_t Tile) {
    std::uint64_t N = tileSamples(A, Tile);
    std::uint64_t Done = SamplesDone.fetch_add(N) + N;
    // Within an iteration a rank sees only its own tiles: with several
    // ranks, progress is reported per iteration (onIteration) only.
    if (Progress && !shared())
      Progress({Iteration, Warmup, TilesDone.fetch_add(1) + 1, Ntiles, Done,
                A.nsamples});
  };
  const TileSink Sink{Buffers.Segs.data(), Buffers.Edges.data(),
                      Buffers.Results.data(), A.train ? &Training : nullptr,
                      TileDone, I.HistCells ? &Hists : nullptr};
  // Tiles [Tb, Te) on this process's devices; false if some are left
  // because every device failed.
  std::vector<WorkerTimes> Times(Workers.size());
  // Several ranks share the tiles: one alone cannot leave the iteration.
  const std::atomic<bool> *Cancel = shared() ? nullptr : &CancelRequested;
  auto RunTiles = [&](std::uint64_t Tb, std::uint64_t Te) {
    return Workers.run(Schedule, A, Tb, Te, Sink, Times, NewFailures, Cancel);
  };
  bool Finished = true;
  std::vector<RankStats> RankRow;
  if (shared()) {
    if (Status S = runOnRanks(*O.Ranks, RunTiles, SamplesDone, A, Stride,
                              Finished, RankRow);
        !S)
      return S;
  } else {
    Finished = RunTiles(0, Ntiles);
  }
  // Cancelled while under way: dropped even if its last tiles were out
  // already (a caller's integrand may have cut them short). Its Philox
  // words are drawn again by the iteration that replaces it.
  if (Cancel && Cancel->load()) {
    --Iteration;
    Cancelled = true;
    return Status::ok();
  }
  if (!Finished) {
    std::string Why;
    for (const std::string &F : NewFailures)
      if (!F.empty())
        Why += "; " + F;
    std::string Where;
    if (shared()) {
      Where = "rank " + std::to_string(O.Ranks->rank()) + ": ";
      O.Ranks->setErrorScope(ErrorScope::Rank);
    }
    return Error{Where + "iteration " + std::to_string(Iteration) +
                 ": every device failed, samples are left unevaluated" + Why};
  }
  if (A.train)
    Training.finish();

  // Non-finite samples: the first in sample order, whatever ran it.
  std::uint64_t NonFinite = 0, FirstBad = 0;
  for (const vf_tile_result &R : Buffers.Results) {
    if (R.nonfinite && !NonFinite)
      FirstBad = R.first_bad;
    NonFinite += R.nonfinite;
  }
  if (NonFinite && O.OnNonFinite == NonFinitePolicy::Stop)
    return nonFiniteError(A, FirstBad, NonFinite);

  std::vector<double> Mean, Cov;
  if (Status S = estimate(A, Mean, Cov); !S)
    return S;
  if (I.HistCells) {
    Hists.finish();
    if (!Warmup)
      HistAverage.add(Hists.totals(), Average->predictedVariance(Cov[0]));
  }
  IterationRow Row;
  largestWeight(A, Cov[0], Row);
  std::vector<DeviceStats> ThisIteration = recordDevices(Times, NewFailures);

  if (!Frozen) {
    Map->addTrainingData(Training.sums(), Training.weights());
    Map->adapt(Warmup ? AdaptiveMap::warmupAlpha(O.Alpha) : O.Alpha);
    if (O.Beta > 0)
      Str->adapt();
  }
  Evaluations += A.nsamples;
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
  return Status::ok();
}

double roundoffFloor(unsigned Dim, double Mean) {
  const double F = std::sqrt(double(Dim) + 2) * 0x1p-52 * std::fabs(Mean);
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
Integrator::Impl::withRoundoff(std::vector<double> Error,
                               const std::vector<double> &Mean) const {
  // Rounding in the map and the sums repeats from one iteration to the
  // next (the same edges, the same products), so the combined estimate's
  // floor is one iteration's, not divided by the square root of their
  // number.
  for (std::size_t C = 0; C < Error.size() && C < Mean.size(); ++C) {
    const double F = roundoffFloor(I.Dim, Mean[C]);
    if (std::isfinite(Error[C]))
      Error[C] = withFloor(Error[C] * Error[C], F);
  }
  return Error;
}

void Integrator::Impl::record(IterationRow Row, std::span<const double> Mean,
                              std::span<const double> SampledCov) {
  const unsigned K = I.Outputs;
  Row.Mean.assign(Mean.begin(), Mean.end());
  // The iteration's variance includes the round-off floor, so that
  // iterations agreeing to rounding do not count as disagreeing in chi2.
  std::vector<double> Cov(SampledCov.begin(), SampledCov.end());
  for (unsigned C = 0; C < K; ++C) {
    const double F = roundoffFloor(I.Dim, Mean[C]);
    Row.Error.push_back(withFloor(Cov[C * K + C], F));
    Cov[C * K + C] += F * F;
  }
  Average->add(Row.Mean, Row.Error, Cov, Row.Warmup);
  Row.CumMean = Average->mean();
  Row.CumError = withRoundoff(Average->sdev(), Row.CumMean);
  Row.Chi2Dof = Average->chi2dof();
  Row.Q = Average->Q();
  Rows.push_back(Row);
  Covs.push_back(std::move(Cov));
}

} // namespace vf
