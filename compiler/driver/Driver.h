//===- driver/Driver.h - vegasc's options and modes -------------*- C++ -*-===//
//
// vegasc parses its command line into DriverOptions (vegasc.cpp) and runs one
// mode: check, emit, eval or integrate. Each mode returns an exit code.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_DRIVER_DRIVER_H
#define VF_COMPILER_DRIVER_DRIVER_H

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
};

int runEmitTokens(const DriverOptions &O);
/// Every mode that needs a checked program.
int runCompilerModes(const DriverOptions &O);

} // namespace vf

#endif // VF_COMPILER_DRIVER_DRIVER_H
