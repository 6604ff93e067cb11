//===- runtime/output/Report.cpp - A run as a self-contained HTML page ----===//
//
// The numbers of each section (vf/Report.h) and the page around them; the
// drawing is Svg.cpp's. The increment density of axis d is 1 / (N dx_i)
// per increment of width dx_i: 1 for a uniform map, large where the map
// concentrates samples. The allocation over two axes sums n_h over the
// other axes (a heat map of nstrat x nstrat cells); over one axis, bars.
// A 1-D histogram is drawn as its bins' integrals per unit of the
// observable with error bars, a 2-D one as heat maps of the cells'
// integrals and relative errors.
//
//===----------------------------------------------------------------------===//

#include "vf/Report.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vf {

namespace {

std::string escape(const std::string &S) {
  std::string O;
  for (char C : S)
    O += C == '<' ? "&lt;" : C == '>' ? "&gt;" : C == '&' ? "&amp;"
         : C == '\'' ? "&#39;" : std::string(1, C);
  return O;
}

std::string g(double V, const char *Fmt = "%.10g") {
  char B[40];
  std::snprintf(B, sizeof(B), Fmt, V);
  return B;
}

std::string table(const ReportRun &Run, unsigned K) {
  std::string T = "<table id='iterations-" + std::to_string(K) +
                  "'><tr><th>itn</th><th>estimate</th><th>error</th>"
                  "<th>cumulative</th><th>error</th><th>&chi;&sup2;/dof</th>"
                  "<th>Q</th><th>samples</th><th>s</th></tr>";
  for (const IterationRow &Row : Run.R.Iterations) {
    T += "<tr><td>" + std::to_string(Row.Index) + (Row.Warmup ? "w" : "") +
         "</td><td>" + g(Row.Mean[0]) + "</td><td>" + g(Row.Error[0], "%.3g") +
         "</td>";
    T += Row.Warmup ? "<td>-</td><td>-</td><td>-</td><td>-</td>"
                    : "<td>" + g(Row.CumMean[0]) + "</td><td>" +
                          g(Row.CumError[0], "%.3g") + "</td><td>" +
                          g(Row.Chi2Dof, "%.3g") + "</td><td>" +
                          g(Row.Q, "%.3g") + "</td>";
    T += "<td>" + std::to_string(Row.Samples) + "</td><td>" +
         g(Row.Seconds, "%.3f") + "</td></tr>";
  }
  return T + "</table>";
}

std::string convergence(const ReportRun &Run, unsigned K) {
  std::vector<double> X, Y, E, CX, CY, CE;
  for (const IterationRow &Row : Run.R.Iterations) {
    X.push_back(Row.Index);
    Y.push_back(Row.Mean[0]);
    E.push_back(Row.Error[0]);
    if (!Row.Warmup) {
      CX.push_back(Row.Index);
      CY.push_back(Row.CumMean[0]);
      CE.push_back(Row.CumError[0]);
    }
  }
  // The scale follows the measured iterations (warm-up ones may be far
  // off; they are clipped at the frame).
  double Lo = INFINITY, Hi = -INFINITY;
  for (std::size_t I = 0; I < Run.R.Iterations.size(); ++I)
    if (!Run.R.Iterations[I].Warmup && std::isfinite(Y[I])) {
      Lo = std::min(Lo, Y[I] - E[I]);
      Hi = std::max(Hi, Y[I] + E[I]);
    }
  if (Run.Exact) {
    Lo = std::min(Lo, *Run.Exact);
    Hi = std::max(Hi, *Run.Exact);
  }
  if (!(Hi > Lo))
    Lo = Hi = Y.empty() ? 0 : Y.back();
  const double Pad = 0.08 * (Hi - Lo);
  SvgPlot P("convergence-" + std::to_string(K), 0.5,
            X.empty() ? 1.5 : X.back() + 0.5, Lo - Pad, Hi + Pad);
  P.labels("iteration (warm-up first)", "estimate");
  if (Run.Exact)
    P.hline(*Run.Exact, "#2a2", "exact " + g(*Run.Exact));
  P.points(X, Y, E, "#1f5fbf", -3);
  P.line(CX, CY, "#c33");
  P.points(CX, CY, CE, "#c33", 3);
  return P.str() + "<p class='legend'><span style='color:#1f5fbf'>&#9679; "
                   "each iteration</span> <span style='color:#c33'>&#9679; "
                   "cumulative</span>" +
         std::string(Run.Exact ? " <span style='color:#2a2'>- - exact</span>"
                               : "") +
         "</p>";
}

std::string grids(const ReportRun &Run, unsigned K) {
  const Integrator::Grid &G = Run.Grid;
  if (G.Edges.empty())
    return "<p>No map yet.</p>";
  std::string Out;
  const unsigned Shown = std::min(G.Dim, 8u);
  for (unsigned D = 0; D < Shown; ++D) {
    const double *E = G.Edges.data() + std::size_t(D) * (G.Ninc + 1);
    std::vector<double> X, Y;
    double Max = 0;
    for (unsigned I = 0; I < G.Ninc; ++I) {
      const double Dx = E[I + 1] - E[I];
      const double Density = Dx > 0 ? 1 / (G.Ninc * Dx) : 0;
      X.push_back(E[I]);
      Y.push_back(Density);
      X.push_back(E[I + 1]);
      Y.push_back(Density);
      Max = std::max(Max, Density);
    }
    SvgPlot P("grid-" + std::to_string(K) + "-" + std::to_string(D), 0, 1, 0,
              Max * 1.05, 300, 180);
    P.labels("x" + std::to_string(D) + " (unit cube)", "density");
    P.line(X, Y, "#1f5fbf");
    Out += P.str();
  }
  if (Shown < G.Dim)
    Out += "<p>(the first 8 of " + std::to_string(G.Dim) + " axes)</p>";
  return Out;
}

std::string strata(const ReportRun &Run, unsigned K) {
  const Integrator::Grid &G = Run.Grid;
  const unsigned M = G.Nstrat;
  if (G.Samples.empty() || M == 0)
    return "<p>No allocation yet.</p>";
  const unsigned Axes = G.Dim >= 2 ? 2 : 1;
  std::vector<double> Cells(Axes == 2 ? M * M : M, 0.0);
  for (std::uint64_t H = 0; H < G.Samples.size(); ++H) {
    const unsigned A = unsigned(H % M), B = unsigned((H / M) % M);
    Cells[Axes == 2 ? B * M + A : A] += double(G.Samples[H]);
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
  for (unsigned B = 0; B < M; ++B)
    for (unsigned A = 0; A < M; ++A)
      P.rect(double(A) / M, double(A + 1) / M, double(B) / M,
             double(B + 1) / M, heatColour(Max > Min ? (Cells[B * M + A] - Min) / (Max - Min)
                                     : 0.5));
  return P.str() + "<p class='legend'>samples per hypercube summed over "
                   "the other axes: blue the fewest (" + g(Min, "%.0f") +
         "), yellow the most (" + g(Max, "%.0f") + ")</p>";
}

std::string flowText(const Histogram &H) {
  const char *Names[] = {"underflow", "overflow"};
  std::string T;
  for (std::size_t F = 0; F < H.Flow.size(); ++F)
    T += std::string(T.empty() ? "" : ", ") +
         (H.Axes.size() == 2 ? "outside" : Names[F]) + " " + g(H.Flow[F]) +
         " &plusmn; " + g(H.FlowErrors[F], "%.3g");
  return T;
}

/// A 1-D histogram: each bin's integral per unit of the observable (its
/// value over its width) as steps, its error bar at the bin's centre.
std::string histogram1(const Histogram &H, const std::string &Id) {
  const HistogramAxis &A = H.Axes[0];
  const std::vector<double> E = A.edges();
  std::vector<double> SX, SY, CX, CY, CE;
  double Lo = 0, Hi = 0;
  for (unsigned B = 0; B < A.Bins; ++B) {
    const double W = E[B + 1] - E[B];
    const double Y = H.Values[B] / W, Err = H.Errors[B] / W;
    SX.insert(SX.end(), {E[B], E[B + 1]});
    SY.insert(SY.end(), {Y, Y});
    CX.push_back(0.5 * (E[B] + E[B + 1]));
    CY.push_back(Y);
    CE.push_back(Err);
    if (std::isfinite(Y + Err)) {
      Lo = std::min(Lo, Y - Err);
      Hi = std::max(Hi, Y + Err);
    }
  }
  const double Pad = 0.06 * (Hi - Lo);
  SvgPlot P(Id, A.Lo, A.Hi, Lo < 0 ? Lo - Pad : 0, Hi + Pad, 420, 250);
  P.labels(escape(H.Name), "integral per unit");
  P.line(SX, SY, "#1f5fbf");
  P.points(CX, CY, CE, "#c33");
  return P.str();
}

/// A 2-D histogram: each cell's integral as a heat map (value and error on
/// hover), and beside it the relative errors, the 2-D form of error bars.
std::string histogram2(const Histogram &H, const std::string &Id,
                       const std::string &ErrId) {
  const HistogramAxis &A = H.Axes[0], &B = H.Axes[1];
  const std::vector<double> EA = A.edges(), EB = B.edges();
  std::vector<double> Rel(H.Values.size(), 0.0);
  for (std::size_t C = 0; C < Rel.size(); ++C)
    Rel[C] = H.Values[C] != 0 ? std::fabs(H.Errors[C] / H.Values[C]) : 0;
  auto Map = [&](const std::string &PlotId, const std::vector<double> &V,
                 const char *What) {
    const auto [Min, Max] = std::minmax_element(V.begin(), V.end());
    SvgPlot P(PlotId, A.Lo, A.Hi, B.Lo, B.Hi, 340, 320);
    P.labels(escape(H.Name) + ": axis 0", "axis 1");
    for (unsigned I = 0; I < A.Bins; ++I)
      for (unsigned J = 0; J < B.Bins; ++J) {
        const std::size_t C = std::size_t(I) * B.Bins + J;
        P.rect(EA[I], EA[I + 1], EB[J], EB[J + 1],
               heatColour(*Max > *Min ? (V[C] - *Min) / (*Max - *Min) : 0.5),
               g(H.Values[C]) + " &#177; " + g(H.Errors[C], "%.3g"));
      }
    return "<div style='display:inline-block'>" + P.str() +
           "<p class='legend'>" + What + ": blue " + g(*Min, "%.3g") +
           ", yellow " + g(*Max, "%.3g") + "</p></div>";
  };
  return "<div class='row'>" + Map(Id, H.Values, "integral per cell") +
         Map(ErrId, Rel, "relative error per cell") + "</div>";
}

/// Every `hist` of the integrand: ids hist-K-NAME (and histerr-K-NAME for
/// a 2-D histogram's errors).
std::string histograms(const ReportRun &Run, unsigned K) {
  std::string Out;
  for (const Histogram &H : Run.R.Histograms) {
    const std::string Id = "hist-" + std::to_string(K) + "-" + H.Name;
    Out += "<h4>" + escape(H.Name) + "</h4>" +
           (H.Axes.size() == 1
                ? histogram1(H, Id)
                : histogram2(H, Id,
                             "histerr-" + std::to_string(K) + "-" + H.Name)) +
           "<p class='legend'>" + flowText(H) + "</p>";
  }
  return Out.empty() ? Out : "<h3>Histograms</h3>" + Out;
}

std::string devices(const ReportRun &Run, unsigned K) {
  std::string T = "<table id='devices-" + std::to_string(K) +
                  "'><tr><th>device</th><th>samples</th><th>chunks</th>"
                  "<th>busy/s</th><th>idle/s</th><th>imbalance</th></tr>";
  for (const DeviceStats &D : Run.R.Devices)
    T += "<tr><td>" + escape(D.Name) + "</td><td>" +
         std::to_string(D.Samples) + "</td><td>" + std::to_string(D.Chunks) +
         "</td><td>" + g(D.BusySeconds, "%.4f") + "</td><td>" +
         g(D.IdleSeconds, "%.4f") + "</td><td>" +
         g(100 * D.imbalance(), "%.1f") + "%</td></tr>";
  return T + "</table>";
}

/// Every component's result, the joint chi2/Q and why the run stopped,
/// then the derived items with their propagated errors.
std::string resultLines(const Result &R) {
  std::string S;
  for (std::size_t C = 0; C < R.Mean.size() && C < R.Error.size(); ++C)
    S += "<p class='result'>result" +
         (R.Mean.size() > 1 ? "[" + std::to_string(C) + "]" : "") + " = " +
         g(R.Mean[C], "%.15g") + " &plusmn; " + g(R.Error[C], "%.3g") + "</p>";
  if (!R.Mean.empty())
    S += "<p class='result'>&chi;&sup2;/dof = " + g(R.Chi2Dof, "%.3g") +
         " &nbsp; Q = " + g(R.Q, "%.3g") +
         " &nbsp; stopped: " + stopReasonName(R.Stopped) + "</p>";
  for (const DerivedValue &D : R.Derived)
    S += "<p class='derived'>" + escape(D.Name) + " = " + g(D.Mean, "%.15g") +
         " &plusmn; " + g(D.Error, "%.3g") + " (derived)</p>";
  return S;
}

std::string section(const ReportRun &Run, unsigned K) {
  std::string S = "<section id='run-" + std::to_string(K) +
                  "' data-hists='" +
                  std::to_string(Run.R.Histograms.size()) + "'><h2>" +
                  escape(Run.Title) + "</h2>";
  S += resultLines(Run.R) + "<h3>Settings</h3><table class='settings'>";
  for (const auto &[Key, Value] : Run.Settings)
    S += "<tr><th>" + escape(Key) + "</th><td>" + escape(Value) + "</td></tr>";
  S += "</table><h3>Convergence</h3>" + convergence(Run, K) +
       "<h3>Iterations</h3>" + table(Run, K) +
       "<h3>The adapted map: increment density per axis</h3><div "
       "class='row'>" +
       grids(Run, K) + "</div><h3>Stratification</h3>" + strata(Run, K) +
       histograms(Run, K) + "<h3>Devices</h3>" + devices(Run, K) + "</section>";
  return S;
}

} // namespace

/// The page's style, every rule scoped to .vf-report so that a fragment
/// embedded in another page (a notebook) leaves the rest of it alone.
constexpr const char *Style =
    "<style>.vf-report{font-family:sans-serif;max-width:1100px}.vf-report "
    "table{border-collapse:collapse;font-size:13px}.vf-report td,.vf-report "
    "th{border:1px solid #ccc;padding:2px 6px;text-align:right}.vf-report "
    ".settings th{text-align:left}.vf-report .row svg{margin:4px}.vf-report "
    ".legend{font-size:12px}.vf-report section{border-top:2px solid #888;"
    "margin-top:2em}</style>";

std::string reportFragment(const std::vector<ReportRun> &Runs) {
  std::string F = std::string(Style) + "<div class='vf-report'>";
  for (unsigned K = 0; K < Runs.size(); ++K)
    F += section(Runs[K], K);
  return F + "</div>";
}

std::string reportHtml(const std::string &Title,
                       const std::vector<ReportRun> &Runs) {
  std::string Page =
      "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>" +
      escape(Title) + "</title></head><body style='margin:2em'><h1 "
      "style='font-family:sans-serif'>" + escape(Title) + "</h1>" +
      reportFragment(Runs);
  // The page checks itself once loaded (a test reads the verdict from the
  // DOM): every run has its plots, and no script error happened.
  Page += "<div id='selfcheck'></div><script>(function(){var bad=[];"
          "window.addEventListener('error',function(e){bad.push(e.message)});"
          "var n=document.querySelectorAll('section').length,missing=[];"
          "for(var k=0;k<n;k++){['convergence-','strata-','devices-'].forEach("
          "function(p){if(!document.getElementById(p+k))missing.push(p+k)});"
          "if(!document.getElementById('grid-'+k+'-0'))missing.push('grid-'+k+"
          "'-0');var s=document.getElementById('run-'+k);if(s.querySelectorAll("
          "'svg[id^=hist-]').length!=+s.dataset.hists)missing.push('hist-'+k)}"
          "document.getElementById('selfcheck').textContent=(bad.length"
          "||missing.length?'FAILED '+bad.concat(missing).join(' '):'ok '+n+"
          "' runs');})();</script></body></html>\n";
  return Page;
}

} // namespace vf
