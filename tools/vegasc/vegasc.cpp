//===- vegasc/vegasc.cpp - The vegasflow command-line driver --------------===//
//
// Parses the command line with CLI11 and hands over to a mode (a run, a
// batch, the task commands, or a developer mode of vf/Developer.h).
// Exit codes: 0 success, 1 errors in the input or a failed run, 2 usage,
// 70 a crash in an integrand's C/C++ code.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include "vegasc/Batch.h"
#include "vegasc/Streams.h"
#include "vegasc/Tasks.h"

#include "vf/Developer.h"
#include "vf/ToolSupport.h"
#include "vf/Version.h"
#ifdef VF_HAVE_MPI
#include "vf/MpiCluster.h"
#endif

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <limits>
#include <new>
#include <ostream>

namespace {

/// What this invocation does; decided once, for the dispatch and for
/// which MPI ranks take part.
enum class Mode { ListDevices, Batch, Compile, Integrate };

Mode selectMode(const vf::DriverOptions &O, const vf::BatchOptions &B) {
  if (O.ListDevices)
    return Mode::ListDevices;
  if (!B.Config.empty() || vf::isBatchFile(O.File))
    return Mode::Batch;
  return vf::integrates(O) ? Mode::Integrate : Mode::Compile;
}

/// A flag whose value is a whole number, read by parseWholeNumber (so
/// --seed -1 is refused, never wrapped) up to \p Max and the field's type.
template <typename T>
void addWholeNumber(CLI::App &App, const std::string &Flag, T &Field,
                    const std::string &Help,
                    std::uint64_t Max = std::numeric_limits<T>::max()) {
  Max = std::min<std::uint64_t>(Max, std::numeric_limits<T>::max());
  App.add_option_function<std::string>(
      Flag,
      [&Field, Flag, Max](const std::string &S) {
        std::uint64_t V;
        if (std::string Why = vf::parseWholeNumber(S, Max, V); !Why.empty())
          throw CLI::ValidationError(Flag + " must be " + Why);
        Field = T(V);
      },
      Help)
      ->type_name("N");
}

/// Option \p Id's flag (vf/Options.def).
std::string flag(vf::OptionId Id) {
  return std::string(vf::optionInfo(Id).Flag);
}

/// Option \p Id's help: the table's description, range and default, so
/// that --help and the docs say the same.
std::string help(vf::OptionId Id) {
  const vf::OptionInfo &I = vf::optionInfo(Id);
  const std::string Range = vf::rangeText(Id);
  return std::string(I.Description) + "; " +
         (Range.empty() ? "" : Range + ", ") + "default " +
         std::string(I.Default);
}

/// Whether no flag of a single run is given with a batch: integration
/// settings live in the TOML file, for every run alike; checkpoints and
/// grids belong to single runs. The refusal is said here.
bool batchAccepts(const CLI::App &App) {
  auto Given = [&App](const std::string &Flag) {
    const CLI::Option *Opt = App.get_option_no_throw(Flag);
    return Opt && Opt->count();
  };
  auto Refuse = [](const std::string &Flag, bool InToml) {
    std::fprintf(stderr, "vegasc: error: %s does not apply to a batch%s\n",
                 Flag.c_str(),
                 InToml ? "; set it in the TOML file ([defaults] or a "
                          "[[run]])"
                        : "");
    return false;
  };
  for (const vf::OptionInfo &I : vf::optionTable())
    if (!I.Flag.empty() && Given(std::string(I.Flag)))
      return Refuse(std::string(I.Flag), !I.Toml.empty());
  for (const char *Flag :
       {"--check", "--emit", "--eval", "--at", "--at-t", "--eval-outside",
        "--integrand", "--param", "--no-adapt-strata", "--gpu-arch"})
    if (Given(Flag))
      return Refuse(Flag, true);
  for (const char *Flag : {"--summary", "--exact", "--checkpoint", "--resume",
                           "--save-grid", "--load-grid"})
    if (Given(Flag))
      return Refuse(Flag, false);
  return true;
}

/// A file name given as '' would read as "not given": refused instead.
const CLI::Validator NonEmptyPath(
    [](std::string &S) {
      return S.empty() ? std::string("needs a file name, got an empty string")
                       : std::string();
    },
    "FILE");

/// --pdf-set NAME=SET, both parts given.
const CLI::Validator PdfSetChoice(
    [](std::string &S) {
      auto Eq = S.find('=');
      return Eq == std::string::npos || Eq == 0 || Eq + 1 == S.size()
                 ? "expected NAME=SET (a pdf item's name and a set name "
                   "or folder), got '" +
                       S + "'"
                 : std::string();
    },
    "NAME=SET");

/// Standard output (and error) to a full disk or a closed pipe: the error
/// is said once, as an error, and the exit code says it. The developer
/// modes print through the library's streams (vf::finishOutput), the rest
/// through the tool's (Streams.h); either may hold the failure.
int finishStreams(int Code) {
  const vf::Status Library = vf::finishOutput();
  std::string Why = vf::takeWriteError(vf::outs());
  if (!Why.empty())
    Why = "cannot write standard output: " + Why;
  else if (!Library)
    Why = Library.message();
  if (!Why.empty()) {
    std::fprintf(stderr, "vegasc: error: %s\n", Why.c_str());
    Code = Code == vf::ExitOk ? vf::ExitInputError : Code;
  }
  // Nowhere left to say it.
  if (!vf::takeWriteError(vf::errs()).empty())
    Code = Code == vf::ExitOk ? vf::ExitInputError : Code;
  return Code;
}

int runMain(int argc, char **argv);

} // namespace

