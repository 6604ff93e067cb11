//===- runtime/pdf/Continuation.cpp - xf anywhere: the continuation -------===//
//
// Continuation.h's cases, in the order and arithmetic of LHAPDF 6.5's
// ContinuationExtrapolator::extrapolateXQ2 and PDF::xfxQ2.
//
//===----------------------------------------------------------------------===//
#include "pdf/Continuation.h"

#include "pdf/LogCubic.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vf::pdf {

namespace {

/// Linear in log X through (XL, YL) and (XH, YH); on log Y when both are
/// clearly positive, so the continuation stays positive.
double alongLog(double X, double XL, double XH, double YL, double YH) {
  if (YL > 1e-3 && YH > 1e-3)
    return std::exp(std::log(YL) + (std::log(X) - std::log(XL)) /
                                       (std::log(XH) - std::log(XL)) *
                                       (std::log(YH) - std::log(YL)));
  return YL + (std::log(X) - std::log(XL)) / (std::log(XH) - std::log(XL)) *
                  (YH - YL);
}

} // namespace

double extrapolateXQ2(const GridView &G, int F, double X, double Q2) {
  const double XMin = G.X[0], XMin1 = G.X[1], XMax = G.X[G.NumX - 1];
  const double Q2Min = G.Q2[0], Q2Max1 = G.Q2[G.NumQ2 - 2],
               Q2Max = G.Q2[G.NumQ2 - 1];
  auto At = [&](double PX, double PQ2) {
    return interpolateXQ2(G, F, PX, PQ2);
  };
  if (X > XMax)
    return 0;
  if (X < XMin && Q2 >= Q2Min && Q2 <= Q2Max)
    return alongLog(X, XMin, XMin1, At(XMin, Q2), At(XMin1, Q2));
  if (X >= XMin && Q2 > Q2Max)
    return alongLog(Q2, Q2Max, Q2Max1, At(X, Q2Max), At(X, Q2Max1));
  if (X < XMin && Q2 > Q2Max) {
    const double FXMin =
        alongLog(Q2, Q2Max, Q2Max1, At(XMin, Q2Max), At(XMin, Q2Max1));
    const double FXMin1 =
        alongLog(Q2, Q2Max, Q2Max1, At(XMin1, Q2Max), At(XMin1, Q2Max1));
    return alongLog(X, XMin, XMin1, FXMin, FXMin1);
  }
  // Q2 < Q2Min, with x on the grid or below it.
  double FQ2Min, FQ2Min1;
  if (X < XMin) {
    FQ2Min = alongLog(X, XMin, XMin1, At(XMin, Q2Min), At(XMin1, Q2Min));
    FQ2Min1 = alongLog(X, XMin, XMin1, At(XMin, 1.01 * Q2Min),
                       At(XMin1, 1.01 * Q2Min));
  } else {
    FQ2Min = At(X, Q2Min);
    FQ2Min1 = At(X, 1.01 * Q2Min);
  }
  const double Anom = std::abs(FQ2Min) >= 1e-5
                          ? std::max(-2.5, (FQ2Min1 - FQ2Min) / FQ2Min / 0.01)
                          : 1.0;
  return FQ2Min * std::pow(Q2 / Q2Min, Anom * Q2 / Q2Min + 1.0 - Q2 / Q2Min);
}

double xfxQ2(const GridView &G, int Pid, double X, double Q2) {
  if (!(X >= 0 && X <= 1 && Q2 >= 0))
    return std::numeric_limits<double>::quiet_NaN();
  const int S = pidSlot(Pid);
  if (S < 0 || G.Slot[S] < 0)
    return 0;
  const int F = G.Slot[S];
  const bool OnGrid = X >= G.X[0] && X <= G.X[G.NumX - 1] && Q2 >= G.Q2[0] &&
                      Q2 <= G.Q2[G.NumQ2 - 1];
  double XF =
      OnGrid ? interpolateXQ2(G, F, X, Q2) : extrapolateXQ2(G, F, X, Q2);
  if (G.ForcePositive == 1 && XF < 0)
    XF = 0;
  else if (G.ForcePositive == 2 && XF < 1e-10)
    XF = 1e-10;
  return XF;
}

} // namespace vf::pdf
