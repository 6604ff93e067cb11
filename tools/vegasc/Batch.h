//===- vegasc/Batch.h - vegasc's batch mode (TOML) --------------*- C++ -*-===//
//
// `vegasc runs.toml` (or `--config runs.toml`) runs every [[run]] of a TOML
// file (BatchConfig.h) and prints a summary table; the results go to one
// JSON document and optionally a CSV file. Options of the batch mode that
// the other modes do not have are collected here.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_BATCH_H
#define VF_TOOLS_VEGASC_BATCH_H

#include <string>

namespace vf {

struct DriverOptions;

struct BatchOptions {
  std::string Config;    ///< the TOML file
  bool FailFast = false; ///< stop at the first failed run
  std::string Csv;       ///< --csv FILE: overrides [defaults] csv
};

/// True when \p File names a batch file (by its .toml extension).
bool isBatchFile(const std::string &File);

/// Runs the batch. Exit code 0 only when every run succeeded; 1 when the
/// TOML file has errors or any run failed; 2 for conflicting options.
int runBatch(const DriverOptions &O, const BatchOptions &B);

} // namespace vf

#endif // VF_TOOLS_VEGASC_BATCH_H
