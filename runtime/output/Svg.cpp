//===- runtime/output/Svg.cpp - A small SVG plotter -----------------------===//

#include "output/Svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vf {

namespace {
constexpr double Left = 70, Right = 15, Top = 15, Bottom = 40;

std::string num(double V) {
  char B[32];
  std::snprintf(B, sizeof(B), "%.2f", V);
  return B;
}

/// Enough digits that ticks \p Step apart differ: a convergence plot of
/// 2.00001 +- 1e-5 needs seven.
std::string tick(double V, double Step) {
  const double Size = std::max(std::fabs(V), Step);
  const int Digits =
      std::clamp(int(std::ceil(std::log10(Size / Step))) + 1, 6, 15);
  char B[32];
  std::snprintf(B, sizeof(B), "%.*g", Digits, V);
  return B;
}

/// Round tick positions covering [Lo, Hi]: steps of 1, 2 or 5 x 10^k.
std::vector<double> ticks(double Lo, double Hi) {
  const double Raw = (Hi - Lo) / 5;
  const double P = std::pow(10, std::floor(std::log10(Raw)));
  const double Step = Raw / P < 2 ? P : Raw / P < 5 ? 2 * P : 5 * P;
  std::vector<double> T;
  for (double V = std::ceil(Lo / Step) * Step; V <= Hi + 1e-9 * Step;
       V += Step)
    T.push_back(std::fabs(V) < 1e-12 * Step ? 0 : V);
  return T;
}

/// Log-axis ticks: the decades in [Lo, Hi], 2 and 5 times them when the
/// range spans fewer than three, every multiple when less than one.
std::vector<double> logTicks(double Lo, double Hi) {
  const bool Fine = Hi / Lo < 1e3, Finest = Hi / Lo < 10;
  std::vector<double> T;
  for (double D = std::pow(10, std::floor(std::log10(Lo))); D <= Hi; D *= 10)
    for (int M = 1; M <= 9; ++M)
      if ((M == 1 || Finest || (Fine && (M == 2 || M == 5))) &&
          M * D >= Lo * (1 - 1e-9) && M * D <= Hi * (1 + 1e-9))
        T.push_back(M * D);
  return T;
}
} // namespace

SvgPlot::SvgPlot(std::string I, double A, double B, double C, double D,
                 int Width, int Height)
    : Id(std::move(I)), X0(A), X1(B), Y0(C), Y1(D), W(Width), H(Height) {
  auto Widen = [](double &Lo, double &Hi) {
    if (!(Hi > Lo) || !std::isfinite(Hi - Lo)) {
      const double M = std::isfinite(Lo) ? Lo : 0;
      const double Pad = M != 0 ? std::fabs(M) * 1e-6 : 1;
      Lo = M - Pad;
      Hi = M + Pad;
    }
  };
  Widen(X0, X1);
  Widen(Y0, Y1);
}

double SvgPlot::px(double X) const {
  return Left + (X - X0) / (X1 - X0) * (W - Left - Right);
}
void SvgPlot::logY() {
  if (Y0 > 0 && Y1 > Y0)
    LogY = true;
}

double SvgPlot::scaleY(double Y) const {
  return LogY ? std::log10(std::max(Y, Y0)) : Y;
}

double SvgPlot::py(double Y) const {
  const double Lo = scaleY(Y0), Hi = scaleY(Y1);
  return H - Bottom - (scaleY(Y) - Lo) / (Hi - Lo) * (H - Top - Bottom);
}

void SvgPlot::points(const std::vector<double> &X, const std::vector<double> &Y,
                     const std::vector<double> &Err, const std::string &C,
                     double Shift) {
  for (std::size_t K = 0; K < X.size() && K < Y.size(); ++K) {
    if (!std::isfinite(Y[K]))
      continue;
    // Clipped at the frame: a warm-up estimate far off shows as a bar
    // running out of it, without a marker.
    const double Xp = px(X[K]) + Shift, E = K < Err.size() ? Err[K] : 0;
    const double Lo = std::clamp(Y[K] - E, Y0, Y1);
    const double Hi = std::clamp(Y[K] + E, Y0, Y1);
    if (Hi > Lo)
      Body += "<line x1='" + num(Xp) + "' x2='" + num(Xp) + "' y1='" +
              num(py(Lo)) + "' y2='" + num(py(Hi)) + "' stroke='" + C + "'/>";
    if (Y[K] >= Y0 && Y[K] <= Y1)
      Body += "<circle cx='" + num(Xp) + "' cy='" + num(py(Y[K])) +
              "' r='3' fill='" + C + "'/>";
  }
}

