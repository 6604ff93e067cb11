//===- runtime/output/ReportScan.cpp - A scan in the report ---------------===//
//
// A batch run that scans one parameter is a curve: each quantity (every
// component, every derived item) against the parameter, the points with
// their error bars, a line through them and the band mean +- error as two
// dashed lines, so a line shape reads at a glance. The first 8
// quantities, as for the convergence plots.
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>

namespace vf {

namespace {

constexpr std::size_t MaxQuantities = 8;

std::string scanPlot(const ReportScan &S, const ReportScan::Quantity &Q,
                     const std::string &Id) {
  std::vector<double> Lo, Hi;
  double Y0 = INFINITY, Y1 = -INFINITY;
  for (std::size_t I = 0; I < Q.Mean.size() && I < Q.Error.size(); ++I) {
    Lo.push_back(Q.Mean[I] - Q.Error[I]);
    Hi.push_back(Q.Mean[I] + Q.Error[I]);
    if (std::isfinite(Lo.back()) && std::isfinite(Hi.back()))
      Y0 = std::min(Y0, Lo.back()), Y1 = std::max(Y1, Hi.back());
  }
  if (!(Y0 <= Y1))
    Y0 = 0, Y1 = 1;
  const auto [X0, X1] = std::minmax_element(S.X.begin(), S.X.end());
  SvgPlot P(Id, *X0, *X1, Y0, Y1, 640, 260);
  P.line(S.X, Hi, "#7aa6d8", true);
  P.line(S.X, Lo, "#7aa6d8", true);
  P.line(S.X, Q.Mean, "#1f5fa8");
  P.points(S.X, Q.Mean, Q.Error, "#1f5fa8");
  P.labels(S.Parameter, Q.Name);
  return P.str();
}

} // namespace

std::string scanSections(const ReportOptions &O) {
  std::string Out;
  for (std::size_t K = 0; K < O.Scans.size(); ++K) {
    const ReportScan &S = O.Scans[K];
    if (S.X.size() < 2)
      continue;
    const std::string Id = "scan-" + std::to_string(K);
    Out += "<div class='scan' id='" + Id +
           "'><h2>Scan: " + escapeHtml(S.Title) + " over " +
           escapeHtml(S.Parameter) +
           "</h2><p class='legend'>Each point with its error bar; the dashed "
           "lines are the band mean &plusmn; error.</p>";
    const std::size_t N = std::min(S.Quantities.size(), MaxQuantities);
    for (std::size_t Q = 0; Q < N; ++Q)
      Out += scanPlot(S, S.Quantities[Q], Id + "-" + std::to_string(Q));
    if (S.Quantities.size() > N)
      Out += "<p class='capped'>The first " + std::to_string(N) + " of " +
             std::to_string(S.Quantities.size()) +
             " quantities are drawn; the CSV has them all.</p>";
    Out += "</div>";
  }
  return Out;
}

} // namespace vf
