//===- runtime/pdf/LogCubic.cpp - LHAPDF 6.5's logcubic interpolator ------===//
//
// The steps of LogCubic.h. Reproduces LHAPDF 6.5.x
// (src/LogBicubicInterpolator.cc, unchanged in this respect since 6.4.0):
// reciprocal widths for the neighbouring Q intervals, the subgrid edges found
// by repeated Q^2 knots, the bilinear fallback for two-knot subgrids.
//
//===----------------------------------------------------------------------===//
#include "pdf/LogCubic.h"

#include <algorithm>
#include <cmath>

namespace vf::pdf {

namespace {

/// The knot index i with K[i] <= V < K[i+1], the last interval for V at the
/// last knot.
std::size_t knotBelow(const double *K, std::uint32_t N, double V) {
  std::size_t I = std::upper_bound(K, K + N, V) - K;
  if (I == N)
    --I;
  return I - 1;
}

double linear(double X, double XL, double XH, double YL, double YH) {
  return YL + (X - XL) / (XH - XL) * (YH - YL);
}

double cubicHermite(double T, double VL, double VDL, double VH, double VDH) {
  const double T2 = T * T;
  const double T3 = T * T2;
  const double P0 = (2 * T3 - 3 * T2 + 1) * VL;
  const double M0 = (T3 - 2 * T2 + T) * VDL;
  const double P1 = (-2 * T3 + 3 * T2) * VH;
  const double M1 = (T3 - T2) * VDH;
  return P0 + M0 + P1 + M1;
}

/// The precomputed cubic along x at Q^2 knot IQ.
double alongX(const GridView &G, std::size_t IX, std::size_t IQ, int F,
              double TX) {
  const double *C = G.XCoeffs + ((IX * G.NumQ2 + IQ) * G.NumFlavours + F) * 4;
  const double T2 = TX * TX;
  const double T3 = T2 * TX;
  return C[0] * T3 + C[1] * T2 + C[2] * TX + C[3];
}

double bilinear(const GridView &G, std::size_t IX, std::size_t IQ, int F,
                double LogX, double LogQ2) {
  auto XF = [&](std::size_t I, std::size_t J) {
    return G.Values[(I * G.NumQ2 + J) * G.NumFlavours + F];
  };
  const double FL =
      linear(LogX, G.LogX[IX], G.LogX[IX + 1], XF(IX, IQ), XF(IX + 1, IQ));
  const double FH = linear(LogX, G.LogX[IX], G.LogX[IX + 1], XF(IX, IQ + 1),
                           XF(IX + 1, IQ + 1));
  return linear(LogQ2, G.LogQ2[IQ], G.LogQ2[IQ + 1], FL, FH);
}

} // namespace

double interpolateXQ2(const GridView &G, int F, double X, double Q2) {
  const std::size_t IX = knotBelow(G.X, G.NumX, X);
  const std::size_t IQ = knotBelow(G.Q2, G.NumQ2, Q2);
  const double LogX = std::log(X);
  const double LogQ2 = std::log(Q2);
  // A subgrid's edge is the grid's end or a Q^2 knot repeated by the next
  // subgrid.
  const bool Lower = IQ == 0 || G.Q2[IQ] == G.Q2[IQ - 1];
  const bool Upper = IQ + 1 == G.NumQ2 - 1 || G.Q2[IQ + 1] == G.Q2[IQ + 2];
  if (Lower && Upper)
    return bilinear(G, IX, IQ, F, LogX, LogQ2);

  const double TX = (LogX - G.LogX[IX]) / (G.LogX[IX + 1] - G.LogX[IX]);
  const double DLogQ1 = G.LogQ2[IQ + 1] - G.LogQ2[IQ];
  const double TQ = (LogQ2 - G.LogQ2[IQ]) / DLogQ1;
  const double VL = alongX(G, IX, IQ, F, TX);
  const double VH = alongX(G, IX, IQ + 1, F, TX);
  double VDL, VDH;
  if (Lower) {
    const double InvDLogQ2 = 1. / (G.LogQ2[IQ + 2] - G.LogQ2[IQ + 1]);
    VDL = VH - VL;
    const double VHH = alongX(G, IX, IQ + 2, F, TX);
    VDH = (VDL + (VHH - VH) * DLogQ1 * InvDLogQ2) * 0.5;
  } else if (Upper) {
    const double InvDLogQ0 = 1. / (G.LogQ2[IQ] - G.LogQ2[IQ - 1]);
    VDH = VH - VL;
    const double VLL = alongX(G, IX, IQ - 1, F, TX);
    VDL = (VDH + (VL - VLL) * DLogQ1 * InvDLogQ0) * 0.5;
  } else {
    const double InvDLogQ0 = 1. / (G.LogQ2[IQ] - G.LogQ2[IQ - 1]);
    const double InvDLogQ2 = 1. / (G.LogQ2[IQ + 2] - G.LogQ2[IQ + 1]);
    const double VLL = alongX(G, IX, IQ - 1, F, TX);
    VDL = ((VH - VL) + (VL - VLL) * DLogQ1 * InvDLogQ0) * 0.5;
    const double VHH = alongX(G, IX, IQ + 2, F, TX);
    VDH = ((VH - VL) + (VHH - VH) * DLogQ1 * InvDLogQ2) * 0.5;
  }
  return cubicHermite(TQ, VL, VDL, VH, VDH);
}

} // namespace vf::pdf
