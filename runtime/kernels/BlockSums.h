//===- runtime/kernels/BlockSums.h - Segment sums, 32 at a time -*- C -*-===//
//
// A tile's samples are taken in blocks of VF_BLOCK = 32 (a GPU warp: lane l
// of the block starting at sample j0 = tile begin + 32 m is sample j0 + l).
// A segment's sums S_c = sum (v_c - K_c) and C_ce = sum (v_c - K_c)(v_e -
// K_e) (SamplerABI.h) are added block by block in block order; within a
// block, each run of samples of one hypercube is summed by a fixed tree
// (docs/algorithm.md, "Accumulation order"):
//
//   for s = 1, 2, 4, 8, 16:   q[l] <- q[l] + q[l + s]   if lane l + s is a
//                                                        valid lane of l's run
//                             q[l] unchanged            otherwise
//
// every lane at once, each step reading the previous step's values. After
// the five steps the run's first lane holds the sum of the run's terms.
// The GPU does this with shuffles across its warp (GpuSampler.c), the CPU
// with vector lanes or run by run (vf_block_segments below): the same
// additions of the same numbers in the same order, so a tile's sums are
// bitwise the same on every device, and the warp no longer walks its 32
// samples one by one.
//
// In single precision (SampleReal.h) the terms are floats and the sums
// of the deviations S_c carry a compensation term: each addition of the
// tree is Knuth's TwoSum, a + b = s + e exactly, and the pair's low parts
// add as lo <- (lo + lo') + e; a run's sum reaches the segment's double
// once per block as the exact double hi + lo (docs/algorithm.md,
// "Precision"). The products C_ce are summed in plain float.
//
// Shared by Sampler.c and GpuSampler.c.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_BLOCKSUMS_H
#define VF_RUNTIME_KERNELS_BLOCKSUMS_H

#include "SegmentSums.h"

#define VF_BLOCK 32
/// The terms of a segment that are summed: S_c, then C_ce for c <= e, in
/// the segment's order (they follow n and K there).
#define VF_SEGMENT_TERMS(k) ((k) + (k) * ((k) + 1) / 2)

/// The open segment of a tile (Sampler.c, GpuSampler.c).
typedef struct vf_open_segment {
  double sums[VF_SEGMENT_STRIDE(VF_SAMPLER_MAX_OUT)];
  vf_u64 h;
  int open;
} vf_open_segment;

/// Starts the segment of hypercube h whose first sample has values v.
static inline void vf_open_segment_start(vf_open_segment *sg, vf_u64 h,
                                         const double *v, unsigned nout) {
  sg->sums[0] = 0.0;
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c)
    sg->sums[1 + c] = v[c];
  VF_UNROLL_DIMENSIONS
  for (unsigned i = 0; i < VF_SEGMENT_TERMS(nout); ++i)
    sg->sums[1 + nout + i] = 0.0;
  sg->h = h;
  sg->open = 1;
}

/// The terms of one sample: its deviations d_c = v_c - K_c from the
/// segment's shift, then their products d_c d_e (c <= e), in the sample
/// path's arithmetic.
static inline void vf_segment_terms(const vf_real *v, const vf_real *shift,
                                    unsigned nout, vf_real *terms) {
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c)
    terms[c] = v[c] - shift[c];
  vf_real *cross = terms + nout;
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c) {
    VF_UNROLL_DIMENSIONS
    for (unsigned e = c; e < nout; ++e)
      *cross++ = terms[c] * terms[e];
  }
}

/// A run's sum of one term as the segment adds it: hi, or (\p compensated:
/// an S_c in single precision) the exact double hi + lo.
static inline double vf_run_total(vf_real hi, vf_real lo, int compensated) {
  return compensated ? (double)hi + (double)lo : (double)hi;
}

/// One step of the tree for a term: t <- t + o, compensated (\p
/// compensated; lo and o_lo the low parts) as the top of this file says.
static inline void vf_tree_add(vf_real *t, vf_real *lo, vf_real o, vf_real o_lo,
                               int compensated) {
  if (!compensated) {
    *t += o;
    return;
  }
  vf_real e;
  *t = vf_two_sum(*t, o, &e);
  *lo = (*lo + o_lo) + e;
}

