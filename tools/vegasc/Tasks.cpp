//===- vegasc/Tasks.cpp - vegasc's task-engine commands -------------------===//
//
// vegasc's door to the task API (vf/Tasks.h): its flags as a TaskRun, the
// state and parts as files, the result printed. A part and a merge run the
// iteration through the API, which is what Python's drivers call, so the
// files are the bytes those drivers pass around.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Tasks.h"

#include "vf/OutputGuard.h"
#include "vf/ResultDocument.h"
#include "vf/SafeFiles.h"
#include "vf/Tasks.h"

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
    Expected<Cluster::Range> R = partOf(A, B, Weights)(G);
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

/// --state's bytes, named by its path in errors.
Expected<TaskBytes> readState(const TaskOptions &T) {
  if (T.State.empty())
    return Error{"give the iteration's state with --state FILE (the first "
                 "one from --task-init)"};
  Expected<std::string> B = readRegularFile(T.State, MaxStateBytes,
                                            "the state");
  if (!B)
    return B.error();
  return TaskBytes{std::move(*B), T.State};
}

/// The run \p O's FILE.vf and settings describe, as the task API takes
/// it; an exit code, the failure reported.
int taskRun(const DriverOptions &O, TaskRun &R) {
  RunSetup S;
  if (int Code = prepareRun(O, !O.NoWarnings, S); Code != ExitOk)
    return Code;
  R = TaskRun{S.Info,           S.IO,        S.Params,
              O.Run.Iterations, O.Run.Calls, O.Run.Warmup};
  return ExitOk;
}

/// Writes a state or part the API made to \p Path, never over one of the
/// integrand's sources.
int writeTaskFile(const TaskRun &R, const std::string &Path,
                  const std::string &Bytes, const std::string &What) {
  const IntegrandInfo &I = R.Integrand;
  if (Status St =
          checkNotAnInput(Path, What, I.SourceFiles,
                          "a source file of integrand '" + I.Name + "'");
      !St)
    return fail(St.message());
  if (Status St = writeFileAtomically(Path, Bytes, What); !St)
    return fail(St.message());
  return ExitOk;
}

int initState(const DriverOptions &O, const TaskOptions &T) {
  if (Status S = checkRunPlan(O.Run.Iterations, O.Run.Calls, O.Run.Warmup); !S)
    return fail(flagMessage(S.error()), ExitUsage);
  TaskRun R;
  if (int Code = taskRun(O, R); Code != ExitOk)
    return Code;
  Expected<std::string> State = taskInit(R);
  if (!State)
    return fail(flagMessage(State.error()));
  return writeTaskFile(R, T.Init, *State, "the state file");
}

int computePart(const DriverOptions &O, const TaskOptions &T) {
  if (T.Out.empty())
    return fail("--task-part needs --out FILE for the part", ExitUsage);
  Expected<std::vector<double>> Weights = parseWeights(T);
  if (!Weights)
    return fail(Weights.message(), ExitUsage);
  Expected<TaskBytes> State = readState(T);
  if (!State)
    return fail(State.message());
  TaskRun R;
  if (int Code = taskRun(O, R); Code != ExitOk)
    return Code;
  Expected<std::string> Part =
      taskPart(R, *State, [Text = T.Part, W = *Weights](std::uint64_t G) {
        return parseRange(Text, G, W);
      });
  if (!Part)
    return fail(flagMessage(Part.error()));
  return writeTaskFile(R, T.Out, *Part, "the part");
}

/// The result so far, as a line per output, or as JSON with --json.
int printResult(const DriverOptions &O, const std::string &Name,
                const TaskProgress &P) {
  const Result &R = P.SoFar;
  if (!O.Json.empty()) {
    const nlohmann::ordered_json Settings = {{"file", ""}};
    if (!writeOutput(O.Json,
                     resultDocument(R, Name, Settings).dump(2) + "\n\n",
                     "the JSON result"))
      return ExitInputError;
    if (O.Json == "-")
      return ExitOk;
  }
  if (O.Quiet && !O.Json.empty())
    return ExitOk;
  std::printf("vegasc: %u of %u iterations done\n", P.Done, P.Total);
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
  Expected<TaskBytes> State = readState(T);
  if (!State)
    return fail(State.message());
  std::vector<TaskBytes> Parts;
  for (const std::string &Path : T.Merge) {
    Expected<std::string> B = readPartBytes(Path);
    if (!B)
      return fail(B.message());
    Parts.push_back({std::move(*B), Path});
  }
  TaskRun R;
  if (int Code = taskRun(O, R); Code != ExitOk)
    return Code;
  // Refused before the iteration, not after it: a folder that cannot be
  // written, or a device or FIFO named as the next state.
  if (Status St = checkWritable(T.Out, "the checkpoint"); !St)
    return fail(St.message());
  removeStaleTemporaries(T.Out);
  Expected<TaskMerged> M = taskMerge(R, *State, std::move(Parts));
  if (!M)
    return fail(flagMessage(M.error()));
  if (int Code = writeTaskFile(R, T.Out, M->State, "the checkpoint");
      Code != ExitOk)
    return Code;
  return O.Quiet && O.Json.empty()
             ? ExitOk
             : printResult(O, R.Integrand.Name, M->Progress);
}

int showResult(const DriverOptions &O, const TaskOptions &T) {
  if (T.State.empty())
    return fail("--task-result needs --state FILE", ExitUsage);
  Expected<TaskBytes> State = readState(T);
  if (!State)
    return fail(State.message());
  TaskRun R;
  if (int Code = taskRun(O, R); Code != ExitOk)
    return Code;
  Expected<TaskProgress> P = taskProgress(R, *State);
  if (!P)
    return fail(P.message());
  return printResult(O, R.Integrand.Name, *P);
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
