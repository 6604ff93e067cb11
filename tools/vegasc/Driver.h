//===- vegasc/Driver.h - vegasc's options and modes -------------*- C++ -*-===//
//
// vegasc parses its command line into DriverOptions (vegasc.cpp) and runs one
// mode: check, emit, eval or integrate. Each mode returns an exit code.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_DRIVER_H
#define VF_TOOLS_VEGASC_DRIVER_H

#include "vegasc/RunOptions.h"

#include "vf/Cluster.h"
#include "vf/Developer.h"
#include "vf/Report.h"

#include <nlohmann/json_fwd.hpp>
#include "vf/Integrator.h"

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vf {

/// The whole command line: what the developer modes read of it
/// (vf/Developer.h: the file, the integrand, the parameters, the compile
/// settings) and the rest.
struct DriverOptions : DeveloperOptions {
  // Integration (the default mode): the settings a batch run has too.
  RunSettings Run;
  bool NoAdaptStrata = false; ///< applied to Run.Beta once parsed
  std::string Json;
  std::string HistCsv; ///< the histograms as CSV (vf/HistogramCsv.h)
  bool Quiet = false;
  bool Stats = false;
  bool Summary = false; ///< --summary: the vegas-style table after the run
  bool ListDevices = false;

  // Checkpoints and grids (docs/user-guide.md, "Checkpoints, resuming and
  // grids").
  std::string Checkpoint; // save the state here after every iteration
  std::string Resume;     // continue the run saved here
  std::string SaveGrid;   // write the trained map here after the run
  std::string LoadGrid;   // start from this map instead of a uniform one

  std::string Report;           ///< --report FILE.html (runs and batches)
  std::optional<double> Exact;  ///< --exact V: drawn in the report
  /// --report-strata, --report-log, --report-ref (vf/Report.h).
  ReportOptions ReportOpts;

  /// The MPI ranks when started by mpirun/srun (null otherwise): every
  /// rank integrates, rank 0 alone prints and writes files.
  std::shared_ptr<Cluster> Ranks;
};

/// A run set up and ready: what runIntegrate needs after setUpRun.
struct RunSetup {
  IntegrandInfo Info; ///< keeps its module's code alive
  IntegrandInfo Record; ///< --events: the event record (NAME_event)
  EventFileOptions Events; ///< --events (Events 0: none)
  std::vector<double> Params;
  IntegratorOptions IO;
  std::unique_ptr<Integrator> Int;
};

/// Everything before the first iteration: options, compile, integrator,
/// parameters, checkpoints. Returns an exit code (ExitOk when ready), the
/// failure already reported (Integrate.cpp).
int setUpRun(const DriverOptions &O, bool Warnings, RunSetup &S);
/// setUpRun up to the integrator: everything but S.Int, for a caller that
/// makes its own (task commands, vf/Tasks.h).
int prepareRun(const DriverOptions &O, bool Warnings, RunSetup &S);

/// The whole command line (vegasc.cpp): main() of vegasc (main.cpp) and of
/// the tests' vegasc-emu (tests/fakecuda) call it.
int vegascMain(int argc, char **argv);
/// Prints the CPU and every GPU, or why there is none (Devices.cpp).
int runListDevices();
/// Compiles the file through vf::Module, integrates the selected integrand
/// with vf::Integrator and prints the table (Integrate.cpp).
int runIntegrate(const DriverOptions &O);
/// With --eval and --load-grid or --resume, sets O's StateValues: a
/// multi-channel integrand's channels at a point as that state has them
/// (EvalState.cpp).
void armStateValues(DriverOptions &O);

/// A section of --report's page (Report.cpp): \p Settings (a JSON object)
/// as rows, the result and the map.
/// --report-ref FILE.csv: the file's 1-D histograms as references of the
/// report; what is wrong with it, or "".
std::string addReportReferences(const std::string &Path, ReportOptions &O);
ReportRun reportRun(std::string Title, const nlohmann::ordered_json &Settings,
                    Result R, Integrator::Grid Grid,
                    std::optional<double> Exact);

// Events after a run, for both doors (Events.cpp; the settings are
// checked by eventFileOptions, RunOptions.h).
class Module;
/// The event record of integrand \p Name in \p M: S.Events.Record, or
/// NAME_event by convention; \p Where names the file in the error.
Expected<IntegrandInfo> eventRecord(const Module &M, const RunSettings &S,
                                    const std::string &Name,
                                    const std::string &Where);

/// After a run: freezes \p Int, draws \p E's events with the result's
/// cross section (component 0 and its error) in the header, and writes
/// the file (vf::writeEventFile).
Expected<EventFileReport> writeRunEvents(Integrator &Int,
                                         const IntegrandInfo &Record,
                                         EventFileOptions E, const Result &R);
/// "N unweighted events to 'FILE' (LHE): efficiency E, w_max W,
/// overshoot P%": what a door says once the file is written.
std::string eventsWritten(const EventFileReport &Rep,
                          const EventFileOptions &E);
/// A batch run's JSON `events` (docs/json.md): the file, and what was
/// written (\p Rep) or why nothing was (\p Error).
nlohmann::ordered_json eventsJson(const EventFileOptions &E,
                                  const std::string &Record,
                                  const std::optional<EventFileReport> &Rep,
                                  const std::string &Error);

// Shared by the modes (Reporting.cpp).
int fail(const std::string &Msg, int Code = ExitInputError);
/// Writes \p Text to the file \p Path atomically (vf/SafeFiles.h) or,
/// for "-", to standard output; \p What names it ("the JSON result").
/// Reports a failure with fail() and returns false: the caller goes on
/// with its other outputs.
bool writeOutput(const std::string &Path, const std::string &Text,
                 const std::string &What);
/// Whether \p Path ("" and "-" always are) can be written by writeOutput,
/// checked before a run so that a FIFO, a device, a directory or a missing
/// folder is refused before the work rather than after it; if not, says
/// why, headed by \p Source (the flag or key), with fail() (exit 1, as a
/// checkpoint or grid that cannot be used).
bool checkOutput(const std::string &Path, const std::string &What,
                 const std::string &Source);
/// A file a command writes, with the flag or key that named it.
struct NamedPath {
  std::string Path, What;
};
class Module;
/// No output of a command may replace a file it reads, or another output
/// (vf/OutputGuard.h): a single run (after compiling, so that imports
/// and extern files count), a batch, a task command. OutputPaths.cpp.
Status checkRunPaths(const DriverOptions &O, const Module &M);
Status
checkBatchPaths(const std::string &BatchFile,
                const std::map<std::string, std::shared_ptr<Module>> &Modules,
                const std::vector<NamedPath> &Outputs);
Status checkTaskPaths(const std::string &Source, const std::string &State,
                      const std::vector<std::string> &Parts,
                      const std::vector<NamedPath> &Outputs);
/// The integrand named by --integrand, or the file's only one, among
/// \p Names; "" when there is none such (reported with fail()).
std::string selectIntegrand(const std::vector<std::string> &Names,
                            const DriverOptions &O);
/// Applies --param NAME=VALUE to \p Defaults (one per name of \p Names)
/// into \p Values; false when one is malformed or unknown (reported).
bool parseParams(const std::vector<std::string> &Names,
                 const std::vector<double> &Defaults, const DriverOptions &O,
                 std::vector<double> &Values);
/// Prints what a compile refused: located diagnostics as they are, any
/// other failure (a message without a location) as a "vegasc: error:" line.
void printCompileError(const std::string &Msg);
/// \p S without the white space (newlines included) at its end.
std::string withoutTrailingSpace(std::string_view S);
/// With -v: the compile cache's hits, misses and corrupt entries.
void printCacheStats(unsigned Hits, unsigned Misses, unsigned Corrupt);
/// CPU worker threads of an integrator (Integrator::devices()).
unsigned cpuThreadsOf(const Integrator &Int);
/// Whether \p O, given a program, integrates it (rather than --check,
/// --emit or --eval): the only mode MPI ranks share.
inline bool integrates(const DriverOptions &O) {
  return !O.Check && O.Emit.empty() && !O.Eval;
}

} // namespace vf

#endif // VF_TOOLS_VEGASC_DRIVER_H
