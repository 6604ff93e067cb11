//===- runtime/integrator/Integrator.cpp - The integrator's front ---------===//
//
// create() checks the integrand and the options and sets up the devices;
// run() drives the loop (runPlan) through a run plan that a restored
// checkpoint can continue: each step an Iteration, added to the RunState,
// then the checkpoint written. The result comes from the average the
// output count chose. The units the loop calls are the files
// IntegratorImpl.h lists.
//
//===----------------------------------------------------------------------===//

#include "integrator/ChannelWeights.h"
#include "integrator/IntegratorImpl.h"
#include "integrator/VarianceCheck.h"
#include "integrator/WeightListBand.h"
#include "integrator/WeightRatios.h"

#include "HistogramCells.h"
#include "IntegrandCode.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <exception>
#include <new>
#include <system_error>
#include <utility>

namespace vf {

namespace {

/// The sampler's workspace holds a sample's weight-list entries up to
/// VF_SAMPLER_MAX_WEIGHTS (the language's limit, which the compiler
/// enforces): an integrand bound otherwise with more is refused rather
/// than sampled past its buffers.
Status checkWeightEntries(const IntegrandInfo &In) {
  std::uint64_t Entries = 0;
  for (const WeightListSpec &W : In.WeightLists)
    Entries += W.Entries;
  if (Entries <= VF_SAMPLER_MAX_WEIGHTS)
    return Status::ok();
  return Error{"integrand '" + In.Name + "' has " + std::to_string(Entries) +
               " weight-list entries; a run accumulates at most " +
               std::to_string(VF_SAMPLER_MAX_WEIGHTS) +
               " over all its lists (split the variations over several "
               "integrands)"};
}

/// Every check of checkOptions; on success the parsed schedule, so that
/// create() parses it once.
Expected<ScheduleSpec> checkedSchedule(const IntegratorOptions &O) {
  auto Bad = [](const std::string &Option, auto Message) {
    return Error{std::move(Message), Option};
  };
  // Above 1.5 the map over-reacts to one iteration's noise: lepage8 at
  // alpha 2 and 2e4 calls gave wrong answers with a fine Q for 3 seeds of
  // 4, alpha 2.5 and more collapse the map even at 1e5 calls; up to 1.5
  // (the classic codes' value) a failure still shows in Q.
  if (!inRange(OptionId::Alpha, O.Alpha))
    return Bad("alpha",
               optionRef("alpha") + " must be from " +
                   rangeText(OptionId::Alpha) +
                   " (0: no map adaptation; above 1.5 the map chases the "
                   "noise of single iterations and can collapse), got " +
                   formatDouble(O.Alpha));
  if (!inRange(OptionId::Beta, O.Beta))
    return Bad("beta", optionRef("beta") + " must be from " +
                           rangeText(OptionId::Beta) +
                           " (0: classic VEGAS), got " + formatDouble(O.Beta));
  if (!inRange(OptionId::Ninc, O.MaxNinc))
    return Bad("ninc", optionRef("ninc") + " must be an integer from " +
                           rangeText(OptionId::Ninc) + ", got " +
                           std::to_string(O.MaxNinc));
  if (!inRange(OptionId::MaxHcube, double(O.MaxHcube)))
    return Bad("max_hcube", "the hypercube cap (" + optionRef("max_hcube") +
                                ") must be at least 1");
  if (Status T = checkTarget(O); !T)
    return T.error();
  if (O.Threads > MaxThreads)
    return Bad("devices", "the CPU thread count (" + optionRef("devices") +
                              ") must be from 1 to " +
                              std::to_string(MaxThreads) +
                              " (or 0 for every hardware thread), got " +
                              std::to_string(O.Threads));
  Expected<ScheduleSpec> S = ScheduleSpec::parse(O.Schedule);
  if (!S)
    return S;
  // A simulated device sleeps for its samples: below 1000 samples/s an
  // iteration would take hours for nothing a test could not show faster.
  for (double R : O.SimulatedDevices)
    if (!(R >= 1e3) || !(R <= 1e13))
      return Bad("devices", "a simulated device (" + optionRef("devices") +
                                ") runs at 1e3 to 1e13 samples/s (sim:0.001 "
                                "to sim:1e7), got " +
                                formatDouble(R) + " samples/s");
  if (O.NoCpu && O.SimulatedDevices.empty() && O.Gpus.empty() && !O.AllGpus)
    return Bad("devices",
               "no device to run on: no CPU threads and no other device");
  return S;
}

} // namespace

Error currentExceptionError(const std::string &What) {
  try {
    throw;
  } catch (const std::bad_alloc &) {
    return Error{What + ": out of memory. Lower " + optionRef("calls") +
                 " or the CPU threads (" + optionRef("devices") +
                 "), or allow the process more "
                 "memory (ulimit -v)"};
  } catch (const std::system_error &E) {
    return Error{What + ": the system refused: " + std::string(E.what()) +
                 " (too many threads? lower the CPU threads, " +
                 optionRef("devices") + ")"};
  } catch (const std::exception &E) {
    return Error{What + ": " + std::string(E.what())};
  } catch (...) {
    return Error{What + ": an unknown exception"};
  }
}

Expected<Precision> parsePrecision(const std::string &Name) {
  if (Name == "f64")
    return Precision::F64;
  if (Name == "f32")
    return Precision::F32;
  return Error{optionRef("precision") + " must be \"f64\" or \"f32\", got \"" +
                   Name + "\"",
               "precision"};
}

Status checkSchedule(const std::string &Schedule) {
  Expected<ScheduleSpec> S = ScheduleSpec::parse(Schedule);
  return S ? Status::ok() : Status(S.error());
}

Status checkOptions(const IntegratorOptions &O) {
  Expected<ScheduleSpec> S = checkedSchedule(O);
  return S ? Status::ok() : Status(S.error());
}

Integrator::Integrator(std::unique_ptr<Impl> I) : P(std::move(I)) {}
Integrator::~Integrator() = default;

Expected<std::unique_ptr<Integrator>> Integrator::create(IntegrandInfo In,
                                                         IntegratorOptions O) {
  return guarded("create", [&]() -> Expected<std::unique_ptr<Integrator>> {
    return createUnguarded(std::move(In), std::move(O));
  });
}

/// \p In as \p O's arithmetic computes it: its single-precision code for
/// F32.
Expected<IntegrandInfo> inPrecision(IntegrandInfo In,
                                    const IntegratorOptions &O) {
  const bool Single = O.Arithmetic == Precision::F32;
  if (In.SingleCode == Single)
    return In;
  if (!Single)
    return Error{"integrand '" + In.Name +
                     "' was compiled in single precision only; set " +
                     optionRef("precision", "f32") +
                     ", or compile it for double too",
                 "precision"};
  if (!In.Single)
    return Error{"integrand '" + In.Name +
                     "' has no single-precision code (an integrand given "
                     "as a C++ or Python callback runs in double only); set " +
                     optionRef("precision", "f64"),
                 "precision"};
  return In.Single();
}

/// A warning when \p O's relative target is below what its arithmetic's
/// round-off floor lets a result reach.
void precisionNotes(const IntegratorOptions &O, unsigned Dim,
                    std::vector<IntegratorNote> &Notes) {
  const double Floor = std::sqrt(double(Dim) + 2) * roundingUnit(O.Arithmetic);
  if (O.Arithmetic != Precision::F32 || !(O.Rtol > 0) || O.Rtol >= Floor)
    return;
  char Text[320];
  std::snprintf(Text, sizeof Text,
                "rtol %.3g is below what single precision can deliver in %u "
                "dimensions (its round-off floor, sqrt(d + 2) 2^-23 = %.3g "
                "of the result): the target cannot be met; use precision "
                "f64 or an rtol of at least %.3g",
                O.Rtol, Dim, Floor, Floor);
  Notes.push_back({IntegratorNote::Kind::Precision, Text});
}

Expected<std::unique_ptr<Integrator>>
Integrator::createUnguarded(IntegrandInfo Given, IntegratorOptions O) {
  Expected<IntegrandInfo> Chosen = inPrecision(std::move(Given), O);
  if (!Chosen)
    return Chosen.error();
  IntegrandInfo In = std::move(*Chosen);
  if (In.Dim == 0 || In.Dim > VF_SAMPLER_MAX_DIM)
    return Error{"integrand '" + In.Name + "' has " + std::to_string(In.Dim) +
                 " dimensions; the sampler supports "
                 "1 to " +
                 std::to_string(VF_SAMPLER_MAX_DIM)};
  if (In.Outputs == 0 || In.Outputs > VF_SAMPLER_MAX_OUT)
    return Error{"integrand '" + In.Name + "' has " +
                 std::to_string(In.Outputs) +
                 " components; integration "
                 "supports 1 to " +
                 std::to_string(VF_SAMPLER_MAX_OUT) +
                 " (the sampler keeps a covariance per hypercube); more "
                 "values serve only as an event record"};
  if (Status W = checkWeightEntries(In); !W)
    return W.error();
  if (!In.Code || !In.Code->SampleTile || !In.Domain)
    return Error{"integrand '" + In.Name + "' has no compiled sampling kernel"};
  Expected<ScheduleSpec> S = checkedSchedule(O);
  if (!S)
    return S.error();
  if (Status C = checkChannelOptions(O, unsigned(In.Channels.size()), In.Name);
      !C)
    return C.error();
  std::vector<IntegratorNote> Notes;
  precisionNotes(O, In.Dim, Notes);
  Expected<DeviceSet> D = DeviceSet::create(In, O, Notes);
  if (!D)
    return D.error();
  return std::unique_ptr<Integrator>(new Integrator(std::make_unique<Impl>(
      std::move(In), std::move(O), *S, std::move(*D), std::move(Notes))));
}

Expected<Result> Integrator::run(unsigned Iterations, std::uint64_t Calls,
                                 unsigned Warmup) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("run");
  if (Status S = checkRunPlan(Iterations, Calls, Warmup); !S)
    return S.error();
  RunPlan &Plan = P->State.Plan;
  // A restored or interrupted run continues (and is extended) when it
  // can; an unfinished one must, a finished one otherwise starts a new run
  // on top.
  const bool Resumable = std::exchange(P->Restored, false) || Plan.unfinished();
  Status Continues = checkResume(Plan, Iterations, Calls, Warmup);
  if (Plan.unfinished() && !Continues)
    return Continues.error();
  if (Resumable && Continues)
    Plan.Iterations = Iterations;
  else
    Plan = RunPlan{Iterations, Calls, Warmup, 0};
  return P->runPlan(*this);
}