int vf::vegascMain(int argc, char **argv) {
  // A crash (a bug of ours, or of a library below us) prints where it
  // happened instead of only "Segmentation fault", so that a report of a
  // rare one can be acted on.
  vf::installCrashHandler(argv[0]);
  // A file grown past `ulimit -f` is a failed write that vegasc reports
  // (every write is checked; the old file stays), not a signal that ends
  // it with a stack dump.
  std::signal(SIGXFSZ, SIG_IGN);
  // The streams, the library's too, are made before the handler is
  // registered, so that it runs before their destructors whatever way the
  // process exits; nothing is written yet, so nothing can have failed.
  vf::outs();
  vf::errs();
  (void)vf::finishOutput();
  std::atexit([] { finishStreams(vf::ExitOk); });
  // The last resort: the library returns errors as values, but an
  // exception from below it (std::bad_alloc under `ulimit -v`, say) must
  // still end in a message and exit 1, never in std::terminate's abort.
  try {
    return finishStreams(runMain(argc, argv));
  } catch (const std::bad_alloc &) {
    vf::errs() << "vegasc: error: out of memory; lower --calls or the CPU "
                  "threads (--devices), or allow more memory (ulimit -v)\n";
  } catch (const std::exception &E) {
    vf::errs() << "vegasc: error: " << E.what() << "\n";
  }
  return finishStreams(vf::ExitInputError);
}

