//===- vegasc/OutputPaths.cpp - What each command reads and writes --------===//
//
// The lists an OutputGuard (vf/OutputGuard.h) checks for a single run,
// a batch and a task command: every file the command reads (the source,
// its imports and extern files, checkpoints, grids, the batch file, the
// state and the parts) and every file it writes, each named as the user
// named it (the flag or the TOML key). Checked before the work: an output
// that would replace an input, or another output, is a usage error.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include "vf/Module.h"
#include "vf/OutputGuard.h"

namespace vf {

namespace {

void addSources(OutputGuard &G, const Module &M) {
  for (const std::string &F : M.inputFiles())
    G.input(F, "the source file");
}

} // namespace

Status checkRunPaths(const DriverOptions &O, const Module &M) {
  OutputGuard G;
  G.input(O.File, "the source file");
  addSources(G, M);
  G.input(O.Resume, "the checkpoint --resume reads");
  G.input(O.LoadGrid, "the grid --load-grid reads");
  G.output(O.Json, "--json");
  G.output(O.Checkpoint, "--checkpoint", "the checkpoint --resume reads");
  G.output(O.SaveGrid, "--save-grid", "the grid --load-grid reads");
  G.output(O.HistCsv, "--hist-csv");
  G.output(O.Report, "--report");
  G.output(O.Run.Events.Out, "--events-out");
  return G.check();
}

Status
checkBatchPaths(const std::string &BatchFile,
                const std::map<std::string, std::shared_ptr<Module>> &Modules,
                const std::vector<NamedPath> &Outputs) {
  OutputGuard G;
  G.input(BatchFile, "the batch file");
  for (const auto &[Key, M] : Modules)
    if (M)
      addSources(G, *M);
  for (const NamedPath &P : Outputs)
    G.output(P.Path, P.What);
  return G.check();
}

Status checkTaskPaths(const std::string &Source, const std::string &State,
                      const std::vector<std::string> &Parts,
                      const std::vector<NamedPath> &Outputs) {
  OutputGuard G;
  G.input(Source, "the source file");
  G.input(State, "the state --state reads");
  for (const std::string &P : Parts)
    G.input(P, "a part --task-merge reads");
  for (const NamedPath &P : Outputs)
    G.output(P.Path, P.What);
  return G.check();
}

} // namespace vf
