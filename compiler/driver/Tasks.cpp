//===- driver/Tasks.cpp - vegasc's task-engine commands -------------------===//
//
// The state is a checkpoint (integrator/Checkpoint.h): before the first
// iteration it holds the integrand's identity and the options only, after
// each merge the whole run so far, so the state after a merge is also the
// run's checkpoint. A part and the merge run the iteration through a
// TaskCluster (tasks/TaskCluster.h): the part's packet, or every part's
// packet as other ranks', is exactly what MPI ranks exchange.
//
//===----------------------------------------------------------------------===//

#include "driver/Tasks.h"

#include "files/SafeFiles.h"
#include "tasks/PartSplit.h"
#include "tasks/TaskCluster.h"

#include "vf/ResultJson.h"

#include <CLI/CLI.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace vf {

namespace {

constexpr std::uint64_t MaxStateBytes = std::uint64_t(1) << 32;

/// "A:B" (groups) or "I/N" (part I of N, equal or in proportion to
/// \p Weights) into a range of the iteration's \p G groups.
Expected<Cluster::Range> parseRange(const std::string &Text, std::uint64_t G,
                                    const std::vector<double> &Weights) {
  auto Bad = [&](const std::string &Why) {
    return Error{"--task-part '" + Text + "': " + Why};
  };
  std::size_t Cut = Text.find_first_of(":/");
  if (Cut == std::string::npos)
    return Bad("give groups A:B or part I/N");
  std::uint64_t A, B;
  try {
    std::size_t Used1, Used2;
    A = std::stoull(Text.substr(0, Cut), &Used1);
    B = std::stoull(Text.substr(Cut + 1), &Used2);
    if (Used1 != Cut || Used2 != Text.size() - Cut - 1 || Text[0] == '-' ||
        Text[Cut + 1] == '-')
      return Bad("not two whole numbers");
  } catch (...) {
    return Bad("not two whole numbers");
  }
  if (Text[Cut] == '/') {
    Expected<Cluster::Range> R = partRange(G, A, B, Weights);
    return R ? R : Bad(R.message());
  }
  if (A > B || B > G)
    return Bad("the state's next iteration has groups 0:" + std::to_string(G));
  return Cluster::Range{A, B};
}

/// --task-weights' comma-separated positive numbers, one per part of I/N.
Expected<std::vector<double>> parseWeights(const TaskOptions &T) {
  std::vector<double> Weights;
  if (T.Weights.empty())
    return Weights;
  auto Bad = [&](const std::string &Why) {
    return Error{"--task-weights '" + T.Weights + "': " + Why};
  };
  if (T.Part.find('/') == std::string::npos)
    return Bad("weights cut a part I/N, give --task-part I/N");
  for (std::size_t At = 0; At <= T.Weights.size();) {
    std::size_t Comma = std::min(T.Weights.find(',', At), T.Weights.size());
    std::string Field = T.Weights.substr(At, Comma - At);
    char *End = nullptr;
    double W = Field.empty() ? 0 : std::strtod(Field.c_str(), &End);
    if (Field.empty() || *End != '\0' || !(W > 0) || !std::isfinite(W))
      return Bad("'" + Field + "' is not a positive finite number");
    Weights.push_back(W);
    At = Comma + 1;
  }
  return Weights;
}

/// The state's bytes and its iteration's identity under \p O's run plan.
Expected<std::uint64_t> stateIdentity(const DriverOptions &O,
                                      const TaskOptions &T) {
  if (T.State.empty())
    return Error{"give the iteration's state with --state FILE (the first "
                 "one from --task-init)"};
  Expected<std::string> B = readRegularFile(T.State, MaxStateBytes,
                                            "the state");
  if (!B)
    return B.error();
  return stateHash(*B, O.Run.Calls, O.Run.Iterations, O.Run.Warmup);
}

/// setUpRun with \p C as the ranks, then the state restored; an exit code.
int setUpTask(const DriverOptions &O, const TaskOptions &T,
              std::shared_ptr<Cluster> C, RunSetup &S) {
  DriverOptions W = O;
  W.Ranks = std::move(C);
  if (int Code = setUpRun(W, !O.NoWarnings, S); Code != ExitOk)
    return Code;
  if (Status St = S.Int->loadState(T.State); !St)
    return fail(St.message() + "; give the FILE.vf and settings the state "
                "was made with");
  const RunPlan &Pl = S.Int->plan();
  if (Pl.total() && !Pl.unfinished())
    return fail("the state '" + T.State + "' is of a finished run (" +
                std::to_string(Pl.Done) + " iterations); print it with "
                "--task-result");
  return ExitOk;
}

/// A task's run: its iteration, then the cluster's stop.
Status runIteration(const DriverOptions &O, Integrator &Int) {
  Expected<Result> R = Int.run(O.Run.Iterations, O.Run.Calls, O.Run.Warmup);
  if (R || R.error().Message == TaskCluster::stoppedMessage())
    return Status::ok();
  return Error{flagMessage(R.error())};
}

int initState(const DriverOptions &O, const TaskOptions &T) {
  if (Status S = checkRunPlan(O.Run.Iterations, O.Run.Calls, O.Run.Warmup); !S)
    return fail(flagMessage(S.error()), ExitUsage);
  RunSetup S;
  if (int Code = setUpRun(O, !O.NoWarnings, S); Code != ExitOk)
    return Code;
  if (Status St = S.Int->saveState(T.Init); !St)
    return fail(St.message());
  return ExitOk;
}

int computePart(const DriverOptions &O, const TaskOptions &T) {
  if (T.Out.empty())
    return fail("--task-part needs --out FILE for the part", ExitUsage);
  Expected<std::vector<double>> Weights = parseWeights(T);
  if (!Weights)
    return fail(Weights.message(), ExitUsage);
  Expected<std::uint64_t> Hash = stateIdentity(O, T);
  if (!Hash)
    return fail(Hash.message());
  auto C = TaskCluster::forPart(
      [Text = T.Part, W = *Weights](std::uint64_t G) {
        return parseRange(Text, G, W);
      },
      *Hash);
  RunSetup S;
  if (int Code = setUpTask(O, T, C, S); Code != ExitOk)
    return Code;
  if (Status St = runIteration(O, *S.Int); !St)
    return fail(St.message());
  if (!C->part())
    return fail("the part was not computed");
  if (Status St = writePart(T.Out, *C->part()); !St)
    return fail(St.message());
  return ExitOk;
}

/// The result so far, as a line per output, or as JSON with --json.
int printResult(const DriverOptions &O, const IntegrandInfo &I,
                const Integrator &Int) {
  Result R = Int.result();
  if (!O.Json.empty()) {
    std::string Settings = "{\"file\": \"\"}";
    if (!writeOutput(O.Json, resultToJson(R, I.Name, Settings) + "\n",
                     "the JSON result"))
      return ExitInputError;
    if (O.Json == "-")
      return ExitOk;
  }
  if (O.Quiet && !O.Json.empty())
    return ExitOk;
  // The rows, not plan().Done: a task's run ends by stopping, which marks
  // the plan in memory abandoned (the state on disk has it right).
  std::printf("vegasc: %zu of %u iterations done\n", R.Iterations.size(),
              Int.plan().total());
  // Warm-up iterations train the map and are not averaged: until the
  // first measured one there is no estimate, and the state is still fine
  // (exit 0, so that engines chain the next iteration).
  if (std::none_of(R.Iterations.begin(), R.Iterations.end(),
                   [](const IterationRow &Row) { return !Row.Warmup; })) {
    if (R.Iterations.empty())
      std::printf("vegasc: no result yet: no iteration has been merged\n");
    else
      std::printf("vegasc: no result yet: %s a warm-up iteration (it trains "
                  "the map; its estimate is not kept)\n",
                  R.Iterations.size() == 1 ? "the iteration was"
                                           : "every iteration so far was");
    return ExitOk;
  }
  for (unsigned K = 0; K < R.Mean.size(); ++K)
    std::printf("result%s = %.15g +- %.3g   chi2/dof = %.3g   Q = %.3g\n",
                R.Mean.size() > 1 ? ("[" + std::to_string(K) + "]").c_str()
                                  : "",
                R.Mean[K], R.Error[K], R.Chi2Dof, R.Q);
  return ExitOk;
}

int mergeParts(const DriverOptions &O, const TaskOptions &T) {
  if (std::all_of(T.Merge.begin(), T.Merge.end(),
                  [](const std::string &P) { return P.empty(); }))
    return fail("--task-merge needs the parts to merge: --task-merge PART... "
                "(the files --task-part wrote for --state's next iteration)",
                ExitUsage);
  if (T.Out.empty())
    return fail("--task-merge needs --out FILE for the next state",
                ExitUsage);
  Expected<std::uint64_t> Hash = stateIdentity(O, T);
  if (!Hash)
    return fail(Hash.message());
  std::vector<Part> Parts;
  for (const std::string &Path : T.Merge) {
    Expected<Part> P = readPart(Path);
    if (!P)
      return fail(P.message());
    Parts.push_back(std::move(*P));
  }
  if (Status St = checkCoverage(Parts, *Hash); !St)
    return fail(St.message());
  auto C = TaskCluster::forMerge(std::move(Parts));
  RunSetup S;
  if (int Code = setUpTask(O, T, C, S); Code != ExitOk)
    return Code;
  if (Status St = S.Int->checkpointTo(T.Out); !St)
    return fail(St.message());
  if (Status St = runIteration(O, *S.Int); !St)
    return fail(St.message());
  return O.Quiet && O.Json.empty() ? ExitOk
                                   : printResult(O, S.Info, *S.Int);
}

int showResult(const DriverOptions &O, const TaskOptions &T) {
  if (T.State.empty())
    return fail("--task-result needs --state FILE", ExitUsage);
  RunSetup S;
  if (int Code = setUpRun(O, !O.NoWarnings, S); Code != ExitOk)
    return Code;
  if (Status St = S.Int->loadState(T.State); !St)
    return fail(St.message());
  return printResult(O, S.Info, *S.Int);
}

} // namespace