namespace {
/// The examples and exit codes after --help's options.
constexpr const char *UsageFooter = R"(Examples:
  vegasc examples/lepage.vf                  integrate with the defaults
  vegasc examples/lepage.vf --calls 1e7 --iterations 20 --json out.json
  vegasc examples/lepage.vf --param a=0.05   change a parameter
  vegasc examples/lepage.vf --rtol 1e-4 --max-iterations 50
                                             iterate until the relative error
                                             is 1e-4 (at most 50 iterations)
  vegasc examples/batch.toml                 run every [[run]] of a batch file
  vegasc runs.toml --csv runs.csv            a batch, with a CSV of the results
  vegasc --check examples/lepage.vf          check a file, report every error
  vegasc examples/cpp/ee_ll.cpp --integrand sigma
                                             a C++ integrand (vf/integrand.h)
  vegasc --emit=ast examples/lepage.vf       print the parsed program
  vegasc --emit=ptx examples/lepage.vf       print the GPU code (PTX)
  mpirun -np 4 vegasc examples/lepage.vf     share every iteration among 4
                                             processes (MPI builds)
  vegasc --eval examples/lepage.vf --at 0.5,0.5,0.5,0.5,0.5,0.5,0.5,0.5
                                             the integrand's value at a point
  vegasc examples/lepage.vf --checkpoint run.ckpt
                                             save the state after every iteration
  vegasc examples/lepage.vf --checkpoint run.ckpt --resume run.ckpt
                                             continue it after an interruption
                                             (same options; bitwise the same result)
  vegasc examples/lepage.vf --resume run.ckpt --iterations 20
                                             extend a finished run to 20
                                             iterations (or give a new --rtol)
  vegasc examples/physics/ee_mumu.vf --integrand sigma --events 10000 --events-out ee.lhe
                                             unweighted events as LHE (or .hepmc3)
  vegasc examples/lepage.vf --save-grid lepage.grid
                                             train, and keep the trained map
  vegasc examples/lepage.vf --load-grid lepage.grid --warmup 0
                                             reuse a trained map in another run

Exit codes: 0 success; 1 errors in the input, a failed run, or a checkpoint
or grid that cannot be used (another integrand, other options, damaged);
2 usage error (bad options or values, or an output that names a file the
command reads or another output: --json lep.vf); 70 an integrand's C or
C++ code crashed (the message names the signal and the file).)";

/// The input, its integrand and parameters, and the compiler's flags.
void addSourceFlags(CLI::App &App, vf::DriverOptions &O) {
  App.add_option("file", O.File,
                 "the .vf source file, or a C/C++ file of VF_INTEGRAND "
                 "entries (docs/user-guide.md)")
      ->check(NonEmptyPath);
  App.add_flag("--list-devices", O.ListDevices,
               "list the CPU and GPUs (or why there is no GPU) and exit");
  App.add_flag("--check", O.Check, "check the file and report every error");
  App.add_option("--emit", O.Emit,
                 "print an intermediate form: tokens, ast, llvm-raw (before "
                 "optimisation), llvm, asm (host), ptx")
      ->check(CLI::IsMember({"tokens", "ast", "llvm-raw", "llvm", "asm", "ptx"}));
  App.add_flag("--eval", O.Eval,
               "print the integrand's value(s) at the point given by --at");
  App.add_option("--at", O.At,
                 "a point of the domain: x0,x1,... (the integrand's own "
                 "coordinates, on infinite axes too)");
  App.add_flag("--at-t", O.AtT,
               "--at gives t in [0, 1] on an infinite axis, as the runtime "
               "samples it; --eval then prints the weight f * dx/dt");
  App.add_flag("--eval-outside", O.EvalOutside,
               "--eval at a point outside the domain: a warning, not an "
               "error");
  App.add_option("--integrand", O.Integrand,
                 "which integrand of the file (default: its only one)");
  App.add_option("--param", O.Params, "set a parameter: NAME=VALUE")
      ->take_last();
  App.add_option("--pdf-set", O.PdfSets,
                 "the PDF set of a pdf item, replacing its own: NAME=SET (a "
                 "set name, or its folder); repeatable")
      ->check(PdfSetChoice);
  App.add_option("--gpu-arch", O.GpuArch,
                 "GPU architecture for PTX (" + vf::defaultGpuArch() + ")");
  App.add_flag("--no-cache", O.NoCache, "do not read or write the compile cache");
  App.add_option("--cache-dir", O.CacheDir,
                 "compile cache folder (default $XDG_CACHE_HOME/vegasflow)")
      ->check(NonEmptyPath);
  App.add_flag("-v,--verbose", O.Verbose, "report compile-cache hits, and why there is no GPU");
}

