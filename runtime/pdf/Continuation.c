/*===- runtime/pdf/Continuation.c - xf anywhere: the continuation -------===//
 *
 * Continuation.h's cases, in the order and arithmetic of LHAPDF 6.5's
 * ContinuationExtrapolator::extrapolateXQ2 and PDF::xfxQ2, with the
 * project's exp, log and pow (vfmath.h) so every device rounds alike.
 *
 *===----------------------------------------------------------------------===*/
#include "Continuation.h"

#include "LogCubic.h"
#include "vfmath.h"

/* Linear in log X through (XL, YL) and (XH, YH); on log Y when both are
   clearly positive, so the continuation stays positive. */
static double alongLog(double X, double XL, double XH, double YL, double YH) {
  if (YL > 1e-3 && YH > 1e-3)
    return vf_exp(vf_log(YL) + (vf_log(X) - vf_log(XL)) /
                                   (vf_log(XH) - vf_log(XL)) *
                                   (vf_log(YH) - vf_log(YL)));
  return YL + (vf_log(X) - vf_log(XL)) / (vf_log(XH) - vf_log(XL)) * (YH - YL);
}

/* x below the grid (or on it) and Q^2 below it: the anomalous-dimension
   fall-off from Q^2_min. */
static double belowQ2(const vf_pdf_grid *G, int F, double X, double Q2) {
  const double XMin = G->X[0], XMin1 = G->X[1], Q2Min = G->Q2[0];
  double FQ2Min, FQ2Min1;
  if (X < XMin) {
    FQ2Min = alongLog(X, XMin, XMin1, vf_pdf_interpolate(G, F, XMin, Q2Min),
                      vf_pdf_interpolate(G, F, XMin1, Q2Min));
    FQ2Min1 =
        alongLog(X, XMin, XMin1, vf_pdf_interpolate(G, F, XMin, 1.01 * Q2Min),
                 vf_pdf_interpolate(G, F, XMin1, 1.01 * Q2Min));
  } else {
    FQ2Min = vf_pdf_interpolate(G, F, X, Q2Min);
    FQ2Min1 = vf_pdf_interpolate(G, F, X, 1.01 * Q2Min);
  }
  /* std::max(-2.5, g): g unless it is below -2.5 (or NaN). */
  const double Slope = (FQ2Min1 - FQ2Min) / FQ2Min / 0.01;
  const double Anom =
      vf_fabs(FQ2Min) >= 1e-5 ? (-2.5 < Slope ? Slope : -2.5) : 1.0;
  return FQ2Min * vf_pow(Q2 / Q2Min, Anom * Q2 / Q2Min + 1.0 - Q2 / Q2Min);
}

double vf_pdf_extrapolate(const vf_pdf_grid *G, int F, double X, double Q2) {
  const double XMin = G->X[0], XMin1 = G->X[1], XMax = G->X[G->NumX - 1];
  const double Q2Min = G->Q2[0], Q2Max1 = G->Q2[G->NumQ2 - 2],
               Q2Max = G->Q2[G->NumQ2 - 1];
  if (X > XMax)
    return 0;
  if (X < XMin && Q2 >= Q2Min && Q2 <= Q2Max)
    return alongLog(X, XMin, XMin1, vf_pdf_interpolate(G, F, XMin, Q2),
                    vf_pdf_interpolate(G, F, XMin1, Q2));
  if (X >= XMin && Q2 > Q2Max)
    return alongLog(Q2, Q2Max, Q2Max1, vf_pdf_interpolate(G, F, X, Q2Max),
                    vf_pdf_interpolate(G, F, X, Q2Max1));
  if (X < XMin && Q2 > Q2Max) {
    const double FXMin =
        alongLog(Q2, Q2Max, Q2Max1, vf_pdf_interpolate(G, F, XMin, Q2Max),
                 vf_pdf_interpolate(G, F, XMin, Q2Max1));
    const double FXMin1 =
        alongLog(Q2, Q2Max, Q2Max1, vf_pdf_interpolate(G, F, XMin1, Q2Max),
                 vf_pdf_interpolate(G, F, XMin1, Q2Max1));
    return alongLog(X, XMin, XMin1, FXMin, FXMin1);
  }
  return belowQ2(G, F, X, Q2);
}

/* The set's ForcePositive applied to XF. */
static double positive(const vf_pdf_grid *G, double XF) {
  if (G->ForcePositive == 1 && XF < 0)
    return 0;
  if (G->ForcePositive == 2 && XF < 1e-10)
    return 1e-10;
  return XF;
}

static int physical(double X, double Q2) { return X >= 0 && X <= 1 && Q2 >= 0; }

static int onGrid(const vf_pdf_grid *G, double X, double Q2) {
  return X >= G->X[0] && X <= G->X[G->NumX - 1] && Q2 >= G->Q2[0] &&
         Q2 <= G->Q2[G->NumQ2 - 1];
}

double vf_pdf_xfxq2(const vf_pdf_grid *G, int Pid, double X, double Q2) {
  if (!physical(X, Q2))
    return __builtin_nan("");
  const int S = vf_pdf_pid_slot(Pid);
  if (S < 0 || G->Slot[S] < 0)
    return 0;
  const int F = G->Slot[S];
  return positive(G, onGrid(G, X, Q2) ? vf_pdf_interpolate(G, F, X, Q2)
                                      : vf_pdf_extrapolate(G, F, X, Q2));
}

void vf_pdf_xfxq2_all(const vf_pdf_grid *G, double X, double Q2,
                      double Out[VF_PDF_NUM_SLOTS]) {
  const int Physical = physical(X, Q2);
  const int OnGrid = Physical && onGrid(G, X, Q2);
  /* Off the grid every flavour takes its own continuation: there the cell
     differs by case, and such points are rare. */
  vf_pdf_cell C;
  if (OnGrid)
    vf_pdf_locate(G, X, Q2, &C);
  for (int S = 0; S < VF_PDF_NUM_SLOTS; ++S) {
    const int F = G->Slot[S];
    if (!Physical)
      Out[S] = __builtin_nan("");
    else if (F < 0)
      Out[S] = 0;
    else
      Out[S] = positive(G, OnGrid ? vf_pdf_interpolate_at(G, &C, F)
                                  : vf_pdf_extrapolate(G, F, X, Q2));
  }
}
