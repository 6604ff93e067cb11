//===- runtime/output/Report.cpp - A run as a self-contained HTML page ----===//
//
// The page (vf/Report.h): per run a section of its result lines, settings,
// iterations, map, histograms and devices, each part drawn by its own file
// (ReportParts.h), and a check the page runs on itself once loaded. The
// check's verdict is for tests, not readers: it is written into a hidden
// element.
//
//===----------------------------------------------------------------------===//

#include "vf/Report.h"

#include "output/ReportParts.h"

#include <cstdio>

namespace vf {

std::string escapeHtml(const std::string &S) {
  std::string O;
  for (char C : S)
    O += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;"
         : C == '\'' ? "&#39;" : std::string(1, C);
  return O;
}

std::string formatNumber(double V, const char *Fmt) {
  char B[40];
  std::snprintf(B, sizeof(B), Fmt, V);
  return B;
}

namespace {

std::string devices(const ReportRun &Run, unsigned K) {
  std::string T = "<table id='devices-" + std::to_string(K) +
                  "'><tr><th>device</th><th>samples</th><th>chunks</th>"
                  "<th>busy/s</th><th>idle/s</th><th>imbalance</th></tr>";
  for (const DeviceStats &D : Run.R.Devices)
    T += "<tr><td>" + escapeHtml(D.Name) + "</td><td>" +
         std::to_string(D.Samples) + "</td><td>" + std::to_string(D.Chunks) +
         "</td><td>" + formatNumber(D.BusySeconds, "%.4f") + "</td><td>" +
         formatNumber(D.IdleSeconds, "%.4f") + "</td><td>" +
         formatNumber(100 * D.imbalance(), "%.1f") + "%</td></tr>";
  return T + "</table>";
}

/// Every component's result, the joint chi2/Q and why the run stopped,
/// then the derived items with their propagated errors.
std::string resultLines(const Result &R) {
  std::string S;
  for (std::size_t C = 0; C < R.Mean.size() && C < R.Error.size(); ++C)
    S += "<p class='result'>result" +
         (R.Mean.size() > 1 ? "[" + std::to_string(C) + "]" : "") + " = " +
         formatNumber(R.Mean[C], "%.15g") + " &plusmn; " +
         formatNumber(R.Error[C], "%.3g") + "</p>";
  if (!R.Mean.empty())
    S += "<p class='result'>&chi;&sup2;/dof = " +
         formatNumber(R.Chi2Dof, "%.3g") +
         " &nbsp; Q = " + formatNumber(R.Q, "%.3g") +
         " &nbsp; stopped: " + stopReasonName(R.Stopped) + "</p>";
  for (const DerivedValue &D : R.Derived)
    S += "<p class='derived'>" + escapeHtml(D.Name) + " = " +
         formatNumber(D.Mean, "%.15g") + " &plusmn; " +
         formatNumber(D.Error, "%.3g") + " (derived)</p>";
  return S;
}

std::string section(const ReportRun &Run, unsigned K, const ReportOptions &O) {
  std::string S = "<section id='run-" + std::to_string(K) + "' data-hists='" +
                  std::to_string(Run.R.Histograms.size()) +
                  "' data-components='" +
                  std::to_string(convergencePlotCount(Run)) +
                  "' data-channels='" + std::to_string(Run.R.Channels.size()) +
                  "'><h2>" + escapeHtml(Run.Title) + "</h2>";
  S += resultLines(Run.R) + "<h3>Settings</h3><table class='settings'>";
  for (const auto &[Key, Value] : Run.Settings)
    S += "<tr><th>" + escapeHtml(Key) + "</th><td>" + escapeHtml(Value) +
         "</td></tr>";
  S += "</table><h3>Convergence</h3>" + convergencePlots(Run, K) +
       "<h3>Iterations</h3>" + iterationsTable(Run, K) +
       channelSection(Run, K) + weightListSection(Run, K) +
       "<h3>The adapted map: increment density per axis</h3><div "
       "class='row'>" +
       mapDensities(Run, K) + "</div>" + histogramPlots(Run, K, O);
  if (O.Strata)
    S += "<h3>Stratification</h3>" + strataMap(Run, K);
  return S + "<h3>Devices</h3>" + devices(Run, K) + "</section>";
}

} // namespace

/// The page's style, every rule scoped to .vf-report so that a fragment
/// embedded in another page (a notebook) leaves the rest of it alone.
constexpr const char *Style =
    "<style>.vf-report{font-family:sans-serif;max-width:1100px}.vf-report "
    "table{border-collapse:collapse;font-size:13px}.vf-report td,.vf-report "
    "th{border:1px solid #ccc;padding:2px 6px;text-align:right}.vf-report "
    ".settings th{text-align:left}.vf-report .row svg{margin:4px}.vf-report "
    ".legend{font-size:12px}.vf-report .warmup{color:#888}.vf-report "
    ".hist1 svg{display:block}.vf-report .capped{color:#a40}.vf-report "
    "section{border-top:2px solid #888;margin-top:2em}</style>";

std::string reportFragment(const std::vector<ReportRun> &Runs,
                           const ReportOptions &Options) {
  std::string F =
      std::string(Style) + "<div class='vf-report'>" + scanSections(Options);
  for (unsigned K = 0; K < Runs.size(); ++K)
    F += section(Runs[K], K, Options);
  return F + "</div>";
}

std::string reportHtml(const std::string &Title,
                       const std::vector<ReportRun> &Runs,
                       const ReportOptions &Options) {
  std::string Page =
      "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" +
      escapeHtml(Title) +
      "</title></head><body style='margin:2em'><h1 "
      "style='font-family:sans-serif'>" +
      escapeHtml(Title) + "</h1>" + reportFragment(Runs, Options);
  // The page checks itself once loaded (a test reads the verdict from the
  // hidden element): every run has its plots (one convergence plot per
  // component drawn, one per histogram, the weights' plot of a
  // multi-channel integrand), and no script error happened.
  Page += "<div id='selfcheck' hidden></div><script>(function(){var bad=[];"
          "window.addEventListener('error',function(e){bad.push(e.message)});"
          "var n=document.querySelectorAll('section').length,missing=[];"
          "for(var k=0;k<n;k++){['convergence-','devices-'].forEach("
          "function(p){if(!document.getElementById(p+k))missing.push(p+k)});"
          "if(!document.getElementById('grid-'+k+'-0'))missing.push('grid-'+k+"
          "'-0');var s=document.getElementById('run-'+k);if(s.querySelectorAll("
          "'svg[id^=hist-]').length!=+s.dataset.hists)missing.push('hist-'+k);"
          "if(s.querySelectorAll('svg[id^=convergence-]').length!=+s.dataset."
          "components)missing.push('convergence-'+k+'-*');if(+s.dataset."
          "channels&&!document.getElementById('channels-'+k))missing.push("
          "'channels-'+k)}"
          "document.getElementById('selfcheck').textContent=(bad.length"
          "||missing.length?'FAILED '+bad.concat(missing).join(' '):'ok '+n+"
          "' runs');})();</script></body></html>\n";
  return Page;
}

} // namespace vf
