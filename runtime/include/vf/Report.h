//===- vf/Report.h - A run as a self-contained HTML page --------*- C++ -*-===//
//
// One HTML page for people (vegasc --report FILE.html): per run, its
// settings, the per-iteration table of every component, a convergence
// plot per component (each iteration's estimate and error, the cumulative
// estimate and error, the warm-up shaded, the exact value when known), a
// multi-channel integrand's weights per iteration (a line per channel)
// and its channels' table, the
// adapted map's increment density per axis, every histogram of the
// integrand with its errors (1-D: a relative-error panel below, and a
// reference with a ratio panel when given), the devices' statistics, and
// on request the allocation of samples to hypercubes. Plain HTML and
// inline SVG drawn by the project: no network, no external script or
// style. Element ids (for tests and links): run-K, convergence-K (and in
// it convergence-K-C per component), iterations-K, grid-K-D, strata-K,
// hist-K-NAME, histrel-K-NAME (a 1-D histogram's relative errors),
// histratio-K-NAME (its ratio to the reference), histerr-K-NAME (a 2-D
// histogram's relative errors), channels-K (the weights' plot),
// channeltable-K, devices-K.
//
//===----------------------------------------------------------------------===//
#ifndef VF_REPORT_H
#define VF_REPORT_H

#include "vf/Integrator.h"
#include "vf/Result.h"

#include "vf/Expected.h"

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vf {

struct ReportRun {
  std::string Title;
  /// Settings shown as a table, in order.
  std::vector<std::pair<std::string, std::string>> Settings;
  Result R;
  Integrator::Grid Grid;
  std::optional<double> Exact; ///< drawn on the convergence plot
};

/// A reference for a 1-D histogram (a prediction, another run): per bin
/// its edges and its integral (as the histogram's bins hold), with an
/// error (0 when unknown). Its bins may differ from the histogram's; the
/// ratio panel needs the same ones.
struct ReferenceCurve {
  std::vector<double> Edges; ///< Values.size() + 1, increasing
  std::vector<double> Values, Errors;
};

/// What a page shows beyond its defaults: settings of the report only,
/// never of a run (docs/user-guide.md, "The report").
/// A scan of one parameter (a batch run's points): each quantity's value
/// and error at each point, drawn against the parameter with its band.
struct ReportScan {
  std::string Title;     ///< the run's name
  std::string Parameter; ///< the scanned parameter
  std::vector<double> X; ///< its value at each point
  struct Quantity {
    std::string Name; ///< "result", "result[1]", a derived item's name
    std::vector<double> Mean, Error; ///< one per point
  };
  std::vector<Quantity> Quantities;
};

struct ReportOptions {
  /// The map of samples per hypercube, which few read: off by default so
  /// that a simple page stays small.
  bool Strata = false;
  /// 1-D histograms drawn with a logarithmic y axis, by name ("all": every
  /// one).
  std::vector<std::string> LogY;
  /// Per histogram name, a reference drawn over it with a ratio panel.
  std::map<std::string, ReferenceCurve> References;
  /// Scans, drawn before the runs' sections (a batch's report).
  std::vector<ReportScan> Scans;
};

/// The page, one section per run.
std::string reportHtml(const std::string &Title,
                       const std::vector<ReportRun> &Runs,
                       const ReportOptions &Options = {});
/// The sections alone, for embedding in another page (a Jupyter cell:
/// the Python Result's _repr_html_): a <style> scoped to the class
/// vf-report and a <div class='vf-report'> of one section per run, no
/// script.
std::string reportFragment(const std::vector<ReportRun> &Runs,
                           const ReportOptions &Options = {});

/// The 1-D histograms of a CSV table in the form vegasc --hist-csv writes
/// (vf/HistogramCsv.h; flow rows and 2-D rows are skipped), by name, as
/// references; an error names the line that does not read.
Expected<std::map<std::string, ReferenceCurve>>
readReferenceCsv(const std::string &Text);

} // namespace vf

#endif // VF_REPORT_H