/// A closed segment of hypercube h goes to the tile's edge slot 0 when h
/// is the tile's first hypercube, else to its own entry of hcube (it is
/// complete).
static inline void vf_segment_close(double *edge, double *hcube, vf_u64 h,
                                    vf_u64 first, const double *seg,
                                    unsigned nout) {
  vf_segment_store(h == first ? edge : hcube + h * VF_SEGMENT_STRIDE(nout),
                   seg, nout);
}

/// At the tile's end the open segment goes to edge slot 0 if it is the
/// tile's first hypercube, else to slot 1: either may continue in the
/// next tile, and the host merges them in tile order.
static inline void vf_segment_finish(double *edge, const vf_open_segment *sg,
                                     vf_u64 first, unsigned nout) {
  if (sg->open)
    vf_segment_store(sg->h == first ? edge : edge + VF_SEGMENT_STRIDE(nout),
                     sg->sums, nout);
}

#ifndef __NVPTX__
#ifndef VF_GPU_EMULATION

/// The run of the block starting at lane l: its end (the next lane of
/// another hypercube, the next bit of `heads`, or nb). Unless it continues
/// the open segment (the block's first run when cont), the open one is
/// closed and the run starts its own, shifted by its first value.
static inline unsigned vf_run_enter(const vf_tile_outputs *out, vf_u64 first,
                                    vf_open_segment *sg, const vf_u64 *hb,
                                    vf_u32 heads, const double *v, unsigned l,
                                    unsigned nb, unsigned nout, int cont) {
  // Lanes after l (none after lane 31: 2 << 31 wraps to 0).
  const vf_u32 later = heads & ~((2u << l) - 1u);
  const unsigned e = later ? (unsigned)__builtin_ctz(later) : nb;
  if (!cont || l > 0) {
    if (sg->open)
      vf_segment_close(out->edge_segments, out->hcube_segments, sg->h, first,
                       sg->sums, nout);
    vf_open_segment_start(sg, hb[l], v + l * nout, nout);
  }
  return e;
}

typedef double vf_f64x32 __attribute__((ext_vector_type(VF_BLOCK)));
typedef vf_real vf_realx32 __attribute__((ext_vector_type(VF_BLOCK)));
/// Select conditions for vf_realx32: integers of the same width.
#ifdef VF_SAMPLE_SINGLE
typedef int vf_maskx32 __attribute__((ext_vector_type(VF_BLOCK)));
#else
typedef long vf_maskx32 __attribute__((ext_vector_type(VF_BLOCK)));
#endif
typedef _Bool vf_b32 __attribute__((ext_vector_type(VF_BLOCK)));

/// Lane l of *c is all ones where bit l of m is set, else zero: a select
/// condition that the backend turns into a mask register (AVX-512).
static inline void vf_lane_mask(vf_u32 m, vf_maskx32 *c) {
  vf_b32 b;
  __builtin_memcpy(&b, &m, sizeof b);
  *c = __builtin_convertvector(b, vf_maskx32) != 0;
}

/// Lane l holds l.
#define VF_LANE_INDICES                                                        \
  (vf_maskx32) {                                                               \
    0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20,  \
        21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31                             \
  }

/// Lane l of the result is lane l + s of x (past the end, of p).
#define VF_LANES_AFTER(x, p, s)                                                \
  __builtin_shufflevector(                                                     \
      x, p, (s) + 0, (s) + 1, (s) + 2, (s) + 3, (s) + 4, (s) + 5, (s) + 6,     \
      (s) + 7, (s) + 8, (s) + 9, (s) + 10, (s) + 11, (s) + 12, (s) + 13,       \
      (s) + 14, (s) + 15, (s) + 16, (s) + 17, (s) + 18, (s) + 19, (s) + 20,    \
      (s) + 21, (s) + 22, (s) + 23, (s) + 24, (s) + 25, (s) + 26, (s) + 27,    \
      (s) + 28, (s) + 29, (s) + 30, (s) + 31)
