//===- driver/vegasc.cpp - The vegasflow command-line driver --------------===//
//
// Parses the command line with CLI11 and hands over to a mode (Modes.cpp).
// Exit codes: 0 success, 1 errors in the input or a failed run, 2 usage.
//
//===----------------------------------------------------------------------===//

#include "driver/Driver.h"
#include "driver/Batch.h"
#include "driver/Tasks.h"

#include "backends/Targets.h"
#include "vf/Version.h"
#ifdef VF_HAVE_MPI
#include "mpi/MpiCluster.h"
#endif

#include <CLI/CLI.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace {

/// What this invocation does; decided once, for the dispatch and for
/// which MPI ranks take part.
enum class Mode { ListDevices, Batch, Tokens, Compile, Integrate };

Mode selectMode(const vf::DriverOptions &O, const vf::BatchOptions &B) {
  if (O.ListDevices)
    return Mode::ListDevices;
  if (!B.Config.empty() || vf::isBatchFile(O.File))
    return Mode::Batch;
  if (O.Emit == "tokens")
    return Mode::Tokens;
  return vf::integrates(O) ? Mode::Integrate : Mode::Compile;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App App{"vegasc: compile a .vf integrand and integrate it with VEGAS+ "
               "on every CPU core and GPU",
               "vegasc"};
  App.footer(R"(Examples:
  vegasc examples/lepage.vf                  integrate with the defaults
  vegasc examples/lepage.vf --calls 1e7 --iterations 20 --json out.json
  vegasc examples/lepage.vf --param a=0.05   change a parameter
  vegasc examples/batch.toml                 run every [[run]] of a batch file
  vegasc runs.toml --csv runs.csv            a batch, with a CSV of the results
  vegasc --check examples/lepage.vf          check a file, report every error
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
  vegasc examples/lepage.vf --save-grid lepage.grid
                                             train, and keep the trained map
  vegasc examples/lepage.vf --load-grid lepage.grid --warmup 0
                                             reuse a trained map in another run

Exit codes: 0 success; 1 errors in the input, a failed run, or a checkpoint
or grid that cannot be used (another integrand, other options, damaged);
2 usage error (bad options or values).)");
  vf::DriverOptions O;
  App.add_option("file", O.File, "the .vf source file");
  App.add_flag("--list-devices", O.ListDevices,
               "list the CPU and GPUs (or why there is no GPU) and exit");
  App.add_flag("--check", O.Check, "check the file and report every error");
  App.add_option("--emit", O.Emit,
                 "print an intermediate form: tokens, ast, llvm-raw (before "
                 "optimisation), llvm, asm (host), ptx")
      ->check(CLI::IsMember({"tokens", "ast", "llvm-raw", "llvm", "asm", "ptx"}));
  App.add_flag("--eval", O.Eval,
               "print the integrand's value(s) at the point given by --at");
  App.add_option("--at", O.At, "a point of the domain: x0,x1,...");
  App.add_option("--integrand", O.Integrand,
                 "which integrand of the file (default: its only one)");
  App.add_option("--param", O.Params, "set a parameter: NAME=VALUE")
      ->take_last();
  App.add_option("--gpu-arch", O.GpuArch,
                 std::string("GPU architecture for PTX (") + vf::DefaultGpuArch +
                     ")");
  App.add_flag("--no-cache", O.NoCache, "do not read or write the compile cache");
  App.add_option("--cache-dir", O.CacheDir,
                 "compile cache folder (default $XDG_CACHE_HOME/vegasflow)");
  App.add_flag("-v,--verbose", O.Verbose, "report compile-cache hits, and why there is no GPU");
  // The integration settings: read here, checked with a batch's by
  // integratorOptions() (the library's checks), which names the flag.
  vf::RunSettings &Run = O.Run;
  App.add_option_function<std::string>(
         "--calls",
         [&Run](const std::string &S) {
           // Accept 1e7 as well as 10000000: a whole number of samples.
           char *End = nullptr;
           double V = std::strtod(S.c_str(), &End);
           if (End == S.c_str() || *End || !(V >= 0) || V != std::floor(V))
             throw CLI::ValidationError(
                 "--calls", "expected a whole number of samples (e.g. "
                            "1000000 or 1e6), got '" + S + "'");
           // Beyond 2^64 is beyond any plan: saturate, for the check to say.
           Run.Calls = V < 0x1p64 ? static_cast<std::uint64_t>(V) : ~0ull;
         },
         "samples per iteration, e.g. 1e6 (default 1000000)");
  App.add_option("--iterations", Run.Iterations,
                 "measured iterations (default 10)");
  App.add_option("--warmup", Run.Warmup,
                 "warm-up iterations, adapting but not averaged (default 5)");
  App.add_option("--seed", Run.Seed, "random seed (default 1)");
  App.add_option("--devices", Run.Devices,
                 "all, cpu, cpu:N, gpu, gpu:N[,M...], sim:R (a simulated "
                 "device at R million samples/s), comma-separated, e.g. "
                 "cpu:4,gpu:1 (default all)");
  App.add_option("--schedule", Run.Schedule,
                 "adaptive (default), guided, static or dynamic:c: how "
                 "tiles are handed to devices (never changes the result)");
  App.add_flag("--stats", O.Stats,
               "print per-device statistics (samples, chunks, busy, idle, "
               "imbalance)");
  App.add_option("--json", O.Json, "write the result as JSON to FILE (- for "
                                   "standard output)");
  App.add_option("--alpha", Run.Alpha, "map damping alpha (default 0.5)");
  App.add_option("--beta", Run.Beta,
                 "stratification exponent beta (default 0.75; 0: classic "
                 "VEGAS)");
  App.add_option("--ninc", Run.Ninc,
                 "most increments per axis of the map, 2 to 100000 (default "
                 "1000)");
  App.add_flag("--no-adapt-strata", O.NoAdaptStrata,
               "fixed stratification (same as --beta 0)");
  App.add_option("--on-nonfinite", Run.OnNonFinite,
                 "stop (default) or zero: what a NaN or infinite value does");
  App.add_flag("-q,--quiet", O.Quiet, "print only the result");
  App.add_flag("-w,--no-warnings", O.NoWarnings, "do not print warnings");
  App.add_option("--error-limit", O.ErrorLimit,
                 "stop printing errors after this many (default 20)");
  // --- Checkpoints and grids: docs/user-guide.md ------------------------
  App.add_option("--checkpoint", O.Checkpoint,
                 "after every iteration, save the whole state to FILE "
                 "(atomically) for --resume")
      ->type_name("FILE");
  App.add_option("--resume", O.Resume,
                 "continue the run saved in FILE by --checkpoint; give the "
                 "same file, integrand and options")
      ->type_name("FILE");
  App.add_option("--save-grid", O.SaveGrid,
                 "after the run, write the trained map to FILE")
      ->type_name("FILE");
  App.add_option("--load-grid", O.LoadGrid,
                 "start from the map in FILE (from --save-grid) instead of "
                 "a uniform one")
      ->type_name("FILE");
  // --- end of checkpoints and grids -------------------------------------
  // --- Batch runs (TOML): driver/Batch.h -------------------------------
  vf::BatchOptions Batch;
  App.add_option("--config", Batch.Config,
                 "run the batch in this TOML file (also: vegasc FILE.toml)")
      ->type_name("FILE");
  App.add_flag("--fail-fast", Batch.FailFast,
               "batch: stop at the first run that fails");
  App.add_option("--csv", Batch.Csv,
                 "batch: write one CSV row per run to FILE (- for standard "
                 "output)")
      ->type_name("FILE");
  // --- end of batch runs ------------------------------------------------
  vf::TaskOptions Tasks;
  vf::addTaskOptions(App, Tasks);
  App.set_version_flag("--version", std::string("vegasc ") +
                                        vf::versionString());
  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    int Code = App.exit(E);
    return Code == 0 ? vf::ExitOk : vf::ExitUsage;
  }
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
    // Integration settings live in the TOML file, for every run alike;
    // checkpoints and grids belong to single runs.
    for (const char *Name :
         {"--check", "--emit", "--eval", "--at", "--integrand", "--param",
          "--calls", "--iterations", "--warmup", "--seed", "--devices",
          "--alpha", "--beta", "--ninc", "--no-adapt-strata",
          "--on-nonfinite", "--gpu-arch", "--checkpoint", "--resume",
          "--save-grid", "--load-grid"}) {
      const CLI::Option *Opt = App.get_option_no_throw(Name);
      if (Opt && Opt->count()) {
        bool InToml = std::string(Name).find("grid") == std::string::npos &&
                      std::string(Name) != "--checkpoint" &&
                      std::string(Name) != "--resume";
        std::fprintf(stderr, "vegasc: error: %s does not apply to a batch%s\n",
                     Name,
                     InToml ? "; set it in the TOML file ([defaults] or a "
                              "[[run]])"
                            : "");
        return vf::ExitUsage;
      }
    }
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
  if (M == Mode::Tokens)
    return vf::runEmitTokens(O);
  if (Tasks.any())
    return vf::runTask(O, Tasks);
  if (M == Mode::Integrate)
    return vf::runIntegrate(O);
  return vf::runCompilerModes(O);
}
