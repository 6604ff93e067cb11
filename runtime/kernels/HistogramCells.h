//===- runtime/kernels/HistogramCells.h - A histogram's cells ---*- C -*-===//
//
// The compiler/runtime contract for histograms. An integrand's histograms
// fill consecutive cells, each histogram from its first cell (its base):
//   1-D, n bins:       underflow 0, bin i at 1 + i, overflow n + 1 (NaN
//                      included, as it is in no range);
//   2-D, nx x ny bins: outside 0 (NaN included), bin (ix, iy) at
//                      1 + ix ny + iy (row-major, x outermost).
// Sema sizes and places the histograms, codegen computes each sample's
// cell (codegen/HistCellGen.h) and the reference evaluator the same, and the
// runtime reads the bins and the flow cells back: all through these.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_HISTOGRAMCELLS_H
#define VF_RUNTIME_KERNELS_HISTOGRAMCELLS_H

#include "Philox.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The cell of the bin whose row-major index among the bins is `flat`.
static inline vf_u64 vf_hist_bin_cell(vf_u64 flat) { return 1 + flat; }

/// The cell of a value outside the range: 1-D below (`below`) or above
/// n bins, 2-D outside either axis.
static inline vf_u64 vf_hist_outside_cell(unsigned axes, vf_u32 n, int below) {
  return axes == 1 && !below ? (vf_u64)n + 1 : 0;
}

/// The cells of a histogram of `axes` axes (1 or 2) with nx (x ny) bins,
/// in 64 bits so that Sema can refuse a size before it overflows.
/// The power of ten p (1 to 1e15, the smallest) with which lo and hi are
/// whole numbers L = rint(lo p), H = rint(hi p) whose decimals they are
/// the nearest doubles to (L / p == lo, H / p == hi), small enough that
/// L (n - i) + H i and n p are exact; 0 where there is none. A range
/// written with short decimals ([-0.8, 0.8], [0.05, 0.95]) has one.
static inline double vf_hist_decimal_scale(double lo, double hi, vf_u64 n) {
  const double limit = 0x1p53 / (double)n;
  double p = 1.0;
  for (int k = 0; k <= 15; ++k, p *= 10.0) {
    const double l = __builtin_rint(lo * p), h = __builtin_rint(hi * p);
    if ((double)n * p < 0x1p53 && l / p == lo && h / p == hi &&
        __builtin_fabs(l) < limit && __builtin_fabs(h) < limit)
      return p;
  }
  return 0.0;
}

/// Edge i of n equal bins on [lo, hi]: lo and hi themselves at the ends,
/// and inside the double nearest the exact edge wherever the range is
/// written with short decimals (scale p of vf_hist_decimal_scale): one
/// rounding of (L (n - i) + H i) / (n p), both exact whole numbers, so
/// [-1, 1] in 20 bins has -0.3 and [-0.8, 0.8] in 8 has -0.6 (where
/// lo + (hi - lo) i / n gives -0.30000000000000004). Otherwise
/// (lo (n - i) + hi i) / n, or lo + (hi - lo) / n i where that overflows.
/// Computed without contraction everywhere (the kernels, HistogramAxis and
/// the reference evaluator with -ffp-contract=off, codegen's IR with the
/// same steps unmarked), so every place that bins or reports agrees bit
/// for bit. \p p is vf_hist_decimal_scale(lo, hi, n).
static inline double vf_hist_edge_at(double lo, double hi, vf_u64 i, vf_u64 n,
                                     double p) {
  if (i == 0)
    return lo;
  if (i >= n)
    return hi;
  if (p != 0.0)
    return (__builtin_rint(lo * p) * (double)(n - i) +
            __builtin_rint(hi * p) * (double)i) /
           ((double)n * p);
  const double e = (lo * (double)(n - i) + hi * (double)i) / (double)n;
  return e - e == 0 ? e : lo + (hi - lo) / (double)n * (double)i;
}

static inline vf_u64 vf_hist_cells(unsigned axes, vf_u32 nx, vf_u32 ny) {
  return axes == 1 ? (vf_u64)nx + 2 : 1 + (vf_u64)nx * ny;
}

#ifdef __cplusplus
}
#endif

#endif // VF_RUNTIME_KERNELS_HISTOGRAMCELLS_H
