//===- vf/Tasks.h - One iteration as independent tasks ----------*- C++ -*-===//
//
// The part/merge protocol of task engines (Dask, Spark, SLURM job arrays;
// docs/user-guide.md, "Task engines"), with states and parts as bytes so
// that an engine moves them as it moves any data:
//   - taskInit: the run's initial state (a checkpoint holding the
//     integrand's identity and the options, integrator/Checkpoint.h);
//   - taskPart: a range of the TrainingSums groups of each pass of the
//     state's next iteration (one pass, or one per channel;
//     tasks/PartFile.h has the format), computed by any process that has
//     the same integrand and settings;
//   - taskMerge: every part of that iteration into the next state, which
//     is also the run's checkpoint, and the result so far.
// The iteration completes exactly as on one process, bit for bit: a part
// is what an MPI rank sends the others (tasks/TaskCluster.h). vegasc's
// --task-* commands and Python's drivers (vegasflow.dask, vegasflow.spark)
// are front doors to these functions, so the bytes are the same whichever
// door made them.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TASKS_H
#define VF_TASKS_H

#include "vf/Cluster.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Integrator.h"
#include "vf/Result.h"

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace vf {

/// What every task of a run is given alike; a state made for another
/// integrand, other options or parameters is refused, and a part of
/// another state or run plan too.
struct TaskRun {
  IntegrandInfo Integrand;
  /// Ranks must stay null: the tasks are the run's ranks.
  IntegratorOptions Options;
  /// Parameter values in Integrand.ParamNames' order; empty: the defaults.
  std::vector<double> Params;
  unsigned Iterations = 0; ///< measured iterations of the run
  std::uint64_t Calls = 0; ///< samples per iteration
  unsigned Warmup = 0;     ///< warm-up iterations, run first
};

/// A state or a part, and what errors call it (a path, "part 3").
struct TaskBytes {
  std::string Bytes;
  std::string Name;
};

/// Which groups [Begin, End) of a pass of \p Groups groups a part
/// computes (asked once per pass); an error refuses the part.
using PartChoice =
    std::function<Expected<Cluster::Range>(std::uint64_t Groups)>;

/// Part \p Index of \p Count: equal ranges of groups, or ranges in
/// proportion to \p Weights (one positive, finite number per part, e.g.
/// each worker's throughput). Which cut is chosen never changes the
/// result; an iteration has at most 64 groups (fewer with few tiles or
/// large histograms), so asking for more parts than it has is an error.
PartChoice partOf(std::uint64_t Index, std::uint64_t Count,
                  std::vector<double> Weights = {});

/// Where a state's run stands.
struct TaskProgress {
  Result SoFar;       ///< over the iterations merged (none: no estimate)
  unsigned Done = 0;  ///< iterations merged, warm-up included
  unsigned Total = 0; ///< of the run; 0 in an initial state
};

struct TaskMerged {
  std::string State; ///< the next state (and the run's checkpoint)
  TaskProgress Progress;
};

/// The run's initial state.
Expected<std::string> taskInit(const TaskRun &R);
/// The part \p Which chooses of \p State's next iteration. Refuses a state
/// of a finished run.
Expected<std::string> taskPart(const TaskRun &R, const TaskBytes &State,
                               const PartChoice &Which);
/// \p Parts, in any order, as \p State's next iteration. Identical copies
/// of a part (a retried task) are dropped; a missing, overlapping,
/// damaged part or one of another state is refused, naming it.
Expected<TaskMerged> taskMerge(const TaskRun &R, const TaskBytes &State,
                               std::vector<TaskBytes> Parts);
/// The result and progress of \p State.
Expected<TaskProgress> taskProgress(const TaskRun &R, const TaskBytes &State);

/// A part file's bytes, for a door that keeps parts as files (vegasc's
/// --task-merge): refuses what is not a regular file or is larger than
/// any part (the format: tasks/PartFile.h).
Expected<std::string> readPartBytes(const std::string &Path);

} // namespace vf

#endif // VF_TASKS_H
