//===- runtime/kernels/HistSums.h - Histogram cells of a tile -----*- C -*-===//
//
// Histograms of observables (`hist` statements), estimated on the samples
// of the integral with the integral's estimator applied to g = v_0 1[cell]
// (docs/algorithm.md, "Histograms"): per hypercube h of n_h samples, cell
// b gets
//
//   I_b += (sum_h g) / n_h / N,
//   V_b += (sum_h g^2 - (sum_h g)^2 / n_h) / (N^2 n_h (n_h - 1)),
//
// N the number of hypercubes. A sample adds to the raw sums (sum g, sum
// g^2) of its cell in its hypercube; a hypercube's raw sums become (I, V)
// terms once it is complete. Samples are ordered by hypercube, so within a
// tile only the current hypercube's sums are open, and only the cells it
// touched are folded and cleared (a list and a marker per cell).
//
// A tile's buffer (VF_HIST_TILE(cells) doubles, each part cell-major with
// two doubles per cell):
//   [0, 2c)   (I_b, V_b) of the hypercubes that lie wholly inside the tile
//             and are neither its first nor its last;
//   [2c, 4c)  raw sums of the tile's first hypercube (edge 0);
//   [4c, 6c)  raw sums of its last hypercube when that is another (edge 1).
// Edge hypercubes may continue in the neighbouring tiles: the host merges
// their raw sums in tile order and folds them (reduction/HistogramSums),
// so every sum is taken in an order fixed by tile and hypercube indices.
//
// Weight-list cells are dense (every sample has a value in each) and
// their raw sums would cancel where a hypercube's values are close to
// each other: within the hypercubes that lie inside a tile they sum
// deviations from the hypercube's first sample's values, K, and add K /
// N when folded (the integral's shift, ALGORITHM.md section 2); the
// tile's edge hypercubes, which the host merges, keep raw sums.
// Shared by Sampler.c, GpuSampler.c and the host reduction, so every
// device performs the same operations.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_HISTSUMS_H
#define VF_RUNTIME_KERNELS_HISTSUMS_H

#include "SamplerABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Adds hypercube terms of one cell's raw sums raw = (sum g, sum g^2) over
/// n samples, N hypercubes, to tot = (I, V): the integral's estimator
/// (reduction/Segments.cpp) without a shift, as g is mostly 0.
static inline void vf_hist_fold(double *tot, const double *raw, double n,
                                double nhcube) {
  tot[0] += raw[0] / n / nhcube;
  if (n < 2.0)
    return;
  double m2 = raw[1] - raw[0] * raw[0] / n;
  if (m2 < 0.0)
    m2 = 0.0; // rounding can push a tiny variance below zero
  tot[1] += m2 / (nhcube * nhcube * n * (n - 1.0));
}

/// One tile's open histogram sums.
typedef struct vf_hist_state {
  double *tot, *edge0, *edge1;
  vf_u32 *list, *mark; /* cells touched in the open hypercube (not edge 0) */
  vf_u32 nlist;
  vf_u64 first, h;     /* the tile's first hypercube, the open one */
  /* Weight-list cells [wbase, wbase + nw) (none: nw = 0), their shifts K
     in the open hypercube, and the tile's end (a sample index). */
  double *shift;
  vf_u32 wbase, nw;
  vf_u64 end;
  int shifted, fresh; /* the open hypercube's are shifted; K not set yet */
} vf_hist_state;

static inline void vf_hist_begin(vf_hist_state *s, double *hist,
                                 vf_u32 *work, vf_u32 cells, vf_u64 first) {
  s->tot = hist;
  s->edge0 = hist + 2 * (vf_u64)cells;
  s->edge1 = hist + 4 * (vf_u64)cells;
  s->list = work;
  s->mark = work + cells;
  s->nlist = 0;
  s->first = first;
  s->h = first;
  s->shift = 0;
  s->wbase = s->nw = 0;
  s->end = 0;
  s->shifted = s->fresh = 0;
}

/// The tile's weight-list cells [base, base + cells), \p shift room for
/// their shifts, \p end the tile's end.
static inline void vf_hist_weights_begin(vf_hist_state *s, double *shift,
                                         vf_u32 base, vf_u32 cells,
                                         vf_u64 end) {
  s->shift = shift;
  s->wbase = base;
  s->nw = cells;
  s->end = end;
}

