//===- runtime/output/ReportHistograms.cpp - Histograms in the report -----===//
//
// A 1-D histogram is drawn as its bins' integrals per unit of the
// observable: steps, an error band and error bars, on a linear or (asked
// for by name) logarithmic axis; below it the relative error per bin, so
// that errors of 0.1 % stay readable; with a reference, the reference's
// steps over it and a panel of the ratio histogram / reference (with the
// reference's own error as a grey band around 1, and the sum of squared
// pulls). A 2-D histogram is drawn as heat maps of the cells' integrals
// and relative errors. More bins than a page can hold (1000 in 1-D,
// ReportMaxCells in 2-D) are merged into blocks, errors added in
// quadrature, and the page says so.
//
//===----------------------------------------------------------------------===//

#include "output/ReportParts.h"

#include "output/Svg.h"

#include <algorithm>
#include <cmath>
#include <tuple>

namespace vf {

namespace {

constexpr unsigned MaxBins1 = 1000;

/// A histogram as drawn: its (possibly merged) edges per axis and each
/// drawn cell's value and error; FX x FY bins per cell.
struct Drawn {
  std::vector<double> EX, EY, Values, Errors;
  unsigned FX = 1, FY = 1;
};

std::vector<double> mergedEdges(const std::vector<double> &E, unsigned F) {
  std::vector<double> M;
  for (std::size_t I = 0; I + 1 < E.size(); I += F)
    M.push_back(E[I]);
  M.push_back(E.back());
  return M;
}

Drawn drawn(const Histogram &H) {
  const bool Two = H.Axes.size() == 2;
  const unsigned NX = H.Axes[0].Bins, NY = Two ? H.Axes[1].Bins : 1;
  Drawn D;
  auto Cells = [&] {
    return double((NX + D.FX - 1) / D.FX) * double((NY + D.FY - 1) / D.FY);
  };
  while (Cells() > (Two ? ReportMaxCells : MaxBins1))
    ++(NX / D.FX >= NY / D.FY ? D.FX : D.FY);
  D.EX = mergedEdges(H.Axes[0].edges(), D.FX);
  if (Two)
    D.EY = mergedEdges(H.Axes[1].edges(), D.FY);
  const std::size_t MY = Two ? D.EY.size() - 1 : 1;
  D.Values.assign((D.EX.size() - 1) * MY, 0.0);
  D.Errors.assign(D.Values.size(), 0.0);
  for (unsigned I = 0; I < NX; ++I)
    for (unsigned J = 0; J < NY; ++J) {
      const std::size_t C = I / D.FX * MY + J / D.FY;
      D.Values[C] += H.Values[std::size_t(I) * NY + J];
      D.Errors[C] += std::pow(H.Errors[std::size_t(I) * NY + J], 2);
    }
  for (double &E : D.Errors)
    E = std::sqrt(E);
  return D;
}

std::string mergedText(const Histogram &H, const Drawn &D) {
  if (D.FX * D.FY == 1)
    return "";
  const bool Two = H.Axes.size() == 2;
  return "<p class='capped'>" + escapeHtml(H.Name) + " has " +
         std::to_string(H.Values.size()) +
         " bins, more than the report draws (" +
         std::to_string(Two ? ReportMaxCells : MaxBins1) +
         "): drawn merged into blocks of " + std::to_string(D.FX) +
         (Two ? " x " + std::to_string(D.FY) : std::string()) +
         " bins, their errors added in quadrature; the histograms' CSV "
         "(vegasc --hist-csv) has every bin.</p>";
}

std::string flowText(const Histogram &H) {
  const char *Names[] = {"underflow", "overflow"};
  std::string T;
  for (std::size_t F = 0; F < H.Flow.size(); ++F)
    T += std::string(T.empty() ? "" : ", ") +
         (H.Axes.size() == 2 ? "outside" : Names[F]) + " " +
         formatNumber(H.Flow[F]) + " &plusmn; " +
         formatNumber(H.FlowErrors[F], "%.3g");
  return T;
}

/// Steps of \p V per unit of the observable over \p E.
void steps(const std::vector<double> &E, const std::vector<double> &V,
           std::vector<double> &X, std::vector<double> &Y) {
  for (std::size_t B = 0; B + 1 < E.size() && B < V.size(); ++B) {
    const double W = E[B + 1] - E[B];
    X.insert(X.end(), {E[B], E[B + 1]});
    Y.insert(Y.end(), {V[B] / W, V[B] / W});
  }
}

/// The main panel's y range over the values per unit, their errors and
/// the reference; on a log axis the positive ones only.
std::pair<double, double> yRange(const std::vector<double> &Y,
                                 const std::vector<double> &Err,
                                 const std::vector<double> &RefY, bool Log) {
  double Lo = Log ? INFINITY : 0, Hi = Log ? 0 : 0;
  auto Take = [&](double V, double E) {
    if (!std::isfinite(V + E))
      return;
    if (Log) {
      if (V > 0)
        Lo = std::min(Lo, V - E > 0 ? V - E : V);
      Hi = std::max(Hi, V + E);
    } else {
      Lo = std::min(Lo, V - E);
      Hi = std::max(Hi, V + E);
    }
  };
  for (std::size_t B = 0; B < Y.size(); ++B)
    Take(Y[B], Err[B]);
  for (double V : RefY)
    Take(V, 0);
  if (Log)
    return {Lo / 1.5, Hi * 1.5};
  const double Pad = 0.06 * (Hi - Lo);
  return {Lo < 0 ? Lo - Pad : 0, Hi + Pad};
}

bool sameEdges(const std::vector<double> &A, const std::vector<double> &B) {
  if (A.size() != B.size() || A.size() < 2)
    return false;
  const double Tol = 1e-9 * std::fabs(A.back() - A.front());
  for (std::size_t I = 0; I < A.size(); ++I)
    if (!(std::fabs(A[I] - B[I]) <= Tol))
      return false;
  return true;
}

/// histogram / reference per bin with the histogram's error bars, the
/// reference's relative error as a band around 1, and the pulls' sum.
std::string ratioPanel(const std::string &Id, const Drawn &D,
                       const ReferenceCurve &Ref) {
  if (!sameEdges(D.EX, Ref.Edges))
    return "<p class='legend'>No ratio panel: the reference's " +
           std::to_string(Ref.Values.size()) + " bins are not the " +
           std::to_string(D.Values.size()) + " drawn here.</p>";
  std::vector<double> X, Y, E;
  double Lo = 1, Hi = 1, Pull2 = 0;
  unsigned Pulls = 0;
  for (std::size_t B = 0; B < D.Values.size(); ++B) {
    const double R = Ref.Values[B],
                 RE = B < Ref.Errors.size() ? Ref.Errors[B] : 0;
    const double Var = D.Errors[B] * D.Errors[B] + RE * RE;
    if (Var > 0) {
      Pull2 += std::pow(D.Values[B] - R, 2) / Var;
      ++Pulls;
    }
    if (R == 0)
      continue;
    X.push_back(0.5 * (D.EX[B] + D.EX[B + 1]));
    Y.push_back(D.Values[B] / R);
    E.push_back(std::fabs(D.Errors[B] / R));
    Lo = std::min({Lo, Y.back() - E.back(), 1 - std::fabs(RE / R)});
    Hi = std::max({Hi, Y.back() + E.back(), 1 + std::fabs(RE / R)});
  }
  const double Pad = 0.1 * (Hi - Lo);
  SvgPlot P(Id, D.EX.front(), D.EX.back(), Lo - Pad, Hi + Pad, 480, 130);
  P.labels("", "ratio to reference");
  for (std::size_t B = 0; B < D.Values.size(); ++B)
    if (Ref.Values[B] != 0 && B < Ref.Errors.size() && Ref.Errors[B] > 0) {
      const double Rel = std::fabs(Ref.Errors[B] / Ref.Values[B]);
      P.rect(D.EX[B], D.EX[B + 1], 1 - Rel, 1 + Rel, "#dddddd");
    }
  P.hline(1, "#2a2", "");
  P.points(X, Y, E, "#c33");
  return P.str() + "<p class='legend'>&Sigma; pull&sup2; = " +
         formatNumber(Pull2, "%.3g") + " over " + std::to_string(Pulls) +
         " bins (pull: (histogram - reference) / combined error)</p>";
}

/// The relative error per bin, in percent.
std::string relativePanel(const std::string &Id, const Drawn &D) {
  std::vector<double> X, Y;
  double Max = 0;
  for (std::size_t B = 0; B < D.Values.size(); ++B) {
    const double R =
        D.Values[B] != 0 ? 100 * std::fabs(D.Errors[B] / D.Values[B]) : 0;
    X.insert(X.end(), {D.EX[B], D.EX[B + 1]});
    Y.insert(Y.end(), {R, R});
    if (std::isfinite(R))
      Max = std::max(Max, R);
  }
  SvgPlot P(Id, D.EX.front(), D.EX.back(), 0, Max * 1.15, 480, 120);
  P.labels("", "rel. error (%)");
  P.line(X, Y, "#1f5fbf");
  return P.str();
}

std::string histogram1(const Histogram &H, const Drawn &D,
                       const std::string &Suffix, const ReferenceCurve *Ref,
                       bool Log) {
  std::vector<double> SX, SY, CX, CY, CE, RX, RY;
  steps(D.EX, D.Values, SX, SY);
  for (std::size_t B = 0; B < D.Values.size(); ++B) {
    const double W = D.EX[B + 1] - D.EX[B];
    CX.push_back(0.5 * (D.EX[B] + D.EX[B + 1]));
    CY.push_back(D.Values[B] / W);
    CE.push_back(D.Errors[B] / W);
  }
  if (Ref)
    steps(Ref->Edges, Ref->Values, RX, RY);
  double Lo, Hi;
  std::tie(Lo, Hi) = yRange(CY, CE, RY, Log);
  const bool CanLog = Log && Hi > Lo && Lo > 0;
  if (Log && !CanLog)
    std::tie(Lo, Hi) = yRange(CY, CE, RY, false);
  SvgPlot P("hist-" + Suffix, D.EX.front(), D.EX.back(), Lo, Hi, 480, 250);
  if (CanLog)
    P.logY();
  P.labels(escapeHtml(H.Name), "integral per unit");
  for (std::size_t B = 0; B < CY.size(); ++B)
    P.rect(D.EX[B], D.EX[B + 1], CY[B] - CE[B], CY[B] + CE[B], "#cfdcf2");
  P.line(SX, SY, "#1f5fbf");
  if (Ref)
    P.line(RX, RY, "#2a2", true);
  P.points(CX, CY, CE, "#c33");
  std::string Out =
      "<div class='hist1'>" + P.str() + relativePanel("histrel-" + Suffix, D);
  if (Ref)
    Out += ratioPanel("histratio-" + Suffix, D, *Ref);
  Out +=
      "</div><p class='legend'>steps and band: the histogram with its "
      "error" +
      std::string(Ref ? "; <span style='color:#2a2'>- - reference</span>"
                      : "") +
      (Log && !CanLog ? "; linear axis: no positive value for a log one" : "") +
      "</p>";
  return Out;
}

/// A 2-D histogram: each cell's integral as a heat map (value and error on
/// hover), and beside it the relative errors, the 2-D form of error bars.
std::string histogram2(const Histogram &H, const Drawn &D,
                       const std::string &Suffix) {
  const std::size_t MY = D.EY.size() - 1;
  std::vector<double> Rel(D.Values.size(), 0.0);
  for (std::size_t C = 0; C < Rel.size(); ++C)
    Rel[C] = D.Values[C] != 0 ? std::fabs(D.Errors[C] / D.Values[C]) : 0;
  auto Map = [&](const std::string &PlotId, const std::vector<double> &V,
                 const char *What) {
    const auto [Min, Max] = std::minmax_element(V.begin(), V.end());
    SvgPlot P(PlotId, D.EX.front(), D.EX.back(), D.EY.front(), D.EY.back(), 340,
              320);
    P.labels(escapeHtml(H.Name) + ": axis 0", "axis 1");
    for (std::size_t I = 0; I + 1 < D.EX.size(); ++I)
      for (std::size_t J = 0; J < MY; ++J) {
        const std::size_t C = I * MY + J;
        P.rect(D.EX[I], D.EX[I + 1], D.EY[J], D.EY[J + 1],
               heatColour(*Max > *Min ? (V[C] - *Min) / (*Max - *Min) : 0.5),
               formatNumber(D.Values[C]) + " &#177; " +
                   formatNumber(D.Errors[C], "%.3g"));
      }
    return "<div style='display:inline-block'>" + P.str() +
           "<p class='legend'>" + What + ": blue " +
           formatNumber(*Min, "%.3g") + ", yellow " +
           formatNumber(*Max, "%.3g") + "</p></div>";
  };
  return "<div class='row'>" +
         Map("hist-" + Suffix, D.Values, "integral per cell") +
         Map("histerr-" + Suffix, Rel, "relative error per cell") + "</div>";
}

bool wantsLog(const ReportOptions &O, const std::string &Name) {
  return std::any_of(O.LogY.begin(), O.LogY.end(), [&](const std::string &N) {
    return N == Name || N == "all";
  });
}

/// What was asked for a histogram this run does not have in 1-D.
std::string unmatched(const ReportRun &Run, const ReportOptions &O) {
  auto Has1 = [&](const std::string &Name) {
    return Name == "all" ||
           std::any_of(Run.R.Histograms.begin(), Run.R.Histograms.end(),
                       [&](const Histogram &H) {
                         return H.Name == Name && H.Axes.size() == 1;
                       });
  };
  std::string Out;
  for (const std::string &N : O.LogY)
    if (!Has1(N))
      Out += "<p class='legend'>A log axis was asked for '" + escapeHtml(N) +
             "': no 1-D histogram of that name here.</p>";
  for (const auto &[N, Ref] : O.References)
    if (!Has1(N))
      Out += "<p class='legend'>A reference was given for '" + escapeHtml(N) +
             "': no 1-D histogram of that name here.</p>";
  return Out;
}

} // namespace

std::string histogramPlots(const ReportRun &Run, unsigned K,
                           const ReportOptions &Options) {
  std::string Out;
  for (const Histogram &H : Run.R.Histograms) {
    const std::string Suffix = std::to_string(K) + "-" + H.Name;
    const Drawn D = drawn(H);
    const auto Ref = Options.References.find(H.Name);
    Out += "<h4>" + escapeHtml(H.Name) + "</h4>" + mergedText(H, D) +
           (H.Axes.size() == 1
                ? histogram1(H, D, Suffix,
                             Ref == Options.References.end() ? nullptr
                                                             : &Ref->second,
                             wantsLog(Options, H.Name))
                : histogram2(H, D, Suffix)) +
           "<p class='legend'>" + flowText(H) + "</p>";
  }
  return Out.empty() ? Out
                     : "<h3>Histograms</h3>" + unmatched(Run, Options) + Out;
}

} // namespace vf