/// Lane l of the result is lane l - s of x (before the start, of p).
#define VF_LANES_BEFORE(x, p, s)                                               \
  __builtin_shufflevector(                                                     \
      p, x, 32 - (s) + 0, 32 - (s) + 1, 32 - (s) + 2, 32 - (s) + 3,            \
      32 - (s) + 4, 32 - (s) + 5, 32 - (s) + 6, 32 - (s) + 7, 32 - (s) + 8,    \
      32 - (s) + 9, 32 - (s) + 10, 32 - (s) + 11, 32 - (s) + 12,               \
      32 - (s) + 13, 32 - (s) + 14, 32 - (s) + 15, 32 - (s) + 16,              \
      32 - (s) + 17, 32 - (s) + 18, 32 - (s) + 19, 32 - (s) + 20,              \
      32 - (s) + 21, 32 - (s) + 22, 32 - (s) + 23, 32 - (s) + 24,              \
      32 - (s) + 25, 32 - (s) + 26, 32 - (s) + 27, 32 - (s) + 28,              \
      32 - (s) + 29, 32 - (s) + 30, 32 - (s) + 31)

/// The largest of dev[l] * invn[l] over lanes [0, nb), the products the
/// in-order search compares (lanes where it is NaN never win there, so
/// they count as -1 here).
static inline vf_real vf_block_largest(const vf_real *dev, const vf_real *invn,
                                       unsigned nb) {
  vf_realx32 d, w;
  __builtin_memcpy(&d, dev, sizeof d);
  __builtin_memcpy(&w, invn, sizeof w);
  const vf_maskx32 lane = VF_LANE_INDICES;
  const vf_realx32 below = -1, p = d * w;
  return __builtin_reduce_max(lane < (int)nb && p == p ? p : below);
}

/// Component c of the block's values v (sample-major, nout per sample)
/// in 32 lanes: floats widened in single precision, so the rounding back
/// is exact.
static inline void vf_block_values_x32(const double *v, unsigned c,
                                       unsigned nout, vf_realx32 *out) {
  vf_f64x32 x;
  if (nout == 1) {
    __builtin_memcpy(&x, v, sizeof x);
  } else {
    double xs[VF_BLOCK];
    for (unsigned l = 0; l < VF_BLOCK; ++l)
      xs[l] = v[l * nout + c];
    __builtin_memcpy(&x, xs, sizeof x);
  }
  *out = __builtin_convertvector(x, vf_realx32);
}

/// One step of the tree on all lanes (lane l adds lane l + s where a),
/// compensated in single precision for the first nout terms (term i).
#define VF_TREE_STEP_X32(t, lo, a, s, compensated)                             \
  do {                                                                         \
    const vf_realx32 o_ = VF_LANES_AFTER(t, zero, s);                          \
    if (compensated) {                                                         \
      const vf_realx32 sum_ = t + o_, bp_ = sum_ - t;                          \
      const vf_realx32 e_ = (t - (sum_ - bp_)) + (o_ - bp_);                   \
      lo = a ? (lo + VF_LANES_AFTER(lo, zero, s)) + e_ : lo;                   \
      t = a ? sum_ : t;                                                        \
    } else {                                                                   \
      t = a ? t + o_ : t;                                                      \
    }                                                                          \
  } while (0)