/// The integration's sizes, accuracy target, seed and devices.
void addRunFlags(CLI::App &App, vf::RunSettings &Run) {
  // The integration settings: read here, checked with a batch's by
  // integratorOptions() (the library's checks), which names the flag.
  // 1e7 as well as 10000000; the library says the range (2 to 1e18).
  using vf::OptionId;
  addWholeNumber(App, flag(OptionId::Calls), Run.Calls, help(OptionId::Calls));
  addWholeNumber(App, flag(OptionId::Iterations), Run.Iterations,
                 help(OptionId::Iterations));
  addWholeNumber(App, flag(OptionId::Warmup), Run.Warmup,
                 help(OptionId::Warmup));
  App.add_option_function<double>(
         flag(OptionId::Rtol), [&Run](double V) { Run.Rtol = V; },
         help(OptionId::Rtol))
      ->type_name("RTOL");
  App.add_option_function<double>(
         flag(OptionId::Atol), [&Run](double V) { Run.Atol = V; },
         help(OptionId::Atol))
      ->type_name("ATOL");
  // 0 would read as "not given" (the default), so it is refused.
  App.add_option_function<std::string>(
         flag(OptionId::MaxIterations),
         [&Run](const std::string &S) {
           std::uint64_t V;
           if (std::string Why = vf::parseWholeNumber(S, UINT32_MAX, V);
               !Why.empty() || V == 0)
             throw CLI::ValidationError(flag(OptionId::MaxIterations) +
                                        " must be a whole number from " +
                                        vf::rangeText(OptionId::MaxIterations) +
                                        ", got '" + S + "'");
           Run.MaxIterations = unsigned(V);
         },
         help(OptionId::MaxIterations))
      ->type_name("N");
  addWholeNumber(App, flag(OptionId::Seed), Run.Seed, help(OptionId::Seed),
                 vf::MaxSeed);
  App.add_option(flag(OptionId::Devices), Run.Devices, help(OptionId::Devices));
  App.add_option(flag(OptionId::Schedule), Run.Schedule,
                 help(OptionId::Schedule));
}

/// What is printed and written after the run.
void addReportFlags(CLI::App &App, vf::DriverOptions &O) {
  App.add_flag("--summary", O.Summary,
               "after the run, print the vegas-style summary: every "
               "iteration with the cumulative estimate, chi2/dof and Q");
  App.add_flag("--stats", O.Stats,
               "print per-device statistics (samples, chunks, busy, idle, "
               "imbalance)");
  App.add_option("--json", O.Json, "write the result as JSON to FILE (- for "
                                   "standard output)")
      ->check(NonEmptyPath);
  App.add_option("--hist-csv", O.HistCsv,
                 "write the integrand's histograms as CSV to FILE (- for "
                 "standard output)")
      ->type_name("FILE")
      ->check(NonEmptyPath);
}

/// The map's and the stratification's adaptation, the non-finite policy
/// and the messages.
void addAdaptationFlags(CLI::App &App, vf::DriverOptions &O) {
  using vf::OptionId;
  vf::RunSettings &Run = O.Run;
  App.add_option(flag(OptionId::Alpha), Run.Alpha, help(OptionId::Alpha));
  App.add_option(flag(OptionId::Beta), Run.Beta, help(OptionId::Beta));
  addWholeNumber(App, flag(OptionId::Ninc), Run.Ninc, help(OptionId::Ninc));
  App.add_flag("--no-adapt-strata", O.NoAdaptStrata,
               "fixed stratification (same as --beta 0)");
  // The weights as text (vf/ChannelWeightsSpec.h), read and checked with
  // the rest by integratorOptions(), which names the flag.
  App.add_option(flag(OptionId::ChannelWeights), Run.ChannelWeights,
                 help(OptionId::ChannelWeights))
      ->type_name("adapt|W,W...");
  App.add_option(flag(OptionId::ChannelFloor), Run.ChannelFloor,
                 help(OptionId::ChannelFloor))
      ->type_name("F");
  App.add_option(flag(OptionId::OnNonFinite), Run.OnNonFinite,
                 help(OptionId::OnNonFinite));
  App.add_option(flag(OptionId::Precision), Run.Precision,
                 help(OptionId::Precision));
  App.add_flag("-q,--quiet", O.Quiet, "print only the result");
  App.add_flag("-w,--no-warnings", O.NoWarnings, "do not print warnings");
  addWholeNumber(App, "--error-limit", O.ErrorLimit,
                 "stop printing errors after this many (default 20)");
}