Expected<Result> Integrator::extend(unsigned Iterations) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("extend");
  RunPlan &Plan = P->State.Plan;
  if (Plan.Calls == 0)
    return Error{"nothing to extend: no run has started (run() first)"};
  if (Status S = checkRunPlan(Iterations, Plan.Calls, Plan.Warmup); !S)
    return S.error();
  if (Status S = checkResume(Plan, Iterations, Plan.Calls, Plan.Warmup); !S)
    return S.error();
  P->Restored = false;
  Plan.Iterations = Iterations;
  return P->runPlan(*this);
}

bool Integrator::Impl::targetReached() const {
  // From the second measured iteration: one alone has no chi2 to trust.
  const std::vector<IterationRow> &Rows = State.Rows;
  if (!O.hasTarget() || State.Plan.measured() == 0 ||
      std::count_if(Rows.begin(), Rows.end(),
                    [](const IterationRow &R) { return !R.Warmup; }) < 2)
    return false;
  const std::vector<double> Mean = State.Average->mean(),
                            Err = State.Average->sdev();
  for (std::size_t C = 0; C < Mean.size(); ++C)
    if (!(Err[C] <= std::max(O.Atol, O.Rtol * std::fabs(Mean[C]))))
      return false;
  return true;
}

StopReason Integrator::Impl::stopReason() const {
  if (Stopped != StopReason::None || State.Rows.empty())
    return Stopped;
  if (targetReached())
    return StopReason::Target;
  if (!State.Plan.unfinished())
    return O.hasTarget() ? StopReason::Cap : StopReason::Iterations;
  return StopReason::None;
}

