//===- driver/Integrate.cpp - vegasc's integration mode -------------------===//
//
// Compiles the selected integrand for the host, runs the Integrator and
// prints one row per iteration (an observer: the integrator never prints),
// a final line, a warning when Q < 0.05, and optionally the JSON document.
//
//===----------------------------------------------------------------------===//

#include "driver/Driver.h"

#include "driver/ProgressBar.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "frontend/Program.h"
#include "vf/Integrator.h"
#include "vf/ResultJson.h"
#include "vf/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <thread>

using namespace llvm;

namespace vf {

namespace {

std::string fmt(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

} // namespace

std::string parseDeviceList(const std::string &Spec, IntegratorOptions &IO) {
  SmallVector<StringRef, 4> Items;
  StringRef(Spec).split(Items, ',');
  bool Cpu = false, Gpu = false, GpuIndices = false, EveryGpu = false;
  for (StringRef Item : Items) {
    Item = Item.trim();
    if (Item == "all" || Item == "cpu" || Item.starts_with("cpu:")) {
      if (Cpu || (Item == "all" && Gpu))
        return "'" + Spec + "': the CPU is named twice";
      Cpu = true;
      IO.AllGpus = Item == "all";
      Gpu = Gpu || IO.AllGpus;
      if (Item.consume_front("cpu:") &&
          (Item.getAsInteger(10, IO.Threads) || IO.Threads == 0))
        return "'" + Spec + "': cpu:N needs a positive number of threads";
      continue;
    }
    if (Item.consume_front("sim:")) {
      double R;
      if (Item.getAsDouble(R) || !(R > 0))
        return "'" + Spec +
               "': sim:R needs a positive rate R in million samples/s";
      IO.SimulatedDevices.push_back(R * 1e6);
      continue;
    }
    const bool Named = Item.starts_with("gpu:");
    if (Item == "gpu" || Named) {
      if (Gpu)
        return "'" + Spec + "': the GPUs are named twice";
      Gpu = true;
      EveryGpu = !Item.consume_front("gpu:");
      GpuIndices = !EveryGpu;
      if (EveryGpu)
        continue;
    }
    // After gpu:N, bare numbers are further GPU indices (gpu:0,2).
    int G;
    if (GpuIndices && !Item.getAsInteger(10, G) && G >= 0) {
      IO.Gpus.push_back(G);
      continue;
    }
    if (GpuIndices && (Named || (!Item.empty() && isDigit(Item[0]))))
      return "'" + Spec + "': gpu:N needs GPU indices (gpu:0 or gpu:0,2)";
    return "'" + Spec +
           "': expected all, cpu, cpu:N, gpu, gpu:N[,M...] or sim:R "
           "(comma-separated)";
  }
  IO.NoCpu = !Cpu;
  // Naming the GPUs insists on them; `all` takes whatever there is.
  if (EveryGpu) {
    IO.AllGpus = true;
    IO.GpusRequired = true;
  }
  return "";
}

namespace {

/// --stats: per device and iteration, samples, chunks, busy and idle time
/// and the imbalance idle / (busy + idle).
void printDeviceStats(raw_ostream &OS, const Result &R) {
  OS << "device      itn       samples  chunks    busy/s    idle/s  "
        "imbalance\n";
  auto Line = [&](const DeviceStats &D, const std::string &Itn) {
    OS << D.Name
       << std::string(D.Name.size() < 10 ? 10 - D.Name.size() : 0, ' ')
       << std::string(Itn.size() < 5 ? 5 - Itn.size() : 0, ' ') << Itn
       << fmt("%14.0f", double(D.Samples)) << fmt("%8.0f", double(D.Chunks))
       << fmt("%10.4f", D.BusySeconds) << fmt("%10.4f", D.IdleSeconds)
       << fmt("%10.1f%%", 100 * D.imbalance()) << "\n";
  };
  for (const IterationRow &Row : R.Iterations)
    for (const DeviceStats &D : Row.Devices)
      Line(D, std::to_string(Row.Index) + (Row.Warmup ? "w" : ""));
  for (const DeviceStats &D : R.Devices)
    Line(D, "all");
}

void printRow(raw_ostream &OS, const IterationRow &R, unsigned Outputs) {
  for (unsigned C = 0; C < Outputs; ++C) {
    std::string Itn = std::to_string(R.Index) + (R.Warmup ? "w" : "");
    if (Outputs > 1)
      Itn += "[" + std::to_string(C) + "]";
    std::string Line =
        std::string(Itn.size() < 8 ? 8 - Itn.size() : 0, ' ') + Itn + "  " +
        fmt("%-22.15g", R.Mean[C]) + fmt("%-10.3g", R.Error[C]) + "  " +
        // Warm-up rows precede any measured iteration: no cumulative yet.
        (R.Warmup
             ? std::string(32 + 8, ' ') + "-" + std::string(7, ' ') + "-"
             : fmt("%-22.15g", R.CumMean[C]) + fmt("%-10.3g", R.CumError[C]) +
                   fmt("%9.3g", R.Chi2Dof) + fmt("%8.3g", R.Q)) +
        fmt("%12.0f", double(R.Samples)) + fmt("%9.3f", R.Seconds);
    OS << Line << "\n";
  }
  OS.flush();
}

std::string settingsJson(const DriverOptions &O, const Program &P,
                         const std::vector<double> &Params, unsigned Threads) {
  nlohmann::ordered_json S;
  S["file"] = O.File;
  RunSettings R{O.Seed,      O.Calls,   O.Iterations,
                O.Warmup,    O.MaxNinc, O.Alpha,
                O.NoAdaptStrata ? 0.0 : O.Beta,
                O.Devices,   O.Schedule, O.OnNonFinite,
                Threads,     O.Ranks ? O.Ranks->size() : 1,
                {}};
  for (const ParamDecl *PD : P.Params)
    R.Params.emplace_back(PD->Name, Params[PD->Slot]);
  addRunSettings(S, R);
  return S.dump();
}

/// Restores --resume and --load-grid and arms --checkpoint; a message on
/// failure. A resumed run must ask for the iterations it was saved with.
std::string setUpCheckpoints(Integrator &Int, const DriverOptions &O) {
  if (!O.Resume.empty()) {
    if (Status S = Int.loadState(O.Resume); !S)
      return S.message() + "; start without --resume, or fix the options";
    const RunPlan &Pl = Int.plan();
    if (Pl.Iterations != O.Iterations || Pl.Calls != O.Calls ||
        Pl.Warmup != O.Warmup)
      return "checkpoint '" + O.Resume + "' is of a run with --warmup " +
             std::to_string(Pl.Warmup) + " --iterations " +
             std::to_string(Pl.Iterations) + " --calls " +
             std::to_string(Pl.Calls) + "; this command has --warmup " +
             std::to_string(O.Warmup) + " --iterations " +
             std::to_string(O.Iterations) + " --calls " +
             std::to_string(O.Calls) + ". Resume with the same numbers";
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

namespace {
/// A run set up and ready: what runIntegrate needs after setUpRun.
struct RunSetup {
  const IntegrandDecl *I = nullptr;
  std::vector<double> Params;
  IntegratorOptions IO;
  std::unique_ptr<CompiledModule> CM; ///< the code the integrator calls
  std::unique_ptr<Integrator> Int;
};

/// Everything before the first iteration: options, compile, integrator,
/// parameters, checkpoints. Returns an exit code (ExitOk when ready), the
/// failure already reported.
int setUpRun(const std::shared_ptr<Program> &P, const DriverOptions &O,
             Compiler &C, const CompileOptions &CO, RunSetup &S) {
  S.I = selectIntegrand(*P, O);
  if (!S.I)
    return ExitInputError;
  if (!parseParams(*P, O, S.Params))
    return ExitUsage;
  // The integrator needs two samples per hypercube; say so as a usage error
  // before compiling, like --calls 0.
  if (O.Calls < 2)
    return fail("--calls must be at least 2, got " + std::to_string(O.Calls),
                ExitUsage);
  if (!O.Resume.empty() && !O.LoadGrid.empty())
    return fail("--resume and --load-grid cannot be combined: a checkpoint "
                "already holds its map",
                ExitUsage);
  IntegratorOptions &IO = S.IO;
  if (std::string Msg = parseDeviceList(O.Devices, IO); !Msg.empty())
    return fail("--devices " + Msg, ExitUsage);
  IO.Schedule = O.Schedule;
  IO.Ranks = O.Ranks;
  // Ranks on one machine split its threads and GPUs (IntegratorOptions).
  if (O.Ranks) {
    IO.MachineShare = unsigned(std::max(1, O.Ranks->localSize()));
    IO.MachineRank = unsigned(O.Ranks->localRank());
  }
  IO.Seed = O.Seed;
  IO.Alpha = O.Alpha;
  IO.Beta = O.NoAdaptStrata ? 0.0 : O.Beta;
  IO.MaxNinc = O.MaxNinc;
  if (O.OnNonFinite == "zero")
    IO.OnNonFinite = NonFinitePolicy::Zero;
  else if (O.OnNonFinite != "stop")
    return fail("--on-nonfinite must be 'stop' or 'zero', got '" +
                    O.OnNonFinite + "'",
                ExitUsage);

  if (Status St = checkOptions(IO); !St)
    return fail(St.message(), ExitUsage);

  CompileOptions Host = CO;
  Host.Host = true;
  Host.PTX = false;
  auto CM = C.compile(*P, Host);
  if (!CM)
    return fail(toString(CM.takeError()));
  S.CM = std::move(*CM);
  // Options being valid, what create() refuses is the integrand or the
  // machine (a GPU that is missing or cannot be set up).
  auto Int = Integrator::create(bindIntegrand(P, *S.CM, *S.I, &C, CO), IO);
  if (!Int)
    return fail(Int.message());
  S.Int = std::move(*Int);
  for (const ParamDecl *PD : P->Params)
    if (Status St = S.Int->setParam(PD->Name, S.Params[PD->Slot]); !St)
      return fail(St.message(), ExitUsage);
  if (std::string Msg = setUpCheckpoints(*S.Int, O); !Msg.empty())
    return fail(Msg);
  return ExitOk;
}

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
} // namespace

int runIntegrate(std::shared_ptr<Program> P, const DriverOptions &Given,
                 Compiler &C, const CompileOptions &CO) {
  const DriverOptions O = forRank(Given);
  const bool Rank0 = !O.Ranks || O.Ranks->rank() == 0;
  RunSetup S;
  if (int Code = agreeOnSetUp(O, setUpRun(P, O, C, CO, S)); Code != ExitOk)
    return Code;
  const IntegrandDecl *I = S.I;
  const std::vector<double> &Params = S.Params;
  const IntegratorOptions &IO = S.IO;
  Integrator *Int = S.Int.get();
  const unsigned Resumed = Int->plan().Done;

  // With --json -, standard output carries the JSON document alone; the
  // table and the result lines go to standard error.
  raw_ostream &Out = !Rank0 ? nulls() : O.Json == "-" ? errs() : outs();
  const unsigned ActualThreads = cpuThreadsOf(*Int);
  std::string Gpus;
  for (const WorkerInfo &W : Int->devices())
    if (W.Kind == "gpu")
      Gpus += ", " + W.Name + " (" + W.Description + ")";
  // A GPU that is there but cannot be used is worth a line every time;
  // that a CPU-only machine has none (the default `all`), only with -v.
  if (!O.NoWarnings && !O.Quiet)
    for (const IntegratorNote &Note : Int->notes())
      if (O.Verbose || Note.What != IntegratorNote::Kind::NoGpu)
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
    Out << ", schedule " << O.Schedule << ": " << O.Warmup << " warm-up + " << O.Iterations
        << " iterations of " << O.Calls << " calls, seed " << O.Seed << "\n";
    if (!O.Resume.empty())
      Out << "vegasc: resuming from '" << O.Resume << "': " << Resumed << " of "
          << O.Warmup + O.Iterations << " iterations done\n";
    Out << "     itn  integral              error       cumulative"
           "            error        chi2/dof       Q     samples   "
           "time/s\n";
    for (const IterationRow &R : Int->result().Iterations)
      printRow(Out, R, I->Outputs);
  }
  // The progress line is erased before each row; rows go to stdout (or
  // stderr with --json -), the line to stderr.
  ProgressBar Bar(!O.Quiet, O.Warmup + O.Iterations, O.Calls, Resumed);
  if (Bar.active())
    Int->onProgress([&](const IterationProgress &Pr) { Bar.update(Pr); });
  Int->onIteration([&](const IterationRow &R) {
    Bar.iterationDone(R.Samples);
    if (!O.Quiet)
      printRow(Out, R, I->Outputs);
  });
  // A finished checkpoint has nothing left to run: report its result.
  bool Finished = !O.Resume.empty() && !Int->plan().unfinished();
  auto R = Finished ? Expected<Result>(Int->result())
                    : Int->run(O.Iterations, O.Calls, O.Warmup);
  Bar.clear();
  if (!R) {
    // Ranks agree on errors of the run (every rank returns the same one)
    // except a rank's own: it says its own, rank 0 says the common one; an
    // MPI failure leaves the others waiting, so it ends them all.
    const std::string &M = R.message();
    const bool Own = R.error().Scope == ErrorScope::Rank; // names the rank
    const bool Transport = R.error().Scope == ErrorScope::Transport;
    if (Rank0 || Own)
      fail(M);
    else if (Transport)
      fail("rank " + std::to_string(O.Ranks->rank()) + ": " + M);
    if (Transport)
      O.Ranks->abort(ExitInputError);
    return ExitInputError;
  }
  if (!O.SaveGrid.empty())
    if (Status S = Int->saveGrid(O.SaveGrid); !S)
      return fail(S.message());
  for (unsigned K = 0; K < I->Outputs; ++K)
    Out << "result" << (I->Outputs > 1 ? "[" + std::to_string(K) + "]" : "")
        << " = " << fmt("%.15g", R->Mean[K]) << " +- "
        << fmt("%.3g", R->Error[K])
        << "   chi2/dof = " << fmt("%.3g", R->Chi2Dof)
        << "   Q = " << fmt("%.3g", R->Q) << "\n";
  if (O.Stats)
    printDeviceStats(Out, *R);
  for (const DeviceStats &D : R->Devices)
    if (!D.Error.empty())
      errs() << "vegasc: warning: " << D.Error
             << "; that device was left out from then on, and the tiles it "
                "had not finished were computed by the other devices (the "
                "result is the same)\n";
  if (R->Q < 0.05 && !O.NoWarnings)
    errs() << "vegasc: warning: Q = " << fmt("%.3g", R->Q)
           << " < 0.05: the iterations disagree more than their errors "
              "allow; the error may be underestimated. Try more --calls or "
              "--warmup\n";
  if (!O.Json.empty() &&
      !writeOutput(O.Json, resultToJson(*R, I->Name,
                                      settingsJson(O, *P, Params,
                                                   ActualThreads))))
    return ExitInputError;
  return ExitOk;
}

} // namespace vf
