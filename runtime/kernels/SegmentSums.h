//===- runtime/kernels/SegmentSums.h - Per-hypercube running sums -*- C -*-===//
//
// Helpers every build of the fused kernel shares (the host tile loop in
// Sampler.c and the GPU kernel in GpuSampler.c): finding a tile's first
// hypercube and storing a segment (layout: kernels/SamplerABI.h). How a
// segment's sums are added is BlockSums.h.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SEGMENTSUMS_H
#define VF_RUNTIME_KERNELS_SEGMENTSUMS_H

#include "SamplePoint.h"

/// Index of the hypercube holding sample `index` (binary search; once per
/// tile, the loop then walks forward).
static inline vf_u64 vf_find_hcube(const vf_u64 *offsets, vf_u64 nhcube,
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

static inline void vf_segment_store(double *dst, const double *seg,
                                    unsigned nout) {
  unsigned stride = VF_SEGMENT_STRIDE(nout);
  VF_UNROLL_DIMENSIONS
  for (unsigned i = 0; i < stride; ++i)
    dst[i] = seg[i];
}

#endif // VF_RUNTIME_KERNELS_SEGMENTSUMS_H