Expected<Result> Integrator::Impl::runPlan(Integrator &Self) {
  // The target is checked before each iteration rather than after it, so
  // that a checkpoint written by the iteration that met it (still
  // unfinished by its plan) resumes to the same stop.
  // The request is this run's: the next run() starts without it.
  struct ClearCancel {
    std::atomic<bool> &Flag;
    ~ClearCancel() { Flag = false; }
  } Clear{CancelRequested};
  // This run's error is every rank's unless this rank's own failure or
  // the transport's marks it so (Cluster::errorScope).
  if (O.Ranks)
    O.Ranks->setErrorScope(ErrorScope::Shared);
  RunPlan &Plan = State.Plan;
  while (true) {
    if (CancelRequested) {
      Stopped = StopReason::Cancelled;
      break;
    }
    if (targetReached()) {
      Plan.Iterations = Plan.measured();
      Stopped = StopReason::Target;
      break;
    }
    if (!Plan.unfinished()) {
      Stopped = O.hasTarget() ? StopReason::Cap : StopReason::Iterations;
      break;
    }
    bool Cancelled = false;
    if (Status S = guarded("iteration " + std::to_string(State.Iteration + 1),
                           [&] { return iterate(Cancelled); });
        !S) {
      Plan.Done = Plan.total(); // abandoned: the next run() starts afresh
      Stopped = StopReason::Error;
      return S.error();
    }
    if (Cancelled)
      continue; // stops at the top, as a cancel between iterations does
    // Outside the guard: an exception of the observer's own is the
    // caller's way to stop between iterations (the run stays resumable).
    if (Observer)
      Observer(State.Rows.back());
  }
  return Self.result();
}

