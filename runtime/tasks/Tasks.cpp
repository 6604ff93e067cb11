//===- tasks/Tasks.cpp - One iteration as independent tasks ---------------===//
//
// Each task is an Integrator whose ranks are a TaskCluster: it restores
// the state, runs the run's plan, and the cluster stops it after the one
// iteration it may take part in. The merged state is taken when the
// iteration ends (the onIteration observer), where a checkpoint file would
// be written: the stop that follows marks the plan in memory abandoned.
//
//===----------------------------------------------------------------------===//

#include "vf/Tasks.h"

#include "tasks/PartFile.h"
#include "tasks/PartSplit.h"
#include "tasks/TaskCluster.h"

#include <algorithm>
#include <optional>

namespace vf {

namespace {

/// \p R's integrator, its ranks \p C (none for the initial state).
Expected<std::unique_ptr<Integrator>>
taskIntegrator(const TaskRun &R, std::shared_ptr<Cluster> C) {
  if (R.Options.Ranks)
    return Error{"a task's options take no Cluster: the tasks are the ranks"};
  if (!R.Params.empty() && R.Params.size() != R.Integrand.ParamNames.size())
    return Error{std::to_string(R.Params.size()) + " parameter values for " +
                 std::to_string(R.Integrand.ParamNames.size()) +
                 " parameters of integrand '" + R.Integrand.Name + "'"};
  IntegratorOptions O = R.Options;
  O.Ranks = std::move(C);
  Expected<std::unique_ptr<Integrator>> Int =
      Integrator::create(R.Integrand, std::move(O));
  if (!Int)
    return Int.error();
  for (std::size_t K = 0; K < R.Params.size(); ++K)
    if (Status St = (*Int)->setParam(R.Integrand.ParamNames[K], R.Params[K]);
        !St)
      return St.error();
  return Int;
}

/// An integrator of \p R restored to \p State, its next iteration to run.
Expected<std::unique_ptr<Integrator>>
nextIteration(const TaskRun &R, const TaskBytes &State,
              std::shared_ptr<Cluster> C) {
  Expected<std::unique_ptr<Integrator>> Int = taskIntegrator(R, std::move(C));
  if (!Int)
    return Int.error();
  if (Status St = (*Int)->loadStateBytes(State.Bytes, State.Name); !St)
    return Error{St.message() + "; give the FILE.vf and settings the state "
                                "was made with"};
  const RunPlan &Pl = (*Int)->plan();
  if (Pl.total() && !Pl.unfinished())
    return Error{"the state '" + State.Name + "' is of a finished run (" +
                 std::to_string(Pl.Done) + " iterations): there is no " +
                 "next iteration; read its result"};
  return Int;
}

/// A task's run: its iteration, then the cluster's stop.
Status runIteration(const TaskRun &R, Integrator &Int) {
  Expected<Result> Res = Int.run(R.Iterations, R.Calls, R.Warmup);
  if (Res || Res.error().Message == TaskCluster::stoppedMessage())
    return Status::ok();
  return Res.error();
}

/// The exchanges of an iteration of \p R: one per channel.
std::size_t passes(const TaskRun &R) {
  return std::max<std::size_t>(1, R.Integrand.Channels.size());
}

std::uint64_t identity(const TaskRun &R, const TaskBytes &State) {
  return stateHash(State.Bytes, R.Calls, R.Iterations, R.Warmup);
}

TaskProgress progressOf(const Integrator &Int) {
  TaskProgress P;
  P.SoFar = Int.result();
  // The rows, not plan().Done: a task's run ends by stopping, which marks
  // the plan in memory abandoned (the merged state has it right).
  P.Done = unsigned(P.SoFar.Iterations.size());
  P.Total = Int.plan().total();
  return P;
}

} // namespace

PartChoice partOf(std::uint64_t Index, std::uint64_t Count,
                  std::vector<double> Weights) {
  return [=, W = std::move(Weights)](std::uint64_t Groups) {
    return partRange(Groups, Index, Count, W);
  };
}

Expected<std::string> taskInit(const TaskRun &R) {
  if (Status S = checkRunPlan(R.Iterations, R.Calls, R.Warmup); !S)
    return S.error();
  Expected<std::unique_ptr<Integrator>> Int = taskIntegrator(R, nullptr);
  if (!Int)
    return Int.error();
  return (*Int)->stateBytes();
}

Expected<std::string> taskPart(const TaskRun &R, const TaskBytes &State,
                               const PartChoice &Which) {
  auto C = TaskCluster::forPart(Which, identity(R, State), passes(R));
  Expected<std::unique_ptr<Integrator>> Int = nextIteration(R, State, C);
  if (!Int)
    return Int.error();
  if (Status St = runIteration(R, **Int); !St)
    return St.error();
  if (!C->part())
    return Error{"the part was not computed"};
  return encodePart(*C->part());
}

Expected<TaskMerged> taskMerge(const TaskRun &R, const TaskBytes &State,
                               std::vector<TaskBytes> Parts) {
  std::vector<std::vector<Part>> Read;
  for (TaskBytes &B : Parts) {
    Expected<std::vector<Part>> P = decodePart(B.Bytes, B.Name);
    if (!P)
      return P.error();
    Read.push_back(std::move(*P));
    B.Bytes = {}; // a part's words are in Read now: not twice in memory
  }
  Expected<std::vector<std::vector<Part>>> ByPass =
      partsByPass(std::move(Read), identity(R, State), passes(R));
  if (!ByPass)
    return ByPass.error();
  Expected<std::unique_ptr<Integrator>> Int =
      nextIteration(R, State, TaskCluster::forMerge(std::move(*ByPass)));
  if (!Int)
    return Int.error();
  std::optional<Expected<std::string>> Next;
  (*Int)->onIteration(
      [&](const IterationRow &) { Next.emplace((*Int)->stateBytes()); });
  if (Status St = runIteration(R, **Int); !St)
    return St.error();
  if (!Next)
    return Error{"the merge ran no iteration: the state's run has met its "
                 "accuracy target"};
  if (!*Next)
    return Next->error();
  return TaskMerged{std::move(**Next), progressOf(**Int)};
}

Expected<TaskProgress> taskProgress(const TaskRun &R, const TaskBytes &State) {
  Expected<std::unique_ptr<Integrator>> Int = taskIntegrator(R, nullptr);
  if (!Int)
    return Int.error();
  if (Status St = (*Int)->loadStateBytes(State.Bytes, State.Name); !St)
    return St.error();
  return progressOf(**Int);
}

} // namespace vf
