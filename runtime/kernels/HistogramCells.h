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
/// Edge i of n equal bins on [lo, hi]: lo and hi themselves at the ends,
/// (lo (n - i) + hi i) / n inside, which is the double nearest the exact
/// edge whenever the numerator is exact: lo and hi whole numbers or
/// multiples of a power of two ([-1, 1] in 20 bins has -0.3, where
/// lo + (hi - lo) i / n gives -0.30000000000000004; [50, 150], [-2.5,
/// 2.5]), within an ulp or two of it otherwise; lo + (hi - lo) / n i
/// where the numerator overflows. Compiled without contraction everywhere
/// (the kernels, HistogramAxis and the reference evaluator with
/// -ffp-contract=off, codegen's IR with the same steps unmarked), so every
/// place that bins or reports agrees bit for bit.
static inline double vf_hist_edge(double lo, double hi, vf_u64 i, vf_u64 n) {
  if (i == 0)
    return lo;
  if (i >= n)
    return hi;
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
