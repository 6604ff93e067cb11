//===- vf/Report.h - A run as a self-contained HTML page --------*- C++ -*-===//
//
// One HTML page for people (vegasc --report FILE.html): per run, its
// settings, the per-iteration table, a convergence plot (each iteration's
// estimate and error, the cumulative estimate and error, the exact value
// when known), the adapted map's increment density per axis, the
// allocation of samples to hypercubes over the first one or two axes,
// every histogram of the integrand with its errors, and the devices'
// statistics. Plain HTML and inline SVG drawn by the project: no network,
// no external script or style. Element ids (for tests and links): run-K,
// convergence-K, iterations-K, grid-K-D, strata-K, hist-K-NAME (and
// histerr-K-NAME, a 2-D histogram's relative errors), devices-K.
//
//===----------------------------------------------------------------------===//
#ifndef VF_REPORT_H
#define VF_REPORT_H

#include "vf/Integrator.h"
#include "vf/Result.h"

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

/// The page, one section per run.
std::string reportHtml(const std::string &Title,
                       const std::vector<ReportRun> &Runs);
/// The sections alone, for embedding in another page (a Jupyter cell:
/// the Python Result's _repr_html_): a <style> scoped to the class
/// vf-report and a <div class='vf-report'> of one section per run, no
/// script.
std::string reportFragment(const std::vector<ReportRun> &Runs);

} // namespace vf

#endif // VF_REPORT_H