/// Checkpoints, grids, events and the report.
void addStateFlags(CLI::App &App, vf::DriverOptions &O) {
  using vf::OptionId;
  // --- Checkpoints and grids: docs/user-guide.md ------------------------
  App.add_option("--checkpoint", O.Checkpoint,
                 "after every iteration, save the whole state to FILE "
                 "(atomically) for --resume")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  App.add_option("--resume", O.Resume,
                 "continue the run saved in FILE by --checkpoint (same file, "
                 "integrand, --calls and --warmup); more --iterations or a "
                 "new --rtol extend a finished one")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  App.add_option("--save-grid", O.SaveGrid,
                 "after the run, write the trained map to FILE")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  App.add_option("--load-grid", O.LoadGrid,
                 "start from the map in FILE (from --save-grid) instead of "
                 "a uniform one")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  // --- end of checkpoints and grids -------------------------------------
  addWholeNumber(App, flag(OptionId::Events), O.Run.Events.Count,
                 help(OptionId::Events));
  App.add_option(flag(OptionId::EventsOut), O.Run.Events.Out,
                 help(OptionId::EventsOut))
      ->type_name("FILE")
      ->check(NonEmptyPath);
  App.add_option("--report", O.Report,
                 "write a self-contained HTML report (settings, iterations, "
                 "convergence, map, strata, devices; a batch: one section "
                 "per run)")
      ->type_name("FILE.html")
      ->check(NonEmptyPath);
  App.add_option_function<double>(
         "--exact",
         [&O](double V) {
           if (!std::isfinite(V))
             throw CLI::ValidationError("--exact must be a finite number");
           O.Exact = V;
         },
         "the exact value, drawn on the report's convergence plot")
      ->type_name("V");
  App.add_flag("--report-strata", O.ReportOpts.Strata,
               "draw the map of samples per hypercube in the report");
  App.add_option("--report-log", O.ReportOpts.LogY,
                 "draw these 1-D histograms on a log y axis in the report "
                 "('all': every one)")
      ->type_name("HIST,...")
      ->delimiter(',');
  App.add_option_function<std::vector<std::string>>(
         "--report-ref",
         [&O](const std::vector<std::string> &Paths) {
           for (const std::string &P : Paths)
             if (std::string Why = vf::addReportReferences(P, O.ReportOpts);
                 !Why.empty())
               throw CLI::ValidationError("--report-ref: " + Why);
         },
         "draw the histograms of this CSV (as --hist-csv writes) over the "
         "report's histograms of the same name, with a ratio panel")
      ->type_name("FILE.csv");
  App.add_flag(flag(OptionId::WeightedEvents), O.Run.Events.Weighted,
               help(OptionId::WeightedEvents));
  App.add_option(flag(OptionId::EventRecord), O.Run.Events.Record,
                 help(OptionId::EventRecord))
      ->type_name("NAME");
  App.add_option(flag(OptionId::EventLayout), O.Run.Events.Layout,
                 help(OptionId::EventLayout))
      ->type_name("basic|lhe");
  App.add_option(flag(OptionId::Beams), O.Run.Events.Beams,
                 help(OptionId::Beams))
      ->type_name("PDG1,PDG2");
  App.add_option(flag(OptionId::BeamEnergies), O.Run.Events.BeamEnergies,
                 help(OptionId::BeamEnergies))
      ->type_name("E1,E2");
  addWholeNumber(App, flag(OptionId::PdfId), O.Run.Events.PdfId,
                 help(OptionId::PdfId));
}

void addBatchFlags(CLI::App &App, vf::BatchOptions &Batch) {
  // --- Batch runs (TOML): vegasc/Batch.h -------------------------------
  App.add_option("--config", Batch.Config,
                 "run the batch in this TOML file (also: vegasc FILE.toml)")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  App.add_flag("--fail-fast", Batch.FailFast,
               "batch: stop at the first run that fails");
  App.add_option("--csv", Batch.Csv,
                 "batch: write one CSV row per run to FILE (- for standard "
                 "output)")
      ->type_name("FILE")
      ->check(NonEmptyPath);
  // --- end of batch runs ------------------------------------------------
}

