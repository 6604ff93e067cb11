//===- runtime/pdf/LogCubic.h - LHAPDF 6.5's logcubic ---------*- C++ -*-===//
//
// xf inside a member's grid, as LHAPDF 6.5's LogBicubicInterpolator (the
// default "logcubic") computes it, bit for bit in the same order of
// operations:
//
//   1. the knots below: ix with x_ix <= x < x_ix+1 and iq likewise in Q^2,
//      searched over all subgrids' Q^2 knots; a Q^2 equal to a knot shared
//      by two subgrids takes the upper subgrid, the last knot the interval
//      below it;
//   2. along x, at Q^2 knots iq and iq+1 (and iq-1, iq+2 when they are in
//      the same subgrid), the precomputed cubic in t_x (GridLayout.h);
//   3. along log Q^2, a cubic Hermite between iq and iq+1 whose slopes
//      (times the interval's width) are the mean of the difference
//      quotients on both sides of a knot, one-sided at a subgrid's edges;
//   4. where the subgrid has only two Q knots, linear in log x and then
//      linear in log Q^2 instead.
//
// Nothing here allocates or fails: the caller (Continuation.h) has checked
// that (x, Q^2) lies on the grid.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_LOGCUBIC_H
#define VF_RUNTIME_PDF_LOGCUBIC_H

#include "pdf/GridLayout.h"

namespace vf::pdf {

/// xf of flavour index \p F at (\p X, \p Q2), both within the grid's knots.
double interpolateXQ2(const GridView &G, int F, double X, double Q2);

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_LOGCUBIC_H
