//===- runtime/kernels/SegmentSums.h - Per-hypercube running sums -*- C -*-===//
//
// The accumulation steps every build of the fused kernel shares (the host
// tile loop in Sampler.c and the GPU kernel in GpuSampler.c), so a tile's
// sums are the same operations in the same order on every device: the
// result does not depend on which device ran the tile. Segment layout:
// kernels/SamplerABI.h. The loops over outputs unroll completely once the
// output count is a constant, so that a segment stays in registers.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SEGMENTSUMS_H
#define VF_RUNTIME_KERNELS_SEGMENTSUMS_H

#include "SamplePoint.h"

static int vf_isfinite(double v) { return v - v == 0.0; }

/// Index of the hypercube holding sample `index` (binary search; once per
/// tile, the loop then walks forward).
static vf_u64 vf_find_hcube(const vf_u64 *offsets, vf_u64 nhcube,
                            vf_u64 index) {
  vf_u64 lo = 0, hi = nhcube;
  while (hi - lo > 1) {
    vf_u64 mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= index)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// Starts a segment at the first sample's values v.
static void vf_segment_start(double *seg, const double *v, unsigned nout) {
  // Written field by field, like vf_segment_add walks them: a loop over
  // the whole stride would keep the segment in memory on the GPU.
  seg[0] = 0.0;
  double *cross = seg + 1 + 2 * nout;
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c) {
    seg[1 + c] = v[c];
    seg[1 + nout + c] = 0.0;
    VF_UNROLL_DIMENSIONS
    for (unsigned e = c; e < nout; ++e)
      *cross++ = 0.0;
  }
}

static void vf_segment_add(double *seg, const double *v, unsigned nout) {
  double dev[VF_SAMPLER_MAX_OUT];
  seg[0] += 1.0;
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c) {
    dev[c] = v[c] - seg[1 + c];
    seg[1 + nout + c] += dev[c];
  }
  double *cross = seg + 1 + 2 * nout;
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c)
    VF_UNROLL_DIMENSIONS
    for (unsigned e = c; e < nout; ++e)
      *cross++ += dev[c] * dev[e];
}

static void vf_segment_store(double *dst, const double *seg, unsigned nout) {
  unsigned stride = VF_SEGMENT_STRIDE(nout);
  VF_UNROLL_DIMENSIONS
  for (unsigned i = 0; i < stride; ++i)
    dst[i] = seg[i];
}

#endif // VF_RUNTIME_KERNELS_SEGMENTSUMS_H
