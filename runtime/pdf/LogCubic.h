/*===- runtime/pdf/LogCubic.h - LHAPDF 6.5's logcubic -----------*- C -*-===//
 *
 * xf inside a member's grid, as LHAPDF 6.5's LogBicubicInterpolator (the
 * default "logcubic") computes it, in the same order of operations (with
 * the project's logarithm, vfmath.h, so it may differ from LHAPDF in the
 * last bits, never between devices):
 *
 *   1. the knots below: ix with x_ix <= x < x_ix+1 and iq likewise in Q^2,
 *      searched over all subgrids' Q^2 knots; a Q^2 equal to a knot shared
 *      by two subgrids takes the upper subgrid, the last knot the interval
 *      below it;
 *   2. along x, at Q^2 knots iq and iq+1 (and iq-1, iq+2 when they are in
 *      the same subgrid), the precomputed cubic in t_x (GridLayout.h);
 *   3. along log Q^2, a cubic Hermite between iq and iq+1 whose slopes
 *      (times the interval's width) are the mean of the difference
 *      quotients on both sides of a knot, one-sided at a subgrid's edges;
 *   4. where the subgrid has only two Q knots, linear in log x and then
 *      linear in log Q^2 instead.
 *
 * Freestanding C (GridView.h says why). Nothing here allocates or fails:
 * the caller (Continuation.h) has checked that (x, Q^2) lies on the grid.
 *
 *===----------------------------------------------------------------------===*/
#ifndef VF_RUNTIME_PDF_LOGCUBIC_H
#define VF_RUNTIME_PDF_LOGCUBIC_H

#include "GridView.h"

#ifdef __cplusplus
extern "C" {
#endif

/* What steps 1-3 need of (X, Q2) whatever the flavour: the knots below,
   the logarithms, t_x and t_Q, whether the Q interval is at a subgrid's
   lower or upper edge, and the reciprocal widths of the Q intervals
   around it (those beyond an edge are 0, unused). */
typedef struct vf_pdf_cell {
  size_t IX, IQ;
  double LogX, LogQ2, TX, TQ, DLogQ1, InvDLogQ0, InvDLogQ2;
  int Lower, Upper;
} vf_pdf_cell;

/* The cell of (X, Q2), both within the grid's knots. */
void vf_pdf_locate(const vf_pdf_grid *G, double X, double Q2, vf_pdf_cell *C);

/* xf of flavour index F in cell C: the same bits as vf_pdf_interpolate. */
double vf_pdf_interpolate_at(const vf_pdf_grid *G, const vf_pdf_cell *C, int F);

/* xf of flavour index F at (X, Q2), both within the grid's knots. */
double vf_pdf_interpolate(const vf_pdf_grid *G, int F, double X, double Q2);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* VF_RUNTIME_PDF_LOGCUBIC_H */