/// The block step, lane-parallel: samples [0, nb) of a block, their
/// hypercubes hb[0, 32) (heads: bit l set where lane l > 0 starts a run,
/// none at or past nb; bit 0 is not read) and values v[0, 32 nout)
/// (sample-major; lanes past nb are read but not used), added to the open
/// segment sg; segments that end are stored. `dev` receives each sample's
/// |v_0 - K_0|, the deviation the largest-deviation search uses. Written
/// with 32-lane vectors, which the backend splits into the host's
/// registers (4 AVX-512, 8 AVX2), every step across all lanes at once.
static inline void vf_block_segments_lanes(const vf_tile_outputs *out,
                                           vf_u64 first, vf_open_segment *sg,
                                           const vf_u64 *hb, vf_u32 heads,
                                           const double *v, unsigned nb,
                                           unsigned nout, vf_real *dev) {
  const unsigned nt = VF_SEGMENT_TERMS(nout);
  // Which lanes share a run, as bit masks from `heads`: w[i] has bit l
  // set where a run starts in lanes (l - 2^i, l].
  vf_u32 w[5];
  w[0] = heads;
  for (unsigned i = 1; i < 5; ++i)
    w[i] = w[i - 1] | (w[i - 1] << (1u << (i - 1)));
  const vf_u32 valid = nb < VF_BLOCK ? (1u << nb) - 1u : ~0u;
  // The first run continues the open segment or starts one; the others
  // are shifted by their first sample, which each lane copies from the
  // left within its run (j[i]: lane l - 2^i is in l's run).
  const int cont = sg->open && sg->h == hb[0];
  const vf_u32 later = heads & ~1u;
  const vf_u32 first_run = later ? (later & -later) - 1u : ~0u;
  vf_maskx32 keep;
  vf_lane_mask(cont ? first_run : 0u, &keep);
  vf_maskx32 j[5];
  for (unsigned i = 0; i < 5; ++i)
    vf_lane_mask(~w[i] & ~((1u << (1u << i)) - 1u), &j[i]);
  vf_realx32 d[VF_SAMPLER_MAX_OUT];
  for (unsigned c = 0; c < nout; ++c) {
    vf_realx32 x;
    vf_block_values_x32(v, c, nout, &x);
    vf_realx32 k = x;
    k = j[0] ? VF_LANES_BEFORE(k, x, 1) : k;
    k = j[1] ? VF_LANES_BEFORE(k, x, 2) : k;
    k = j[2] ? VF_LANES_BEFORE(k, x, 4) : k;
    k = j[3] ? VF_LANES_BEFORE(k, x, 8) : k;
    k = j[4] ? VF_LANES_BEFORE(k, x, 16) : k;
    k = keep ? (vf_realx32)(vf_real)sg->sums[1 + c] : k;
    d[c] = x - k;
  }
  vf_realx32 q[VF_SEGMENT_TERMS(VF_SAMPLER_MAX_OUT)];
  for (unsigned c = 0, i = nout; c < nout; ++c) {
    q[c] = d[c];
    for (unsigned e = c; e < nout; ++e)
      q[i++] = d[c] * d[e];
  }
  const vf_realx32 dv = __builtin_elementwise_abs(d[0]);
  __builtin_memcpy(dev, &dv, sizeof dv);
  // The tree (see the top of this file): lane l adds lane l + s where
  // both are valid lanes of one run (no run starts in (l, l + s]).
  const vf_realx32 zero = 0;
  vf_maskx32 a[5];
  for (unsigned i = 0; i < 5; ++i)
    vf_lane_mask(~(w[i] >> (1u << i)) & (valid >> (1u << i)), &a[i]);
  vf_realx32 lo[VF_SAMPLER_MAX_OUT];
  for (unsigned i = 0; i < nt; ++i) {
    const int comp = VF_COMPENSATED && i < nout;
    vf_realx32 t = q[i], l = zero;
    VF_TREE_STEP_X32(t, l, a[0], 1, comp);
    VF_TREE_STEP_X32(t, l, a[1], 2, comp);
    VF_TREE_STEP_X32(t, l, a[2], 4, comp);
    VF_TREE_STEP_X32(t, l, a[3], 8, comp);
    VF_TREE_STEP_X32(t, l, a[4], 16, comp);
    q[i] = t;
    if (comp)
      lo[i] = l;
  }
  // The runs in order, each from its first lane.
  for (unsigned l = 0; l < nb;) {
    const unsigned e =
        vf_run_enter(out, first, sg, hb, heads, v, l, nb, nout, cont);
    sg->sums[0] += (double)(e - l);
    for (unsigned i = 0; i < nt; ++i) {
      const int comp = VF_COMPENSATED && i < nout;
      sg->sums[1 + nout + i] +=
          vf_run_total(q[i][l], comp ? lo[i][l] : 0, comp);
    }
    l = e;
  }
}