Status Integrator::Impl::iterate(bool &Cancelled) {
  const RunPlan &Plan = State.Plan;
  Expected<IterationOutcome> Out =
      Step.run(State, Plan.Calls, Plan.Done < Plan.Warmup);
  if (!Out)
    return Out.error();
  if (Out->Cancelled) {
    Cancelled = true;
    return Status::ok();
  }
  State.add(std::move(Out->Row), Out->Mean, Out->Cov);
  if (!CheckpointPath.empty())
    if (Status S = writeCheckpoint(CheckpointPath, snapshot(true)); !S)
      return Error{"checkpoint: " + S.message()};
  return Status::ok();
}

Status Integrator::setTarget(double Rtol, double Atol) {
  BusyClaim Claim(P->Busy, /*Reentrant=*/true);
  if (!Claim)
    return busyError("setTarget");
  IntegratorOptions T = P->O;
  T.Rtol = Rtol;
  T.Atol = Atol;
  if (Status S = checkTarget(T); !S)
    return S;
  P->O = T;
  // The warning follows the target: the last one set is the one that runs.
  std::erase_if(P->Notes, [](const IntegratorNote &N) {
    return N.What == IntegratorNote::Kind::Precision;
  });
  precisionNotes(T, P->I.Dim, P->Notes);
  return Status::ok();
}

const RunPlan &Integrator::plan() const { return P->State.Plan; }

void Integrator::cancel() { P->CancelRequested = true; }

bool Integrator::busy() const { return P->Busy != std::thread::id(); }

Error busyError(const std::string &What) {
  return Error{"the integrator is busy: " + What +
               "() was called while "
               "another call on it (run, extend, sampling or a state file) "
               "is under way, from another thread or from an observer. An "
               "integrator does one thing at a time: wait for the call to "
               "return, or make one integrator per thread"};
}