void SvgPlot::line(const std::vector<double> &X, const std::vector<double> &Y,
                   const std::string &C, bool Dashed) {
  std::string Pts;
  for (std::size_t K = 0; K < X.size() && K < Y.size(); ++K)
    if (std::isfinite(Y[K]))
      Pts += num(px(X[K])) + "," + num(py(Y[K])) + " ";
  Body += "<polyline fill='none' stroke='" + C + "' points='" + Pts + "'" +
          (Dashed ? " stroke-dasharray='4 3'" : "") + "/>";
}

void SvgPlot::hline(double Y, const std::string &C, const std::string &L) {
  Body += "<line x1='" + num(Left) + "' x2='" + num(W - Right) + "' y1='" +
          num(py(Y)) + "' y2='" + num(py(Y)) + "' stroke='" + C +
          "' stroke-dasharray='6 3'/><text x='" + num(W - Right - 4) +
          "' y='" + num(py(Y) - 4) + "' text-anchor='end' fill='" + C +
          "' font-size='11'>" + L + "</text>";
}

void SvgPlot::rect(double A, double B, double C, double D,
                   const std::string &Colour, const std::string &Tip) {
  const double L = px(A), R = px(B), T = py(D), Bo = py(C);
  Body += "<rect x='" + num(L) + "' y='" + num(T) + "' width='" +
          num(std::max(R - L, 0.5)) + "' height='" + num(std::max(Bo - T, 0.5)) +
          "' fill='" + Colour + "'" +
          (Tip.empty() ? "/>" : "><title>" + Tip + "</title></rect>");
}

void SvgPlot::labels(const std::string &X, const std::string &Y) {
  XLabel = X;
  YLabel = Y;
}

std::string SvgPlot::str() const {
  std::string S = "<svg id='" + Id + "' xmlns='http://www.w3.org/2000/svg' "
                  "width='" + std::to_string(W) + "' height='" +
                  std::to_string(H) + "' font-family='sans-serif'>";
  S += "<rect x='" + num(Left) + "' y='" + num(Top) + "' width='" +
       num(W - Left - Right) + "' height='" + num(H - Top - Bottom) +
       "' fill='#fafafa' stroke='#999'/>";
  for (double T : ticks(X0, X1))
    S += "<text x='" + num(px(T)) + "' y='" + num(H - Bottom + 14) +
         "' text-anchor='middle' font-size='11'>" + tick(T, (X1 - X0) / 5) +
         "</text>";
  for (double T : LogY ? logTicks(Y0, Y1) : ticks(Y0, Y1))
    S += "<text x='" + num(Left - 4) + "' y='" + num(py(T) + 4) +
         "' text-anchor='end' font-size='11'>" +
         tick(T, LogY ? T : (Y1 - Y0) / 5) + "</text><line x1='" + num(Left) +
         "' x2='" + num(W - Right) + "' y1='" + num(py(T)) + "' y2='" +
         num(py(T)) + "' stroke='#e4e4e4'/>";
  S += Body;
  S += "<text x='" + num((Left + W - Right) / 2) + "' y='" + num(H - 6) +
       "' text-anchor='middle' font-size='12'>" + XLabel + "</text>";
  S += "<text x='12' y='" + num((Top + H - Bottom) / 2) +
       "' font-size='12' transform='rotate(-90 12 " +
       num((Top + H - Bottom) / 2) + ")' text-anchor='middle'>" + YLabel +
       "</text></svg>";
  return S;
}

std::string heatColour(double T) {
  T = std::clamp(std::isfinite(T) ? T : 0.0, 0.0, 1.0);
  const int R = int(40 + 215 * T), G = int(60 + 160 * T), B = int(160 - 120 * T);
  char Buf[16];
  std::snprintf(Buf, sizeof(Buf), "#%02x%02x%02x", R, G, B);
  return Buf;
}

} // namespace vf
