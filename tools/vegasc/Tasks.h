//===- vegasc/Tasks.h - vegasc's task-engine commands -----------*- C++ -*-===//
//
// One iteration as independent tasks (runtime/tasks): make the initial
// state, compute a part of the state's next iteration, merge parts into
// the next state, print a state's result. Every command takes the same
// FILE.vf and run settings; the state refuses others.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_TASKS_H
#define VF_TOOLS_VEGASC_TASKS_H

#include "vegasc/Driver.h"

#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace vf {

struct TaskOptions {
  std::string Init;               ///< --task-init: write the initial state
  std::string Part;               ///< --task-part RANGE (A:B or I/N)
  std::string Weights;            ///< --task-weights W,...: I/N's sizes
  std::vector<std::string> Merge; ///< --task-merge PART...
  bool Result = false;            ///< --task-result
  std::string State;              ///< --state: the iteration's state
  std::string Out;                ///< --out: the part or the next state
  bool any() const {
    return !Init.empty() || !Part.empty() || !Merge.empty() || Result ||
           !Weights.empty();
  }
};

void addTaskOptions(CLI::App &App, TaskOptions &T);
/// Runs the one task command \p T asks for; an exit code.
int runTask(const DriverOptions &O, const TaskOptions &T);

} // namespace vf

#endif // VF_TOOLS_VEGASC_TASKS_H
