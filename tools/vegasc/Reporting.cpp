//===- vegasc/Reporting.cpp - How vegasc's modes report and write ---------===//
//
// What the integration modes (a single run, a batch, the task commands)
// share: errors in the compiler's style ("vegasc: error: ...") with their
// exit codes, the outputs written atomically or to standard output, and
// the integrand and parameters the command line names (vf/CommandLine.h,
// the developer modes' reading too).
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"
#include "vegasc/Streams.h"

#include "vf/CommandLine.h"
#include "vf/Integrator.h"
#include "vf/SafeFiles.h"

#include <ostream>

namespace vf {

int fail(const std::string &Msg, int Code) {
  errs() << "vegasc: error: " << Msg << "\n";
  return Code;
}

bool writeOutput(const std::string &Path, const std::string &Text,
                 const std::string &What) {
  if (Path == "-") {
    outs() << Text;
    // Said here, not again at exit.
    const std::string Why = takeWriteError(outs());
    if (Why.empty())
      return true;
    fail("cannot write " + What + " to standard output: " + Why);
    return false;
  }
  // Atomically: a full disk or a kill leaves the old file as it was.
  if (Status S = writeFileAtomically(Path, Text, What); !S) {
    fail(S.message());
    return false;
  }
  return true;
}

bool checkOutput(const std::string &Path, const std::string &What,
                 const std::string &Source) {
  if (Path.empty() || Path == "-")
    return true;
  if (Status S = checkWritable(Path, What); !S) {
    fail(Source + ": " + S.message());
    return false;
  }
  return true;
}

std::string selectIntegrand(const std::vector<std::string> &Names,
                            const DriverOptions &O) {
  Expected<std::string> Name = chooseIntegrand(Names, O.Integrand, O.File);
  if (Name)
    return *Name;
  fail(Name.message());
  return "";
}

bool parseParams(const std::vector<std::string> &Names,
                 const std::vector<double> &Defaults, const DriverOptions &O,
                 std::vector<double> &Values) {
  Expected<std::vector<double>> Applied =
      applyParams(Names, Defaults, O.Params);
  if (!Applied) {
    fail(Applied.message(), ExitUsage);
    return false;
  }
  Values = std::move(*Applied);
  return true;
}

void printCompileError(const std::string &Msg) {
  // Located diagnostics are printed as they are; a message without one
  // (a file that cannot be read) gets vegasc's heading.
  if (Msg.find(": error: ") != std::string::npos)
    errs() << Msg;
  else
    fail(withoutTrailingSpace(Msg));
}

std::string withoutTrailingSpace(std::string_view S) {
  return std::string(S.substr(0, S.find_last_not_of(" \t\n\v\f\r") + 1));
}

void printCacheStats(unsigned Hits, unsigned Misses, unsigned Corrupt) {
  errs() << "vegasc: cache: " << Hits << " hit" << (Hits == 1 ? "" : "s")
         << ", " << Misses << " miss" << (Misses == 1 ? "" : "es") << ", "
         << Corrupt << " corrupt\n";
}

unsigned cpuThreadsOf(const Integrator &Int) {
  unsigned N = 0;
  for (const WorkerInfo &W : Int.devices())
    N += W.Kind == "cpu";
  return N;
}

} // namespace vf