/// Folds the open hypercube's touched cells (edge 1's sums) into the
/// tile's totals and clears them.
static inline void vf_hist_close(vf_hist_state *s,
                                 const vf_sampler_args *a) {
  const double n =
      (double)(a->hcube_offsets[s->h + 1] - a->hcube_offsets[s->h]);
  const double nhcube = (double)a->nhcube;
  for (vf_u32 i = 0; i < s->nlist; ++i) {
    const vf_u32 c = s->list[i];
    double *raw = s->edge1 + 2 * (vf_u64)c;
    vf_hist_fold(s->tot + 2 * (vf_u64)c, raw, n, nhcube);
    if (s->shifted && c >= s->wbase)
      s->tot[2 * (vf_u64)c] += s->shift[c - s->wbase] / nhcube;
    raw[0] = 0.0;
    raw[1] = 0.0;
    s->mark[c] = 0;
  }
  s->nlist = 0;
}

/// Opens hypercube h for a sample (closing the previous one).
static inline void vf_hist_enter(vf_hist_state *s, const vf_sampler_args *a,
                                 vf_u64 h) {
  if (h != s->h) {
    if (s->h != s->first)
      vf_hist_close(s, a);
    s->h = h;
    // Inside the tile: h is not its first (checked above) nor its last.
    s->shifted = s->fresh = s->nw && a->hcube_offsets[h + 1] < s->end;
  }
}

/// Adds g to cell c of the open hypercube.
static inline void vf_hist_put(vf_hist_state *s, vf_u32 c, double g) {
  const int in_first = s->h == s->first;
  double *raw = (in_first ? s->edge0 : s->edge1) + 2 * (vf_u64)c;
  if (!in_first && !s->mark[c]) {
    s->mark[c] = 1;
    s->list[s->nlist++] = c;
  }
  raw[0] += g;
  raw[1] += g * g;
}

/// A sample of hypercube h with weight g = v_0 in cells cell[0, nhist).
static inline void vf_hist_add(vf_hist_state *s, const vf_sampler_args *a,
                               vf_u64 h, double g, const double *cell,
                               unsigned nhist) {
  vf_hist_enter(s, a, h);
  // A zero weight adds nothing (x + 0 = x), so it need not be listed.
  if (g == 0.0)
    return;
  for (unsigned i = 0; i < nhist; ++i)
    vf_hist_put(s, (vf_u32)cell[i], g);
}

/// Cell j of a sample's VF_WEIGHT_CELLS(n) weight-list cells, from its
/// entries w[0, n) and the integral's v = J f: g_j = J w_j (j < n), then
/// g_k - v (k = j - n; their estimator gives I_k - I and its variance
/// directly, from which the covariance of I_k with I follows), then v
/// (the central value on the same estimator). A non-finite entry adds
/// nothing to its cell (w - w is then not 0), so its difference is -v.
static inline double vf_weight_cell(double jac, double v, const double *w,
                                    unsigned n, unsigned j) {
  if (j == 2 * n)
    return v;
  const unsigned k = j < n ? j : j - n;
  const double g = w[k] - w[k] == 0.0 ? jac * w[k] : 0.0;
  return j < n ? g : g - v;
}

/// A sample of hypercube h with weight-list entries w[0, n) (`weights`
/// statements) in the VF_WEIGHT_CELLS(n) dense cells from \p base
/// (vf_weight_cell). The caller passes J = v = 0 for a sample that adds
/// nothing to the integral (a value not finite). In a shifted hypercube
/// the first sample sets K and lists every cell, as each folds K / N.
static inline void vf_hist_add_entries(vf_hist_state *s,
                                       const vf_sampler_args *a, vf_u64 h,
                                       double jac, double v, vf_u32 base,
                                       const double *w, unsigned n) {
  vf_hist_enter(s, a, h);
  const unsigned cells = 2 * n + 1;
  if (s->fresh) {
    s->fresh = 0;
    for (unsigned j = 0; j < cells; ++j) {
      s->shift[j] = vf_weight_cell(jac, v, w, n, j);
      s->mark[base + j] = 1;
      s->list[s->nlist++] = base + j;
    }
    return; // its deviations are 0
  }
  for (unsigned j = 0; j < cells; ++j) {
    const double g = vf_weight_cell(jac, v, w, n, j);
    if (s->shifted) {
      double *raw = s->edge1 + 2 * (vf_u64)(base + j);
      const double d = g - s->shift[j];
      raw[0] += d;
      raw[1] += d * d;
    } else if (g != 0.0) {
      vf_hist_put(s, base + j, g);
    }
  }
}

/// Ends the tile: the last hypercube's sums stay in edge 1 for the host;
/// the workspace is left zero for the next tile.
static inline void vf_hist_end(vf_hist_state *s) {
  for (vf_u32 i = 0; i < s->nlist; ++i)
    s->mark[s->list[i]] = 0;
  s->nlist = 0;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_HISTSUMS_H
