//===- vegasc/Integrate.cpp - vegasc's integration mode -------------------===//
//
// A thin client of the library: compiles the file with vf::Module, runs
// the selected integrand with vf::Integrator, and prints one row per
// iteration (an observer: the integrator never prints), a final line, a
// warning when Q < 0.05, and optionally the JSON document. The settings
// become IntegratorOptions and are checked by integratorOptions(), as a
// batch's are, before anything is compiled; the library's errors are
// reported with the flags they concern (flagMessage).
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include "vegasc/Format.h"
#include "vegasc/ProgressBar.h"
#include "vegasc/Streams.h"

#include "vf/EventFiles.h"
#include "vf/HistogramCsv.h"
#include "vf/Integrator.h"
#include "vf/Module.h"
#include "vf/ResultDocument.h"
#include "vf/Summary.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <ostream>

namespace vf {

namespace {

/// ", until rtol R / atol A" for a run with an accuracy target, else "".
std::string targetText(const RunSettings &Run) {
  std::string T;
  if (Run.Rtol && *Run.Rtol > 0)
    T += "rtol " + printfDouble("%g", *Run.Rtol);
  if (Run.Atol && *Run.Atol > 0)
    T += (T.empty() ? "" : " or ") + ("atol " + printfDouble("%g", *Run.Atol));
  return T.empty() ? T : " (target " + T + ")";
}

/// --stats: per device and iteration, samples, chunks, busy and idle time
/// and the imbalance idle / (busy + idle).
void printDeviceStats(std::ostream &OS, const Result &R) {
  OS << "device      itn       samples  chunks    busy/s    idle/s  "
        "imbalance\n";
  auto Line = [&](const DeviceStats &D, const std::string &Itn) {
    OS << D.Name
       << std::string(D.Name.size() < 10 ? 10 - D.Name.size() : 0, ' ')
       << std::string(Itn.size() < 5 ? 5 - Itn.size() : 0, ' ') << Itn
       << printfDouble("%14.0f", double(D.Samples)) << printfDouble("%8.0f", double(D.Chunks))
       << printfDouble("%10.4f", D.BusySeconds) << printfDouble("%10.4f", D.IdleSeconds)
       << printfDouble("%10.1f%%", 100 * D.imbalance()) << "\n";
  };
  for (const IterationRow &Row : R.Iterations)
    for (const DeviceStats &D : Row.Devices)
      Line(D, std::to_string(Row.Index) + (Row.Warmup ? "w" : ""));
  for (const DeviceStats &D : R.Devices)
    Line(D, "all");
}

/// After the result, a line per histogram: its shape, the sum of its bins
/// and its flow cells, and its largest relative error (the JSON and
/// --hist-csv have every bin).
void printHistograms(std::ostream &OS, const Result &R) {
  for (const Histogram &H : R.Histograms) {
    double Sum = 0, Worst = 0;
    std::size_t WorstBin = 0;
    for (std::size_t B = 0; B < H.Values.size(); ++B) {
      Sum += H.Values[B];
      double Rel = H.Values[B] != 0 ? std::fabs(H.Errors[B] / H.Values[B]) : 0;
      if (Rel > Worst) {
        Worst = Rel;
        WorstBin = B;
      }
    }
    OS << "hist " << H.Name << ": ";
    for (std::size_t A = 0; A < H.Axes.size(); ++A)
      OS << (A ? " x " : "") << H.Axes[A].Bins << " bins on ["
         << printfDouble("%g", H.Axes[A].Lo) << ", "
         << printfDouble("%g", H.Axes[A].Hi) << ")";
    OS << ", sum " << printfDouble("%.6g", Sum);
    const char *Flow1[] = {"underflow", "overflow"};
    for (std::size_t F = 0; F < H.Flow.size(); ++F)
      OS << ", " << (H.Axes.size() == 2 ? "outside" : Flow1[F]) << " "
         << printfDouble("%.3g", H.Flow[F]);
    OS << "; largest relative error " << printfDouble("%.2g", 100 * Worst)
       << "% (bin " << WorstBin << ")\n";
  }
}

/// A short list's ratios to the integrand's value, with their errors.
void printWeightRatios(std::ostream &OS, const WeightListResult &L) {
  OS << "; ratios";
  for (std::size_t K = 0; K < L.Ratios.size(); ++K)
    OS << " " << printfDouble("%.6g", L.Ratios[K]) << " +- "
       << printfDouble("%.2g", L.RatioErrors[K]);
}

/// A line per weight list: the integrand's own value beside the list's
/// envelope, and the entries themselves for a short list (the JSON has
/// every entry with its error).
void printWeightLists(std::ostream &OS, const Result &R) {
  for (const WeightListResult &L : R.WeightLists) {
    OS << "weights " << L.Name << ": central "
       << printfDouble("%.6g", R.Mean[0]) << ", envelope ["
       << printfDouble("%.6g", L.Low) << ", " << printfDouble("%.6g", L.High)
       << "]";
    if (L.Band != "envelope")
      OS << ", " << L.Band << " band " << printfDouble("%.6g", L.BandCentral)
         << " +" << printfDouble("%.3g", L.BandHigh - L.BandCentral) << " -"
         << printfDouble("%.3g", L.BandCentral - L.BandLow) << " (68%)";
    if (L.Values.size() <= 8) {
      OS << "; entries";
      for (double V : L.Values)
        OS << " " << printfDouble("%.6g", V);
      printWeightRatios(OS, L);
    }
    OS << "\n";
  }
}

void printRow(std::ostream &OS, const IterationRow &R, unsigned Outputs) {
  for (unsigned C = 0; C < Outputs; ++C) {
    std::string Itn = std::to_string(R.Index) + (R.Warmup ? "w" : "");
    if (Outputs > 1)
      Itn += "[" + std::to_string(C) + "]";
    // chi2/dof and Q are the components' joint ones: on the first row of
    // the iteration only.
    const std::string Joint =
        C > 0      ? std::string(17, ' ')
        : R.Warmup ? std::string(8, ' ') + "-" + std::string(7, ' ') + "-"
                   : cell("%9.3g", R.Chi2Dof) + cell("%8.3g", R.Q);
    std::string Line =
        std::string(Itn.size() < 8 ? 8 - Itn.size() : 0, ' ') + Itn + "  " +
        cell("%-22.15g", R.Mean[C]) + cell("%-10.3g", R.Error[C]) + "  " +
        // Warm-up rows precede any measured iteration: no cumulative yet.
        (R.Warmup ? std::string(32, ' ')
                  : cell("%-22.15g", R.CumMean[C]) +
                        cell("%-10.3g", R.CumError[C])) +
        Joint + cell("%12.0f", double(R.Samples)) + cell("%9.3f", R.Seconds);
    OS << Line << "\n";
  }
  OS.flush();
}

nlohmann::ordered_json settingsJson(const DriverOptions &O,
                                    const IntegrandInfo &I,
                                    const std::vector<double> &Params,
                                    unsigned Threads) {
  nlohmann::ordered_json S;
  S["file"] = O.File;
  RunFacts F{Threads, O.Ranks ? O.Ranks->size() : 1, {}};
  for (size_t K = 0; K < I.ParamNames.size(); ++K)
    F.Params.emplace_back(I.ParamNames[K], Params[K]);
  addRunSettings(S, O.Run, F);
  return S;
}

/// Restores --resume and --load-grid and arms --checkpoint; a message on
/// failure. A resumed run continues (or extends) the saved one only with
/// its calls and warm-up: said here, before the table starts, by the check
/// run() makes.
std::string setUpCheckpoints(Integrator &Int, const DriverOptions &O) {
  if (!O.Resume.empty()) {
    if (Status S = Int.loadState(O.Resume); !S)
      return S.message() + "; start without --resume, or fix the options";
    const RunSettings &R = O.Run;
    if (Status S =
            checkResume(Int.plan(), R.iterationCap(), R.Calls, R.Warmup);
        !S)
      return "checkpoint '" + O.Resume + "': " + flagMessage(S.error());
  }
  if (!O.LoadGrid.empty())
    if (Status S = Int.loadGrid(O.LoadGrid); !S)
      return S.message();
  if (Status S = Int.checkpointTo(O.Checkpoint); !S)
    return S.message();
  return "";
}

} // namespace

namespace {
/// What a rank other than 0 of a distributed run does of the options: the
/// same integration, silently, writing no file (rank 0 writes them).
DriverOptions forRank(const DriverOptions &O) {
  DriverOptions R = O;
  if (O.Ranks && O.Ranks->rank() != 0) {
    R.Quiet = true;
    R.NoWarnings = true;
    R.Stats = false;
    R.Json.clear();
    R.Checkpoint.clear();
    R.SaveGrid.clear();
  }
  return R;
}
} // namespace

/// After the run and its outputs: draws the events and writes the file.
static int writeEvents(RunSetup &S, const Result &R, std::ostream &Out) {
  auto Rep = writeRunEvents(*S.Int, S.Record, S.Events, R);
  if (!Rep)
    return fail("events: " + Rep.message() +
                " (the integration's result above is complete)");
  Out << "vegasc: wrote " << eventsWritten(*Rep, S.Events) << "\n";
  return ExitOk;
}

/// setUpRun's part before the integrator: options, outputs, compile, the
/// integrand and its events, parameters.
int prepareRun(const DriverOptions &O, bool Warnings, RunSetup &S) {
  if (!O.Resume.empty() && !O.LoadGrid.empty())
    return fail("--resume and --load-grid cannot be combined: a checkpoint "
                "already holds its map",
                ExitUsage);
  // Every setting is checked before compiling: a usage error is said at
  // once, like --calls 0.
  auto IO = integratorOptions(O.Run);
  if (!IO)
    return fail(flagMessage(IO.error()), ExitUsage);
  S.IO = std::move(*IO);
  auto Events = eventFileOptions(O.Run);
  if (!Events)
    return fail(flagMessage(Events.error()), ExitUsage);
  S.Events = std::move(*Events);
  // Every output is checked before the work it would hold: a directory, a
  // FIFO or a device is refused now, never replaced after the run.
  if (!checkOutput(O.Json, "the JSON result", "--json") ||
      !checkOutput(O.Checkpoint, "the checkpoint", "--checkpoint") ||
      !checkOutput(O.SaveGrid, "the grid", "--save-grid") ||
      !checkOutput(O.HistCsv, "the histograms' CSV", "--hist-csv") ||
      !checkOutput(O.Report, "the report", "--report"))
    return ExitInputError;
  S.IO.Ranks = O.Ranks;
  // Ranks on one machine split its threads and GPUs (IntegratorOptions).
  if (O.Ranks) {
    S.IO.MachineShare = unsigned(std::max(1, O.Ranks->localSize()));
    S.IO.MachineRank = unsigned(O.Ranks->localRank());
  }

  CompileSettings CS;
  CS.UseCache = !O.NoCache;
  CS.CacheDir = O.CacheDir;
  CS.PdfSets = pdfSetChoices(O.PdfSets);
  CS.Warnings = Warnings;
  CS.ErrorLimit = O.ErrorLimit;
  // Only the code the run needs (a bad value is refused with the options).
  CS.Single = O.Run.Precision == "f32";
  auto M = Module::compileFile(O.File, CS);
  if (!M) {
    printCompileError(M.message());
    return ExitInputError;
  }
  errs() << (*M)->warnings();
  if (Status St = checkRunPaths(O, **M); !St)
    return fail(St.message(), ExitUsage);
  const std::string Name = selectIntegrand((*M)->integrandNames(), O);
  if (Name.empty())
    return ExitInputError;
  auto Info = (*M)->integrand(Name);
  if (!Info)
    return fail(Info.message());
  S.Info = *Info;
  if (!O.NoWarnings)
    for (const Module::DerivedItem &D : (*M)->derivedItems())
      if (D.Integrand != Name)
        errs() << "vegasc: note: derived result '" << D.Name
               << "' uses integrand '" << D.Integrand
               << "', which this run does not integrate (--integrand "
               << D.Integrand << " reports it)\n";
  if (S.Events.Events) {
    auto Record = eventRecord(**M, O.Run, S.Info.Name, "'" + O.File + "'");
    if (!Record)
      return fail(flagMessage(Record.error()), ExitUsage);
    S.Record = *Record;
    // What would stop the file after the run is said before it.
    if (Status St = checkEventFile(S.Info, S.Record, S.Events); !St)
      return fail(flagMessage(St.error()), ExitInputError);
  }
  if (!parseParams(S.Info.ParamNames, S.Info.ParamDefaults, O, S.Params))
    return ExitUsage;
  return ExitOk;
}

/// Everything before the first iteration: prepareRun, the integrator,
/// its parameters, checkpoints. Returns an exit code (ExitOk when ready),
/// the failure already reported.
int setUpRun(const DriverOptions &O, bool Warnings, RunSetup &S) {
  if (int Code = prepareRun(O, Warnings, S); Code != ExitOk)
    return Code;
  // Options being valid, what create() refuses is the integrand or the
  // machine (a GPU that is missing or cannot be set up).
  auto Int = Integrator::create(S.Info, S.IO);
  if (!Int)
    return fail(flagMessage(Int.error()));
  S.Int = std::move(*Int);
  for (size_t K = 0; K < S.Params.size(); ++K)
    if (Status St = S.Int->setParam(S.Info.ParamNames[K], S.Params[K]); !St)
      return fail(St.message(), ExitUsage);
  if (std::string Msg = setUpCheckpoints(*S.Int, O); !Msg.empty())
    return fail(Msg);
  return ExitOk;
}

namespace {

/// Whether every rank of a distributed run set up (each reports its own
/// failure): a rank that stopped alone would leave the others in the first
/// iteration's collectives until the launcher noticed, with no word of
/// why. Returns this rank's exit code.
int agreeOnSetUp(const DriverOptions &O, int Code) {
  if (!O.Ranks || O.Ranks->size() < 2)
    return Code;
  std::uint64_t Failed = Code != ExitOk;
  if (Status St = O.Ranks->orAll(&Failed, 1); !St) {
    fail("rank " + std::to_string(O.Ranks->rank()) + ": " + St.message());
    O.Ranks->abort(ExitInputError);
  }
  if (Failed && Code == ExitOk) {
    if (O.Ranks->rank() == 0)
      fail("another rank could not set up the run (its message says why)");
    return ExitInputError;
  }
  return Code;
}

/// The notes, the run's heading and the rows a resumed run already has.
void printHeader(const DriverOptions &O, const RunSetup &S, std::ostream &Out,
                 unsigned Resumed, unsigned ActualThreads) {
  const IntegrandInfo *I = &S.Info;
  const RunSettings &Run = O.Run;
  const IntegratorOptions &IO = S.IO;
  const Integrator *Int = S.Int.get();
  std::string Gpus;
  for (const WorkerInfo &W : Int->devices())
    if (W.Kind == "gpu")
      Gpus += ", " + W.Name + " (" + W.Description + ")";
  // A GPU that is there but cannot be used is worth a line every time;
  // that a CPU-only machine has none (the default `all`), only with -v.
  for (const IntegratorNote &Note : Int->notes())
    if (Note.What == IntegratorNote::Kind::Precision && !O.NoWarnings)
      errs() << "vegasc: warning: " << Note.Text << "\n";
    else if (!O.NoWarnings && !O.Quiet &&
             (O.Verbose || Note.What != IntegratorNote::Kind::NoGpu))
      errs() << "vegasc: note: " << Note.Text << "\n";
  if (!O.Quiet) {
    Out << "vegasc: integrand '" << I->Name << "' (" << I->Dim
        << (I->Dim == 1 ? " dimension" : " dimensions") << ") on "
        << ActualThreads << " CPU thread" << (ActualThreads == 1 ? "" : "s");
    if (!IO.SimulatedDevices.empty())
      Out << ", " << IO.SimulatedDevices.size() << " simulated device"
          << (IO.SimulatedDevices.size() == 1 ? "" : "s");
    Out << Gpus;
    if (O.Ranks && O.Ranks->size() > 1)
      Out << ", on each of " << O.Ranks->size() << " MPI ranks";
    Out << ", schedule " << Run.Schedule << ": " << Run.Warmup
        << " warm-up + " << (IO.hasTarget() ? "up to " : "")
        << Run.iterationCap() << " iterations of " << Run.Calls
        << " calls, seed " << Run.Seed << targetText(Run) << "\n";
    if (!O.Resume.empty())
      Out << "vegasc: resuming from '" << O.Resume << "': " << Resumed << " of "
          << Run.Warmup + Run.iterationCap() << " iterations done\n";
    Out << "     itn  integral              error       cumulative"
           "            error        chi2/dof       Q     samples   "
           "time/s\n";
    for (const IterationRow &R : Int->result().Iterations)
      printRow(Out, R, I->Outputs);
  }
}

/// A failed run's error, said by the rank that should say it.
int runError(const DriverOptions &O, const Error &E, bool Rank0) {
  // Ranks agree on errors of the run (every rank returns the same one)
  // except a rank's own: it says its own, rank 0 says the common one; an
  // MPI failure leaves the others waiting, so it ends them all.
  const std::string M = flagMessage(E);
  const ErrorScope Scope = O.Ranks ? O.Ranks->errorScope() : ErrorScope::Shared;
  const bool Own = Scope == ErrorScope::Rank; // names the rank
  const bool Transport = Scope == ErrorScope::Transport;
  if (Rank0 || Own)
    fail(M);
  else if (Transport)
    fail("rank " + std::to_string(O.Ranks->rank()) + ": " + M);
  if (Transport)
    O.Ranks->abort(ExitInputError);
  return ExitInputError;
}

/// The derived items, each with its error propagated from the
/// components' covariance.
void printDerived(std::ostream &Out, const Result &R) {
  for (const DerivedValue &D : R.Derived)
    Out << "derived " << D.Name << " = " << printfDouble("%.15g", D.Mean)
        << " +- " << printfDouble("%.3g", D.Error) << "\n";
}

/// The result lines, the histograms and the run's warnings.
void printResult(const DriverOptions &O, const Integrator &Int,
                 const Result &R0, std::ostream &Out) {
  const RunSettings &Run = O.Run;
  const Result *R = &R0;
  const unsigned Outputs = unsigned(R0.Mean.size());
  const std::string Joint = "chi2/dof = " + printfDouble("%.3g", R->Chi2Dof) +
                            "   Q = " + printfDouble("%.3g", R->Q);
  for (unsigned K = 0; K < Outputs; ++K)
    Out << "result" << (Outputs > 1 ? "[" + std::to_string(K) + "]" : "")
        << " = " << printfDouble("%.15g", R->Mean[K]) << " +- "
        << printfDouble("%.3g", R->Error[K])
        << (Outputs > 1 ? "" : "   " + Joint) << "\n";
  // A vector's chi2/dof and Q are those of all its components together.
  if (Outputs > 1)
    Out << Joint << "   (the " << Outputs << " components together)\n";
  Out << precisionLine(*R);
  printDerived(Out, *R);
  Out << channelTable(*R);
  printHistograms(Out, *R);
  printWeightLists(Out, *R);
  if (R->HasTarget && !O.Quiet)
    Out << (R->TargetMet ? "vegasc: accuracy target met after "
                         : "vegasc: accuracy target not met after ")
        << Int.plan().measured() << " iterations\n";
  if (R->Stopped == StopReason::Cap && !O.NoWarnings)
    errs() << "vegasc: warning: the accuracy target was not met within "
           << Run.iterationCap() << " iterations" << targetText(Run)
           << "; raise --max-iterations or --calls\n";
  if (O.Summary)
    Out << summary(*R);
  if (O.Stats)
    printDeviceStats(Out, *R);
  for (const DeviceStats &D : R->Devices)
    if (!D.Error.empty())
      errs() << "vegasc: warning: " << D.Error
             << "; that device was left out from then on, and the tiles it "
                "had not finished were computed by the other devices (the "
                "result is the same)\n";
  if (R->Variance.Unstable && !O.NoWarnings)
    errs() << "vegasc: warning: " << R->Variance.Message << "\n";
  if (R->Q < 0.05 && !O.NoWarnings)
    errs() << "vegasc: warning: Q = " << printfDouble("%.3g", R->Q)
           << " < 0.05: the iterations disagree more than their errors "
              "allow; the error may be underestimated. Try more --calls or "
              "--warmup\n";
}

/// The run after setUpRun: the table, the result, the files.
int integrate(const DriverOptions &O, RunSetup &S) {
  const bool Rank0 = !O.Ranks || O.Ranks->rank() == 0;
  const IntegrandInfo *I = &S.Info;
  const RunSettings &Run = O.Run;
  Integrator *Int = S.Int.get();
  const unsigned Resumed = Int->plan().Done;

  // With --json - (or --hist-csv -), standard output carries that document
  // alone; the table and the result lines go to standard error.
  std::ostream &Out = !Rank0                              ? nulls()
                      : O.Json == "-" || O.HistCsv == "-" ? errs()
                                                          : outs();
  const unsigned ActualThreads = cpuThreadsOf(*Int);
  printHeader(O, S, Out, Resumed, ActualThreads);
  // The progress line is erased before each row; rows go to stdout (or
  // stderr with --json -), the line to stderr.
  ProgressBar Bar(!O.Quiet, Run.Warmup + Run.iterationCap(), Run.Calls,
                  Resumed);
  if (Bar.active())
    Int->onProgress([&](const IterationProgress &Pr) { Bar.update(Pr); });
  Int->onIteration([&](const IterationRow &R) {
    Bar.iterationDone(R.Samples);
    if (!O.Quiet)
      printRow(Out, R, I->Outputs);
  });
  // A resumed run continues (or is extended); one with nothing left to
  // run reports its result.
  auto R = Int->run(Run.iterationCap(), Run.Calls, Run.Warmup);
  Bar.clear();
  if (!R)
    return runError(O, R.error(), Rank0);
  printResult(O, *Int, *R, Out);
  // The result is said above whatever happens to the files; each output
  // that fails is reported, and the others are still written.
  bool Written = true;
  if (!O.SaveGrid.empty())
    if (Status St = Int->saveGrid(O.SaveGrid); !St)
      Written = (fail(St.message()), false);
  if (!O.Json.empty())
    Written &=
        writeOutput(O.Json,
                    resultDocument(*R, I->Name,
                                   settingsJson(O, *I, S.Params, ActualThreads))
                            .dump(2) +
                        "\n",
                    "the JSON result");
  if (!O.HistCsv.empty())
    Written &= writeOutput(O.HistCsv, histogramsToCsv(*R),
                           "the histograms' CSV");
  if (!O.Report.empty() && Rank0)
    Written &= writeOutput(
        O.Report,
        reportHtml("vegasflow: " + I->Name,
                   {reportRun(I->Name + " (" + O.File + ")",
                              settingsJson(O, *I, S.Params, ActualThreads), *R,
                              Int->grid(), O.Exact)},
                   O.ReportOpts),
        "the report");
  if (S.Events.Events && Rank0)
    if (int Code = writeEvents(S, *R, Out); Code != ExitOk)
      return Code;
  return Written ? ExitOk : ExitInputError;
}
} // namespace

int runIntegrate(const DriverOptions &Given) {
  if (Given.Json == "-" && Given.HistCsv == "-") {
    fail("--json and --hist-csv cannot both write to standard output");
    return ExitUsage;
  }
  const DriverOptions O = forRank(Given);
  RunSetup S;
  // Compile warnings as before the split by rank: every rank's.
  int Code = agreeOnSetUp(O, setUpRun(O, !Given.NoWarnings, S));
  if (Code == ExitOk)
    Code = integrate(O, S);
  if (O.Verbose) {
    CompileCacheStats C = compileCacheStats();
    printCacheStats(C.Hits, C.Misses, C.Corrupt);
  }
  return Code;
}

} // namespace vf
