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

/// A sample of hypercube h with weight-list entries w[0, n) (`weights`
/// statements), each a dense cell from \p base with g = J w_k: the
/// entries' integrals and errors are the histogram cells' estimator. The
/// caller passes J = 0 for a sample that adds nothing to the integral (a
/// value not finite); a non-finite entry adds nothing either (w - w is
/// then not 0).
static inline void vf_hist_add_entries(vf_hist_state *s,
                                       const vf_sampler_args *a, vf_u64 h,
                                       double jac, vf_u32 base, const double *w,
                                       unsigned n) {
  vf_hist_enter(s, a, h);
  for (unsigned k = 0; k < n; ++k) {
    const double g = w[k] - w[k] == 0.0 ? jac * w[k] : 0.0;
    if (g != 0.0)
      vf_hist_put(s, base + k, g);
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