void Integrator::freeze() { P->State.Frozen = true; }
bool Integrator::frozen() const { return P->State.Frozen; }

Status Integrator::restartStatistics() {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("restartStatistics");
  const RunPlan &Plan = P->State.Plan;
  if (Plan.unfinished() && Plan.Done > 0)
    return Error{"the statistics cannot restart while a run is unfinished "
                 "(" +
                 std::to_string(Plan.Done) + " of " +
                 std::to_string(Plan.total()) +
                 " iterations done): finish it with run() first"};
  P->State.restartAfterLastRow();
  P->Ranks.clearTotals();
  return Status::ok();
}

Status Integrator::setParam(const std::string &Name, double Value) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("setParam");
  Impl &I = *P;
  for (std::size_t K = 0; K < I.I.ParamNames.size(); ++K) {
    if (I.I.ParamNames[K] != Name)
      continue;
    if (!std::isfinite(Value))
      return Error{"parameter '" + Name + "' must be finite, got " +
                   formatDouble(Value)};
    if (Value == I.Params[K])
      return Status::ok();
    const RunPlan &Plan = I.State.Plan;
    if (Plan.unfinished() && Plan.Done > 0)
      return Error{"parameter '" + Name +
                   "' cannot change while a restored "
                   "run is unfinished (" +
                   std::to_string(Plan.Done) + " of " +
                   std::to_string(Plan.total()) +
                   " iterations done): finish it with run() first"};
    I.Params[K] = Value;
    I.State.startFreshStatistics();
    I.Ranks.clearTotals();
    return Status::ok();
  }
  std::string Names;
  for (const std::string &N : I.I.ParamNames)
    Names += (Names.empty() ? "" : ", ") + N;
  return Error{"unknown parameter '" + Name + "'" +
               (Names.empty() ? std::string("; the integrand has none")
                              : "; parameters: " + Names)};
}

const std::vector<double> &Integrator::params() const { return P->Params; }

Result Integrator::result() const {
  const RunState &S = P->State;
  Result R;
  R.Outputs = P->I.Outputs;
  R.Mean = S.Average->mean();
  R.Error = S.withRoundoff(S.Average->sdev(), R.Mean);
  R.Covariance = S.Average->cov();
  for (unsigned C = 0; C < R.Error.size(); ++C) {
    R.RoundoffFloor.push_back(roundoffFloor(P->I.Dim, R.Mean[C], S.Unit));
    if (C * R.Outputs + C < R.Covariance.size() && std::isfinite(R.Error[C]))
      R.Covariance[C * R.Outputs + C] = R.Error[C] * R.Error[C];
  }
  R.Arithmetic = P->O.Arithmetic;
  R.Chi2Dof = S.Average->chi2dof();
  R.Q = S.Average->Q();
  std::vector<double> Lo, Hi;
  if (!P->I.Domain(P->Params, Lo, Hi))
    Lo.clear(), Hi.clear(); // No ends to name; the share still counts.
  R.Variance = checkVariance(S.Rows, Lo, Hi);
  R.Iterations = S.Rows;
  for (const DerivedSpec &D : P->I.Derived) {
    R.Derived.push_back(evaluateDerived(D, R.Mean, R.Covariance, P->Params));
    for (std::size_t K = 0; K < R.Iterations.size() && K < S.Covs.size(); ++K)
      R.Iterations[K].Derived.push_back(
          evaluateDerived(D, R.Iterations[K].Mean, S.Covs[K], P->Params));
  }
  R.Channels = P->channels();
  R.Devices = S.Devices;
  R.Ranks = P->Ranks.totals();
  R.ExchangeBytes = P->Ranks.bytes();
  R.Evaluations = S.Evaluations;
  R.WallSeconds = S.Wall;
  R.Histograms = P->histograms();
  R.WeightLists = P->weightLists(R.Mean.empty() ? 0.0 : R.Mean[0]);
  R.Stopped = P->stopReason();
  R.HasTarget = P->O.hasTarget();
  R.TargetMet = R.Stopped == StopReason::Target;
  return R;
}