void addTaskOptions(CLI::App &App, TaskOptions &T) {
  App.add_option("--task-init", T.Init,
                 "task engines: write the initial state of this run to FILE")
      ->type_name("FILE");
  App.add_option("--task-part", T.Part,
                 "task engines: compute groups A:B (or part I/N) of the next "
                 "iteration of --state into --out")
      ->type_name("RANGE");
  App.add_option("--task-weights", T.Weights,
                 "task engines: cut --task-part I/N's parts in proportion to "
                 "these N positive numbers (a worker's throughput), not "
                 "equally")
      ->type_name("W,...");
  // Zero values allowed, so that a merge without parts is ours to explain
  // (CLI11 would otherwise take the next flag, --state, for a part and
  // complain about the state); CLI11 stores one empty value then.
  App.add_option("--task-merge", T.Merge,
                 "task engines: merge these parts of --state's next "
                 "iteration; the next state goes to --out")
      ->type_name("PART...")
      ->expected(0, CLI::detail::expected_max_vector_size);
  App.add_flag("--task-result", T.Result,
               "task engines: print the result of --state (--json too)");
  App.add_option("--state", T.State, "task engines: the iteration's state")
      ->type_name("FILE");
  App.add_option("--out", T.Out,
                 "task engines: where the part or the next state goes")
      ->type_name("FILE");
}

