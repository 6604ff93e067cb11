//===- runtime/output/ReportMap.cpp - The map and strata in the report ----===//
//
// The increment density of axis d is 1 / (N dx_i) per increment of width
// dx_i: 1 for a uniform map, large where the map concentrates samples. A
// plot is 215 pixels wide, so more than 250 increments are drawn as
// groups of neighbours, each at its average density (the share of the
// increments over the width they span). The allocation over two axes sums
// n_h over the other axes (a heat map of nstrat x nstrat cells, merged
// into blocks beyond ReportMaxCells); over one axis, bars. Drawn only on
// request (ReportOptions::Strata).
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>

namespace vf {

namespace {

constexpr unsigned MaxSteps = 250;

std::string density(const Integrator::Grid &G, unsigned K, unsigned D) {
  const double *E = G.Edges.data() + std::size_t(D) * (G.Ninc + 1);
  const unsigned Group = (G.Ninc + MaxSteps - 1) / MaxSteps;
  std::vector<double> X, Y;
  double Max = 0;
  for (unsigned I = 0; I < G.Ninc; I += Group) {
    const unsigned J = std::min(I + Group, G.Ninc);
    const double Dx = E[J] - E[I];
    const double Density = Dx > 0 ? double(J - I) / (G.Ninc * Dx) : 0;
    X.insert(X.end(), {E[I], E[J]});
    Y.insert(Y.end(), {Density, Density});
    Max = std::max(Max, Density);
  }
  SvgPlot P("grid-" + std::to_string(K) + "-" + std::to_string(D), 0, 1, 0,
            Max * 1.05, 300, 180);
  P.labels("x" + std::to_string(D) + " (unit cube)", "density");
  P.line(X, Y, "#1f5fbf");
  return P.str();
}

} // namespace

std::string mapDensities(const ReportRun &Run, unsigned K) {
  const Integrator::Grid &G = Run.Grid;
  if (G.Edges.empty())
    return "<p>No map yet.</p>";
  std::string Out;
  const unsigned Shown = std::min(G.Dim, 8u);
  for (unsigned D = 0; D < Shown; ++D)
    Out += density(G, K, D);
  if (Shown < G.Dim)
    Out += "<p>(the first 8 of " + std::to_string(G.Dim) + " axes)</p>";
  if (G.Ninc > MaxSteps)
    Out += "<p class='legend'>(" + std::to_string(G.Ninc) +
           " increments per axis, drawn in groups of " +
           std::to_string((G.Ninc + MaxSteps - 1) / MaxSteps) +
           " at their average density)</p>";
  return Out;
}

std::string strataMap(const ReportRun &Run, unsigned K) {
  const Integrator::Grid &G = Run.Grid;
  const unsigned M = G.Nstrat;
  if (G.Samples.empty() || M == 0)
    return "<p>No allocation yet.</p>";
  const unsigned Axes = G.Dim >= 2 ? 2 : 1;
  // F x F strata per drawn cell, so that at most ReportMaxCells are drawn.
  unsigned F = 1;
  while (Axes == 2 &&
         double((M + F - 1) / F) * ((M + F - 1) / F) > ReportMaxCells)
    ++F;
  const unsigned Cm = (M + F - 1) / F;
  std::vector<double> Cells(Axes == 2 ? Cm * Cm : M, 0.0);
  for (std::uint64_t H = 0; H < G.Samples.size(); ++H) {
    const unsigned A = unsigned(H % M), B = unsigned((H / M) % M);
    Cells[Axes == 2 ? B / F * Cm + A / F : A] += double(G.Samples[H]);
  }
  const double Max = *std::max_element(Cells.begin(), Cells.end());
  const double Min = *std::min_element(Cells.begin(), Cells.end());
  const std::string Id = "strata-" + std::to_string(K);
  if (Axes == 1) {
    SvgPlot P(Id, 0, 1, 0, Max * 1.05, 400, 220);
    P.labels("x0 (unit cube)", "samples per stratum");
    for (unsigned A = 0; A < M; ++A)
      P.rect(double(A) / M, double(A + 1) / M, 0, Cells[A], "#1f5fbf");
    return P.str();
  }
  SvgPlot P(Id, 0, 1, 0, 1, 340, 320);
  P.labels("x0 (strata)", "x1 (strata)");
  const double W = double(F) / M;
  for (unsigned B = 0; B < Cm; ++B)
    for (unsigned A = 0; A < Cm; ++A)
      P.rect(A * W, std::min((A + 1) * W, 1.0), B * W,
             std::min((B + 1) * W, 1.0),
             heatColour(Max > Min ? (Cells[B * Cm + A] - Min) / (Max - Min)
                                  : 0.5));
  return P.str() +
         "<p class='legend'>samples per hypercube summed over "
         "the other axes" +
         (F > 1 ? " and over blocks of " + std::to_string(F) + " x " +
                      std::to_string(F) + " strata (" + std::to_string(M) +
                      " x " + std::to_string(M) + " are more than " +
                      std::to_string(ReportMaxCells) + " cells)"
                : std::string()) +
         ": blue the fewest (" + formatNumber(Min, "%.0f") +
         "), yellow the most (" + formatNumber(Max, "%.0f") + ")</p>";
}

} // namespace vf