std::vector<Histogram> Integrator::Impl::histograms() const {
  std::vector<Histogram> Out;
  std::size_t Range = 0;
  for (const HistogramSpec &S : I.Histograms) {
    Histogram H;
    H.Name = S.Name;
    for (unsigned B : S.Bins) {
      HistogramAxis A;
      A.Bins = B;
      if (Range + 1 < State.HistRanges.size()) {
        A.Lo = State.HistRanges[Range];
        A.Hi = State.HistRanges[Range + 1];
      }
      Range += 2;
      H.Axes.push_back(A);
    }
    // The cells' layout: HistogramCells.h.
    const unsigned Axes = unsigned(S.Bins.size());
    const vf_u64 Bins = S.Bins[0] * vf_u64(Axes == 2 ? S.Bins[1] : 1);
    for (vf_u64 Flat = 0; Flat < Bins; ++Flat) {
      const unsigned C = S.Base + unsigned(vf_hist_bin_cell(Flat));
      H.Values.push_back(State.HistAverage.mean(C));
      H.Errors.push_back(State.HistAverage.error(C));
    }
    std::vector<unsigned> Flow{
        S.Base + unsigned(vf_hist_outside_cell(Axes, S.Bins[0], 1))};
    if (Axes == 1) // below, then above
      Flow.push_back(S.Base +
                     unsigned(vf_hist_outside_cell(Axes, S.Bins[0], 0)));
    for (unsigned C : Flow) {
      H.Flow.push_back(State.HistAverage.mean(C));
      H.FlowErrors.push_back(State.HistAverage.error(C));
    }
    Out.push_back(std::move(H));
  }
  return Out;
}

std::vector<WeightListResult>
Integrator::Impl::weightLists(double Central) const {
  std::vector<WeightListResult> Out;
  for (const WeightListSpec &S : I.WeightLists) {
    WeightListResult L;
    L.Name = S.Name;
    for (unsigned K = 0; K < S.Entries; ++K) {
      L.Values.push_back(State.HistAverage.mean(S.Base + K));
      L.Errors.push_back(State.HistAverage.error(S.Base + K));
    }
    const BandRange Envelope =
        weightListBand(WeightListSpec{}, Central, L.Values);
    L.Low = Envelope.Low;
    L.High = Envelope.High;
    const BandRange Band = weightListBand(S, Central, L.Values);
    L.Band = weightBandName(S.Band);
    L.BandCentral = Band.Central;
    L.BandLow = Band.Low;
    L.BandHigh = Band.High;
    addWeightRatios(State.HistAverage, S, L);
    Out.push_back(std::move(L));
  }
  return Out;
}

Integrator::Grid Integrator::grid() const {
  Grid G;
  G.Dim = P->I.Dim;
  const RunState &S = P->State;
  if (S.Map) {
    G.Ninc = S.Map->ninc();
    G.Edges.assign(S.Map->edges().begin(), S.Map->edges().end());
  }
  if (S.Str) {
    G.Nstrat = S.Str->nstrat();
    const std::span<const std::uint64_t> Off = S.Str->offsets();
    for (std::size_t H = 0; H + 1 < Off.size(); ++H)
      G.Samples.push_back(Off[H + 1] - Off[H]);
  }
  return G;
}

void Integrator::onIteration(std::function<void(const IterationRow &)> F) {
  P->Observer = std::move(F);
}

void Integrator::onProgress(std::function<void(const IterationProgress &)> F) {
  P->Progress = std::move(F);
}

const IntegrandInfo &Integrator::integrand() const { return P->I; }
const IntegratorOptions &Integrator::options() const { return P->O; }

std::vector<WorkerInfo> Integrator::devices() const {
  return P->Workers.info();
}

const std::vector<IntegratorNote> &Integrator::notes() const {
  return P->Notes;
}

} // namespace vf
