//===- runtime/output/ReportParts.h - The report's sections -----*- C++ -*-===//
//
// The parts of a run's section of the report (vf/Report.h), one file per
// part: the convergence plots and the iterations table
// (ReportConvergence.cpp), a multi-channel integrand's weights
// (ReportChannels.cpp), the adapted map and the allocation
// (ReportMap.cpp), the histograms (ReportHistograms.cpp); Report.cpp puts
// them on the page. Each returns HTML with the ids Report.h lists.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_OUTPUT_REPORTPARTS_H
#define VF_RUNTIME_OUTPUT_REPORTPARTS_H

#include "vf/Report.h"

#include <string>

namespace vf {

/// The most cells a heat map draws (a 2-D histogram's, the allocation's):
/// more are merged into blocks, so that a 1000 x 1000 histogram makes a
/// page of about 600 KB, not 212 MB.
constexpr unsigned ReportMaxCells = 2500;

/// Text made safe for HTML.
std::string escapeHtml(const std::string &S);
/// \p V printed with the printf format \p Fmt.
std::string formatNumber(double V, const char *Fmt = "%.10g");

/// The convergence plots (one per component, the first 8), in a
/// <div id='convergence-K'>.
std::string convergencePlots(const ReportRun &Run, unsigned K);
/// How many convergence plots convergencePlots draws for \p Run.
unsigned convergencePlotCount(const ReportRun &Run);
/// Every iteration, every component.
std::string iterationsTable(const ReportRun &Run, unsigned K);
/// The increment density per axis (the first 8 axes).
std::string mapDensities(const ReportRun &Run, unsigned K);
/// The allocation of samples over the first one or two axes.
std::string strataMap(const ReportRun &Run, unsigned K);
/// The scans of \p Options, each quantity against its parameter with a
/// band (ReportScan.cpp).
std::string scanSections(const ReportOptions &Options);
/// A multi-channel integrand's weights per iteration and its channels'
/// table ("" without channels; ReportChannels.cpp).
std::string channelSection(const ReportRun &Run, unsigned K);
/// The weight lists of run \p K (ReportVariations.cpp): empty without.
std::string weightListSection(const ReportRun &Run, unsigned K);
/// Every `hist` of the integrand, with its panels.
std::string histogramPlots(const ReportRun &Run, unsigned K,
                           const ReportOptions &Options);

} // namespace vf

#endif // VF_RUNTIME_OUTPUT_REPORTPARTS_H