int runTask(const DriverOptions &O, const TaskOptions &T) {
  int Commands = !T.Init.empty() + !T.Part.empty() + !T.Merge.empty() +
                 T.Result;
  if (Commands > 1)
    return fail("give one of --task-init, --task-part, --task-merge and "
                "--task-result",
                ExitUsage);
  if (!O.Checkpoint.empty() || !O.Resume.empty() || !O.LoadGrid.empty() ||
      !O.SaveGrid.empty())
    return fail("--checkpoint, --resume and grids do not apply to task "
                "commands: the state after each merge is the checkpoint",
                ExitUsage);
  if (O.Ranks)
    return fail("task commands run as one process each, not under mpirun",
                ExitUsage);
  if (!T.Weights.empty() && T.Part.empty())
    return fail("--task-weights cuts the parts of --task-part I/N",
                ExitUsage);
  // The next state never replaces the one it continues, nor a part.
  if (Status St = checkTaskPaths(
          O.File, T.State, T.Merge,
          {{T.Init, "--task-init"}, {T.Out, "--out"}, {O.Json, "--json"}});
      !St)
    return fail(St.message(), ExitUsage);
  if (!T.Init.empty())
    return initState(O, T);
  if (!T.Part.empty())
    return computePart(O, T);
  if (!T.Merge.empty())
    return mergeParts(O, T);
  return showResult(O, T);
}

} // namespace vf