/// The mode the parsed command line asks for, run.
int dispatch(const CLI::App &App, vf::DriverOptions &O, vf::BatchOptions &Batch,
             const vf::TaskOptions &Tasks, int &argc, char **&argv) {
  if (O.NoAdaptStrata)
    O.Run.Beta = 0;
  const Mode M = selectMode(O, Batch);
  if (Tasks.any() && M != Mode::Integrate) {
    std::fprintf(stderr, "vegasc: error: the --task-* commands integrate a "
                         ".vf file: not with a batch, --list-devices, "
                         "--check, --emit or --eval\n");
    return vf::ExitUsage;
  }
#ifdef VF_HAVE_MPI
  // Under mpirun/srun every rank joins; run alone, MPI is not touched.
  if (vf::launchedByMpi()) {
    auto Ranks = vf::MpiCluster::create(&argc, &argv);
    if (!Ranks) {
      std::fprintf(stderr, "vegasc: error: %s\n", Ranks.message().c_str());
      return vf::ExitInputError;
    }
    O.Ranks = std::move(*Ranks);
    // Only integration is shared among ranks; anything else rank 0 does.
    if (M != Mode::Integrate && O.Ranks->rank() != 0)
      return vf::ExitOk;
  }
#endif
  if (M == Mode::ListDevices)
    return vf::runListDevices();
  // --- Batch runs (TOML): a .toml file or --config -----------------------
  if (M == Mode::Batch) {
    if (!Batch.Config.empty() && !O.File.empty()) {
      std::fprintf(stderr, "vegasc: error: give a batch file either as FILE "
                           "or with --config, not both\n");
      return vf::ExitUsage;
    }
    if (Batch.Config.empty())
      Batch.Config = O.File;
    if (!batchAccepts(App))
      return vf::ExitUsage;
    return vf::runBatch(O, Batch);
  }
  if (Batch.FailFast || !Batch.Csv.empty()) {
    std::fprintf(stderr, "vegasc: error: --fail-fast and --csv apply to batch "
                         "runs (a .toml file)\n");
    return vf::ExitUsage;
  }
  // --- end of batch runs ------------------------------------------------
  if (O.File.empty()) {
    std::fprintf(stderr, "vegasc: error: no input file; try 'vegasc --help'\n");
    return vf::ExitUsage;
  }
  if (Tasks.any())
    return vf::runTask(O, Tasks);
  if (M == Mode::Integrate)
    return vf::runIntegrate(O);
  vf::Expected<vf::Precision> P = vf::parsePrecision(O.Run.Precision);
  if (!P) {
    std::fprintf(stderr, "vegasc: error: %s\n",
                 vf::flagMessage(P.error()).c_str());
    return vf::ExitUsage;
  }
  O.Single = *P == vf::Precision::F32;
  vf::armStateValues(O);
  return vf::runDeveloperMode(O);
}

int runMain(int argc, char **argv) {
  CLI::App App{"vegasc: compile a .vf integrand and integrate it with VEGAS+ "
               "on every CPU core and GPU",
               "vegasc"};
  App.footer(UsageFooter);
  vf::DriverOptions O;
  addSourceFlags(App, O);
  addRunFlags(App, O.Run);
  addReportFlags(App, O);
  addAdaptationFlags(App, O);
  addStateFlags(App, O);
  vf::BatchOptions Batch;
  addBatchFlags(App, Batch);
  vf::TaskOptions Tasks;
  vf::addTaskOptions(App, Tasks);
  App.set_version_flag("--version",
                       std::string("vegasc ") + vf::versionString());
  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    if (E.get_exit_code() == 0) // --help, --version
      return App.exit(E);
    // In vegasc's own format, like every other usage error.
    std::fprintf(stderr, "vegasc: error: %s; try 'vegasc --help'\n", E.what());
    return vf::ExitUsage;
  }
  return dispatch(App, O, Batch, Tasks, argc, argv);
}
} // namespace
