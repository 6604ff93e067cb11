/*===- runtime/pdf/Continuation.h - xf anywhere -----------------*- C -*-===//
 *
 * xf at any (x, Q^2), as LHAPDF 6.5's PDF::xfxQ2 with the default
 * "continuation" extrapolator (ContinuationExtrapolator, after the MSTW
 * standalone code): on the grid, the logcubic interpolation (LogCubic.h);
 * outside it,
 *
 *   x < x_min            linear in log x through the first two x knots,
 *                        on log xf when both values exceed 1e-3
 *   Q^2 > Q^2_max        the same in log Q^2 through the last two knots
 *   Q^2 < Q^2_min        xf(Q^2_min) r^(g r + 1 - r), r = Q^2/Q^2_min,
 *                        g the anomalous dimension from xf at Q^2_min and
 *                        1.01 Q^2_min (at least -2.5; 1 when |xf| < 1e-5),
 *                        so xf vanishes as Q^2 -> 0
 *
 * then the set's ForcePositive. Where LHAPDF throws, a device cannot:
 * here an unphysical point (x outside [0, 1], Q^2 < 0) gives NaN, an x
 * above the last knot but not above 1 gives 0 (a parton there carries
 * nothing), and a flavour the member lacks gives 0 as in LHAPDF.
 *
 * Freestanding C, the point of entry the fused kernel calls (GridView.h).
 *
 *===----------------------------------------------------------------------===*/
#ifndef VF_RUNTIME_PDF_CONTINUATION_H
#define VF_RUNTIME_PDF_CONTINUATION_H

#include "GridView.h"

#ifdef __cplusplus
extern "C" {
#endif

/* x f(x, Q^2) of PDG id Pid (21 or 0 for the gluon). */
double vf_pdf_xfxq2(const vf_pdf_grid *G, int Pid, double X, double Q2);

/* x f of every slot (vf_pdf_pid_slot) at one point, each the bits
   vf_pdf_xfxq2 gives for the slot's ids: the cell on the grid is found
   once for all flavours. A slot the member lacks is 0, and every slot is
   NaN at an unphysical point. */
void vf_pdf_xfxq2_all(const vf_pdf_grid *G, double X, double Q2,
                      double Out[VF_PDF_NUM_SLOTS]);

/* The continuation alone, for flavour index F at a point off the grid. */
double vf_pdf_extrapolate(const vf_pdf_grid *G, int F, double X, double Q2);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_RUNTIME_PDF_CONTINUATION_H */
