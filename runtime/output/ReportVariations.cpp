//===- runtime/output/ReportVariations.cpp - Weight lists in the report ---===//
//
// An integrand's weight lists (scale and PDF variations): per list, each
// entry over the integrand's value with its Monte Carlo error, the band
// shaded (the envelope, or a PDF set's error band at 68.27 %), and a
// table of the bands. Ratios, so that a list of small shifts is readable
// whatever the size of the cross section.
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

namespace vf {

namespace {

std::string listPlot(const WeightListResult &L, double Central, unsigned K,
                     std::size_t Index) {
  const std::size_t N = L.Values.size();
  std::vector<double> X(N), Y(N), E(N);
  double Lo = L.BandLow / Central, Hi = L.BandHigh / Central;
  for (std::size_t I = 0; I < N; ++I) {
    X[I] = double(I);
    Y[I] = L.Values[I] / Central;
    E[I] = L.Errors[I] / std::abs(Central);
    Lo = std::min(Lo, Y[I] - E[I]);
    Hi = std::max(Hi, Y[I] + E[I]);
  }
  const double Pad = 0.05 * (Hi - Lo) + 1e-12;
  SvgPlot P("weights-" + std::to_string(K) + "-" + std::to_string(Index), -0.5,
            double(N) - 0.5, std::min(Lo, 1.0) - Pad, std::max(Hi, 1.0) + Pad);
  P.labels("entry k (from the list's first)",
           escapeHtml(L.Name) + " / integrand's value");
  P.rect(-0.5, double(N) - 0.5, L.BandLow / Central, L.BandHigh / Central,
         "#dde7f5", L.Band + " band");
  P.hline(1, "#2a2", "");
  P.points(X, Y, E, "#1f5fbf");
  return P.str();
}

std::string bandTable(const Result &R, unsigned K) {
  std::string T = "<table id='weightstable-" + std::to_string(K) +
                  "'><tr><th>list</th><th>entries</th><th>band</th>"
                  "<th>central</th><th>low</th><th>high</th></tr>";
  for (const WeightListResult &L : R.WeightLists)
    T += "<tr><td>" + escapeHtml(L.Name) + "</td><td>" +
         std::to_string(L.Values.size()) + "</td><td>" + escapeHtml(L.Band) +
         "</td><td>" + formatNumber(L.BandCentral) + "</td><td>" +
         formatNumber(L.BandLow) + "</td><td>" + formatNumber(L.BandHigh) +
         "</td></tr>";
  return T + "</table>";
}

} // namespace

std::string weightListSection(const ReportRun &Run, unsigned K) {
  const Result &R = Run.R;
  if (R.WeightLists.empty() || R.Mean.empty() || R.Mean[0] == 0)
    return "";
  std::string S = "<h3>Variations (weight lists)</h3><div class='row'>";
  for (std::size_t I = 0; I < R.WeightLists.size(); ++I)
    S += listPlot(R.WeightLists[I], R.Mean[0], K, I);
  return S + "</div>" + bandTable(R, K) +
         "<p class='legend'>Each entry over the integrand's value, with its "
         "Monte Carlo error; shaded: the list's band (the envelope of its "
         "entries, or its PDF set's error band at 68.27 %).</p>";
}

} // namespace vf