/// The block step run by run: the same arguments and results as
/// vf_block_segments_lanes, bit for bit.
///
/// The tree needs no lanes: what it leaves in a run's first
/// lane is the run's pairwise sum, in blocks of 1, 2, 4, ... aligned at
/// the run's start (lane l + s joins lane l's sum exactly when both lie in
/// the run), so each run is summed on its own, pass by pass, with the same
/// additions in the same order. With AVX2 the lane-parallel form needs 8
/// registers per 32-lane vector and lost to this one on AMD
/// (docs/sampling-engine.md); the compiler measures which is faster on
/// the CPU (compiler/backends/BlockStepCalibration.h).
static inline void vf_block_segments_runs(const vf_tile_outputs *out,
                                          vf_u64 first, vf_open_segment *sg,
                                          const vf_u64 *hb, vf_u32 heads,
                                          const double *v, unsigned nb,
                                          unsigned nout, vf_real *dev) {
  const unsigned nt = VF_SEGMENT_TERMS(nout);
  const int cont = sg->open && sg->h == hb[0];
  for (unsigned l = 0; l < nb;) {
    const unsigned e =
        vf_run_enter(out, first, sg, hb, heads, v, l, nb, nout, cont);
    // The run's terms, deviations from the segment's shift K, and (single
    // precision) the low parts of the S_c's sums.
    vf_real t[VF_SEGMENT_TERMS(VF_SAMPLER_MAX_OUT)][VF_BLOCK];
    vf_real lo[VF_SAMPLER_MAX_OUT][VF_BLOCK];
    vf_real shift[VF_SAMPLER_MAX_OUT];
    for (unsigned c = 0; c < nout; ++c)
      shift[c] = (vf_real)sg->sums[1 + c];
    for (unsigned m = l; m < e; ++m) {
      vf_real vm[VF_SAMPLER_MAX_OUT],
          terms[VF_SEGMENT_TERMS(VF_SAMPLER_MAX_OUT)];
      for (unsigned c = 0; c < nout; ++c) {
        vm[c] = (vf_real)v[m * nout + c];
        if (VF_COMPENSATED)
          lo[c][m - l] = 0;
      }
      vf_segment_terms(vm, shift, nout, terms);
      for (unsigned i = 0; i < nt; ++i)
        t[i][m - l] = terms[i];
      dev[m] = VF_REAL_ABS(terms[0]);
    }
    const unsigned n = e - l;
    for (unsigned w = 1; w < n; w *= 2)
      for (unsigned i = 0; i + w < n; i += 2 * w)
        for (unsigned k = 0; k < nt; ++k) {
          const int comp = VF_COMPENSATED && k < nout;
          vf_tree_add(&t[k][i], comp ? &lo[k][i] : 0, t[k][i + w],
                      comp ? lo[k][i + w] : 0, comp);
        }
    sg->sums[0] += (double)n;
    for (unsigned k = 0; k < nt; ++k) {
      const int comp = VF_COMPENSATED && k < nout;
      sg->sums[1 + nout + k] +=
          vf_run_total(t[k][0], comp ? lo[k][0] : 0, comp);
    }
    l = e;
  }
  for (unsigned m = nb; m < VF_BLOCK; ++m)
    dev[m] = 0;
}

/// The block step in the form the compiler measured faster on the host:
/// lane-parallel where `wide`, run by run otherwise.
static inline void vf_block_segments(const vf_tile_outputs *out, vf_u64 first,
                                     vf_open_segment *sg, const vf_u64 *hb,
                                     vf_u32 heads, const double *v, unsigned nb,
                                     unsigned nout, vf_real *dev, int wide) {
  if (wide)
    vf_block_segments_lanes(out, first, sg, hb, heads, v, nb, nout, dev);
  else
    vf_block_segments_runs(out, first, sg, hb, heads, v, nb, nout, dev);
}

#endif // VF_GPU_EMULATION
#endif // __NVPTX__

#endif // VF_RUNTIME_KERNELS_BLOCKSUMS_H
