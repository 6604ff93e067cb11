//===- driver/Driver.h - vegasc's options and modes -------------*- C++ -*-===//
//
// vegasc parses its command line into DriverOptions (vegasc.cpp) and runs one
// mode: check, emit, eval or integrate. Each mode returns an exit code.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_DRIVER_DRIVER_H
#define VF_COMPILER_DRIVER_DRIVER_H

#include "vf/Cluster.h"

#include <nlohmann/json_fwd.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace vf {

/// Documented exit codes (docs/user-guide.md).
enum ExitCode {
  ExitOk = 0,         ///< success
  ExitInputError = 1, ///< errors in the input or a failed run
  ExitUsage = 2,      ///< bad command line
};

struct DriverOptions {
  std::string File;
  bool Check = false;
  std::string Emit;
  bool Eval = false;
  std::string At;
  std::string Integrand;
  std::vector<std::string> Params; // "name=value"
  std::string GpuArch = "sm_90";
  bool NoCache = false;
  std::string CacheDir;
  bool Verbose = false;
  bool NoWarnings = false;
  unsigned ErrorLimit = 20;

  // Integration (the default mode).
  std::uint64_t Calls = 1000000;
  unsigned Iterations = 10;
  unsigned Warmup = 5;
  std::uint64_t Seed = 1;
  std::string Devices = "all";
  std::string Json;
  double Alpha = 0.5;
  double Beta = 0.75;
  unsigned MaxNinc = 1000;
  bool NoAdaptStrata = false;
  std::string OnNonFinite = "stop";
  bool Quiet = false;
  std::string Schedule = "adaptive";
  bool Stats = false;
  bool ListDevices = false;

  // Checkpoints and grids (docs/user-guide.md, "Checkpoints, resuming and
  // grids").
  std::string Checkpoint; // save the state here after every iteration
  std::string Resume;     // continue the run saved here
  std::string SaveGrid;   // write the trained map here after the run
  std::string LoadGrid;   // start from this map instead of a uniform one

  /// The MPI ranks when started by mpirun/srun (null otherwise): every
  /// rank integrates, rank 0 alone prints and writes files.
  std::shared_ptr<Cluster> Ranks;
};

class Compiler;
class Integrator;
struct CompileOptions;
struct IntegratorOptions;
struct Program;
struct IntegrandDecl;

int runEmitTokens(const DriverOptions &O);
/// Prints the CPU and every GPU, or why there is none (Devices.cpp).
int runListDevices();
/// Integrates the selected integrand and prints the table (Integrate.cpp).
int runIntegrate(std::shared_ptr<Program> P, const DriverOptions &O,
                 Compiler &C, const CompileOptions &CO);

// Shared by the modes (Modes.cpp).
int fail(const std::string &Msg, int Code = ExitInputError);
/// Writes \p Text to the file \p Path ("-": standard output); reports a
/// failure with fail() and returns false.
bool writeOutput(const std::string &Path, const std::string &Text);
const IntegrandDecl *selectIntegrand(const Program &P, const DriverOptions &O);
bool parseParams(const Program &P, const DriverOptions &O,
                 std::vector<double> &Values);
/// A --devices list (all, cpu, cpu:N, gpu, gpu:N[,M], sim:R,
/// comma-separated) into \p IO's Threads, SimulatedDevices, NoCpu, Gpus and
/// AllGpus (with GpusRequired for `gpu`). Returns "" or what is malformed;
/// whether the machine has the devices is create()'s to say.
std::string parseDeviceList(const std::string &Spec, IntegratorOptions &IO);

/// The `settings` keys a single run and a batch run share (docs/json.md).
struct RunSettings {
  std::uint64_t Seed = 1, Calls = 0;
  unsigned Iterations = 0, Warmup = 0, Ninc = 0;
  double Alpha = 0, Beta = 0;
  std::string Devices, Schedule, OnNonFinite;
  unsigned CpuThreads = 0; ///< per process, as the integrator set them up
  int MpiRanks = 1;
  std::vector<std::pair<std::string, double>> Params;
};
/// Appends \p R's keys to \p S, in the documented order.
void addRunSettings(nlohmann::ordered_json &S, const RunSettings &R);
/// CPU worker threads of an integrator (Integrator::devices()).
unsigned cpuThreadsOf(const Integrator &Int);
/// Every mode that needs a checked program.
int runCompilerModes(const DriverOptions &O);
/// Whether \p O, given a program, integrates it (rather than --check,
/// --emit or --eval): the only mode MPI ranks share.
inline bool integrates(const DriverOptions &O) {
  return !O.Check && O.Emit.empty() && !O.Eval;
}

} // namespace vf

#endif // VF_COMPILER_DRIVER_DRIVER_H
