/*===- runtime/pdf/LogCubic.c - LHAPDF 6.5's logcubic interpolator ------===//
 *
 * The steps of LogCubic.h. Reproduces LHAPDF 6.5.x
 * (src/LogBicubicInterpolator.cc, unchanged in this respect since 6.4.0):
 * reciprocal widths for the neighbouring Q intervals, the subgrid edges
 * found by repeated Q^2 knots, the bilinear fallback for two-knot subgrids.
 * Logarithms are the project's (vfmath.h), so every device rounds alike.
 * What does not depend on the flavour (vf_pdf_locate) is computed by the
 * same operations as LHAPDF's per-flavour code, so a cell shared by all
 * flavours gives each the bits of its own call.
 *
 *===----------------------------------------------------------------------===*/
#include "LogCubic.h"

#include "vfmath.h"

/* The knot index i with K[i] <= V < K[i+1], the last interval for V at the
   last knot: std::upper_bound's search, less one. */
static size_t knotBelow(const double *K, uint32_t N, double V) {
  size_t First = vf_pdf_first_above(K, 0, N, V);
  if (First == N)
    --First;
  return First - 1;
}

static double linear(double X, double XL, double XH, double YL, double YH) {
  return YL + (X - XL) / (XH - XL) * (YH - YL);
}

static double cubicHermite(double T, double VL, double VDL, double VH,
                           double VDH) {
  const double T2 = T * T;
  const double T3 = T * T2;
  const double P0 = (2 * T3 - 3 * T2 + 1) * VL;
  const double M0 = (T3 - 2 * T2 + T) * VDL;
  const double P1 = (-2 * T3 + 3 * T2) * VH;
  const double M1 = (T3 - T2) * VDH;
  return P0 + M0 + P1 + M1;
}

static double value(const vf_pdf_grid *G, size_t IX, size_t IQ, int F) {
  return G->Values[(IX * G->NumQ2 + IQ) * G->NumFlavours + F];
}

/* The precomputed cubic along x at Q^2 knot IQ. */
static double alongX(const vf_pdf_grid *G, size_t IX, size_t IQ, int F,
                     double TX) {
  const double *C =
      G->XCoeffs + ((IX * G->NumQ2 + IQ) * G->NumFlavours + F) * 4;
  const double T2 = TX * TX;
  const double T3 = T2 * TX;
  return C[0] * T3 + C[1] * T2 + C[2] * TX + C[3];
}

static double bilinear(const vf_pdf_grid *G, size_t IX, size_t IQ, int F,
                       double LogX, double LogQ2) {
  const double FL = linear(LogX, G->LogX[IX], G->LogX[IX + 1],
                           value(G, IX, IQ, F), value(G, IX + 1, IQ, F));
  const double FH =
      linear(LogX, G->LogX[IX], G->LogX[IX + 1], value(G, IX, IQ + 1, F),
             value(G, IX + 1, IQ + 1, F));
  return linear(LogQ2, G->LogQ2[IQ], G->LogQ2[IQ + 1], FL, FH);
}

void vf_pdf_locate(const vf_pdf_grid *G, double X, double Q2, vf_pdf_cell *C) {
  C->IX = knotBelow(G->X, G->NumX, X);
  C->IQ = knotBelow(G->Q2, G->NumQ2, Q2);
  C->LogX = vf_log(X);
  C->LogQ2 = vf_log(Q2);
  const size_t IX = C->IX, IQ = C->IQ;
  /* A subgrid's edge is the grid's end or a Q^2 knot repeated by the next
     subgrid. */
  C->Lower = IQ == 0 || G->Q2[IQ] == G->Q2[IQ - 1];
  C->Upper = IQ + 1 == G->NumQ2 - 1 || G->Q2[IQ + 1] == G->Q2[IQ + 2];
  C->TX = (C->LogX - G->LogX[IX]) / (G->LogX[IX + 1] - G->LogX[IX]);
  C->DLogQ1 = G->LogQ2[IQ + 1] - G->LogQ2[IQ];
  C->TQ = (C->LogQ2 - G->LogQ2[IQ]) / C->DLogQ1;
  /* Knots beyond a subgrid's edge are never read: they may not exist. */
  C->InvDLogQ0 = C->Lower ? 0 : 1. / (G->LogQ2[IQ] - G->LogQ2[IQ - 1]);
  C->InvDLogQ2 = C->Upper ? 0 : 1. / (G->LogQ2[IQ + 2] - G->LogQ2[IQ + 1]);
}

double vf_pdf_interpolate_at(const vf_pdf_grid *G, const vf_pdf_cell *C,
                             int F) {
  const size_t IX = C->IX, IQ = C->IQ;
  if (C->Lower && C->Upper)
    return bilinear(G, IX, IQ, F, C->LogX, C->LogQ2);
  const double TX = C->TX, DLogQ1 = C->DLogQ1;
  const double VL = alongX(G, IX, IQ, F, TX);
  const double VH = alongX(G, IX, IQ + 1, F, TX);
  double VDL, VDH;
  if (C->Lower) {
    VDL = VH - VL;
    const double VHH = alongX(G, IX, IQ + 2, F, TX);
    VDH = (VDL + (VHH - VH) * DLogQ1 * C->InvDLogQ2) * 0.5;
  } else if (C->Upper) {
    VDH = VH - VL;
    const double VLL = alongX(G, IX, IQ - 1, F, TX);
    VDL = (VDH + (VL - VLL) * DLogQ1 * C->InvDLogQ0) * 0.5;
  } else {
    const double VLL = alongX(G, IX, IQ - 1, F, TX);
    VDL = ((VH - VL) + (VL - VLL) * DLogQ1 * C->InvDLogQ0) * 0.5;
    const double VHH = alongX(G, IX, IQ + 2, F, TX);
    VDH = ((VH - VL) + (VHH - VH) * DLogQ1 * C->InvDLogQ2) * 0.5;
  }
  return cubicHermite(C->TQ, VL, VDL, VH, VDH);
}

double vf_pdf_interpolate(const vf_pdf_grid *G, int F, double X, double Q2) {
  vf_pdf_cell C;
  vf_pdf_locate(G, X, Q2, &C);
  return vf_pdf_interpolate_at(G, &C, F);
}
