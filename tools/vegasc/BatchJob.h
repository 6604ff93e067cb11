//===- vegasc/BatchJob.h - One integration of a batch -----------*- C++ -*-===//
//
// A batch (Batch.cpp) runs a [[run]] entry once per scan point: each such
// integration is a BatchJob, holding what it ran with and what came out,
// for the summary table, the JSON document, the CSV file (BatchCsv.cpp)
// and the report.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_BATCHJOB_H
#define VF_TOOLS_VEGASC_BATCHJOB_H

#include "vegasc/BatchConfig.h"

#include "vf/EventFiles.h"
#include "vf/Integrator.h"
#include "vf/Report.h"

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vf {

enum class RunStatus { Pending, Ok, Failed, Skipped };

/// One integration: a [[run]] at one scan point.
struct BatchJob {
  const BatchRun *R = nullptr;
  std::vector<std::pair<std::string, double>> Point; ///< scanned values
  std::shared_ptr<IntegrandInfo> Info; ///< null if the entry failed
  std::vector<double> Params;          ///< every parameter's value
  std::uint64_t Seed = 0;              ///< scanSeed (BatchScanKeys.h)
  unsigned CpuThreads = 0;             ///< as the integrator set them up
  RunStatus Status = RunStatus::Pending;
  std::string Error;
  Result Res;
  Integrator::Grid Grid; ///< the trained map, for --report
  /// events_out: the record, what was written or why not.
  std::shared_ptr<IntegrandInfo> Record;
  EventFileOptions Events; ///< Events 0: none
  std::optional<EventFileReport> EventsWritten;
  std::string EventsError;
};

/// The batch's CSV table (docs/user-guide.md, "The JSON document and the
/// CSV file"): a row per job and component, a column per parameter of any
/// run; written atomically, a failure reported. False when it failed.
bool writeBatchCsv(const std::vector<BatchJob> &Jobs, const std::string &Path);

/// The batch's wide CSV table (csv_layout = "wide", the default with a
/// scan): a row per job, plot-ready: the run, the scanned parameters, every
/// component's value and error, chi2/dof, Q, the covariance's upper
/// triangle, the seed, the status and the message. False when it failed.
bool writeWideCsv(const std::vector<BatchJob> &Jobs, const std::string &Path);

/// The batch's scans of one parameter, for the report: each run's points
/// in order, every component and derived item (vegasc/Report.cpp).
std::vector<ReportScan> reportScans(const std::vector<BatchJob> &Jobs);

} // namespace vf

#endif // VF_TOOLS_VEGASC_BATCHJOB_H
