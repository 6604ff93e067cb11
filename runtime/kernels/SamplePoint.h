//===- runtime/kernels/SamplePoint.h - One sample's point ---------*- C -*-===//
//
// Sample j of an iteration through the sampling core's stages: its
// uniforms (UniformSource.h, keyed by seed, iteration and j), then its
// channel (Channel.h: position in its hypercube, VEGAS map, the user's
// box). Shared by the GPU kernel and the host (which recomputes the point
// of a bad sample for its message, and draws events), so both compute
// exactly the same numbers; the host kernel's sixteen-lane form is
// SampleBatch.h.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLEPOINT_H
#define VF_RUNTIME_KERNELS_SAMPLEPOINT_H

#include "Channel.h"
#include "UniformSource.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Fills x (user's box) and bin (map increment per axis) for sample j in the
/// hypercube with coordinates k; returns the Jacobian including the box
/// volume, in the sample path's arithmetic (SampleReal.h).
static inline vf_real vf_sample_point(const vf_sampler_args *a, unsigned dim,
                                      vf_u64 j, const vf_real *k, double *x,
                                      vf_u32 *bin) {
  const vf_channel_scales s = vf_channel_scales_of(a);
  vf_real u[VF_SAMPLER_MAX_DIM];
  vf_uniforms_point(a, j, dim, u);
  return vf_channel_point(a, &s, dim, k, u, x, bin);
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_SAMPLEPOINT_H
