//===- runtime/output/ReportConvergence.cpp - Iterations in the report ----===//
//
// The iterations of a run for the report: a table with a row per
// iteration and component (the run's chi2/dof, Q, samples and time once
// per iteration), and a convergence plot per component (the first 8, so
// that a long vector keeps the page small). The warm-up iterations are
// shaded: their estimates are not in the cumulative one, and the scale
// follows the measured iterations (warm-up estimates far off are clipped
// at the frame).
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>

namespace vf {

namespace {

constexpr unsigned MaxPlots = 8;

double at(const std::vector<double> &V, unsigned C) {
  return C < V.size() ? V[C] : NAN;
}

/// The first row of iteration \p Row (component 0) carries the run's
/// columns, spanning its components.
std::string tableRow(const IterationRow &Row, unsigned C, unsigned Outputs) {
  const std::string Span =
      Outputs > 1 ? " rowspan='" + std::to_string(Outputs) + "'" : "";
  const bool Warm = Row.Warmup;
  std::string T = "<tr" + std::string(Warm ? " class='warmup'" : "") + ">";
  if (C == 0)
    T += "<td" + Span + ">" + std::to_string(Row.Index) + (Warm ? "w" : "") +
         "</td>";
  if (Outputs > 1)
    T += "<td>" + std::to_string(C) + "</td>";
  T += "<td>" + formatNumber(at(Row.Mean, C)) + "</td><td>" +
       formatNumber(at(Row.Error, C), "%.3g") + "</td>";
  T += Warm ? "<td>-</td><td>-</td>"
            : "<td>" + formatNumber(at(Row.CumMean, C)) + "</td><td>" +
                  formatNumber(at(Row.CumError, C), "%.3g") + "</td>";
  if (C == 0)
    T += (Warm ? "<td" + Span + ">-</td><td" + Span + ">-</td>"
               : "<td" + Span + ">" + formatNumber(Row.Chi2Dof, "%.3g") +
                     "</td><td" + Span + ">" + formatNumber(Row.Q, "%.3g") +
                     "</td>") +
         "<td" + Span + ">" + std::to_string(Row.Samples) + "</td><td" + Span +
         ">" + formatNumber(Row.Seconds, "%.3f") + "</td>";
  return T + "</tr>";
}

/// The frame's y range: the measured iterations' error bars and the exact
/// value.
std::pair<double, double> yRange(const ReportRun &Run, unsigned C) {
  double Lo = INFINITY, Hi = -INFINITY;
  for (const IterationRow &Row : Run.R.Iterations) {
    const double Y = at(Row.Mean, C), E = at(Row.Error, C);
    if (!Row.Warmup && std::isfinite(Y)) {
      Lo = std::min(Lo, Y - E);
      Hi = std::max(Hi, Y + E);
    }
  }
  if (Run.Exact && C == 0) {
    Lo = std::min(Lo, *Run.Exact);
    Hi = std::max(Hi, *Run.Exact);
  }
  if (!(Hi > Lo)) {
    const auto &Its = Run.R.Iterations;
    Lo = Hi = Its.empty() ? 0 : at(Its.back().Mean, C);
  }
  const double Pad = 0.08 * (Hi - Lo);
  return {Lo - Pad, Hi + Pad};
}

std::string convergence(const ReportRun &Run, unsigned K, unsigned C) {
  std::vector<double> X, Y, E, CX, CY, CE;
  double LastWarmup = 0;
  for (const IterationRow &Row : Run.R.Iterations) {
    X.push_back(Row.Index);
    Y.push_back(at(Row.Mean, C));
    E.push_back(at(Row.Error, C));
    if (Row.Warmup)
      LastWarmup = Row.Index;
    else {
      CX.push_back(Row.Index);
      CY.push_back(at(Row.CumMean, C));
      CE.push_back(at(Row.CumError, C));
    }
  }
  const auto [Lo, Hi] = yRange(Run, C);
  const bool Vector = Run.R.Outputs > 1;
  SvgPlot P("convergence-" + std::to_string(K) + "-" + std::to_string(C), 0.5,
            X.empty() ? 1.5 : X.back() + 0.5, Lo, Hi, Vector ? 540 : 640,
            Vector ? 240 : 300);
  P.labels("iteration",
           Vector ? "component " + std::to_string(C) : std::string("estimate"));
  if (LastWarmup > 0)
    P.rect(0.5, LastWarmup + 0.5, Lo, Hi, "#e6e6e6",
           "warm-up: not in the cumulative estimate");
  if (Run.Exact && C == 0)
    P.hline(*Run.Exact, "#2a2", "exact " + formatNumber(*Run.Exact));
  P.points(X, Y, E, "#1f5fbf", -3);
  P.line(CX, CY, "#c33");
  P.points(CX, CY, CE, "#c33", 3);
  return P.str();
}

} // namespace

unsigned convergencePlotCount(const ReportRun &Run) {
  return std::min(std::max(Run.R.Outputs, 1u), MaxPlots);
}

std::string convergencePlots(const ReportRun &Run, unsigned K) {
  std::string Out =
      "<div id='convergence-" + std::to_string(K) + "' class='row'>";
  const unsigned Shown = convergencePlotCount(Run);
  for (unsigned C = 0; C < Shown; ++C)
    Out += convergence(Run, K, C);
  Out += "</div><p class='legend'><span style='color:#1f5fbf'>&#9679; each "
         "iteration</span> <span style='color:#c33'>&#9679; cumulative"
         "</span> <span style='background:#e6e6e6'>&nbsp;warm-up&nbsp;"
         "</span>" +
         std::string(Run.Exact ? " <span style='color:#2a2'>- - exact</span>"
                               : "") +
         "</p>";
  if (Shown < Run.R.Outputs)
    Out += "<p>(the first " + std::to_string(Shown) + " of " +
           std::to_string(Run.R.Outputs) +
           " components; the table has every one)</p>";
  return Out;
}

std::string iterationsTable(const ReportRun &Run, unsigned K) {
  const unsigned Outputs = std::max(Run.R.Outputs, 1u);
  std::string T = "<table id='iterations-" + std::to_string(K) +
                  "'><tr><th>itn</th>" +
                  (Outputs > 1 ? "<th>component</th>" : "") +
                  "<th>estimate</th><th>error</th><th>cumulative</th>"
                  "<th>error</th><th>&chi;&sup2;/dof</th><th>Q</th>"
                  "<th>samples</th><th>s</th></tr>";
  for (const IterationRow &Row : Run.R.Iterations)
    for (unsigned C = 0; C < Outputs; ++C)
      T += tableRow(Row, C, Outputs);
  return T + "</table>";
}

} // namespace vf
