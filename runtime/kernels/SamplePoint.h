//===- runtime/kernels/SamplePoint.h - One sample's point and weight -*- C -*-===//
//
// Sample j of an iteration: its uniforms (Philox, keyed by seed, iteration
// and j), its position y = (k + u)/M in hypercube k, the VEGAS map
// x_unit = e_i + (yN - i)(e_{i+1} - e_i) with Jacobian N (e_{i+1} - e_i) per
// axis, and the affine map to the user's box. Shared by the fused kernel and
// the host (which recomputes the point of a bad sample for its message, and
// draws events), so both compute exactly the same numbers.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLEPOINT_H
#define VF_RUNTIME_KERNELS_SAMPLEPOINT_H

#include "SamplerABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The largest double below 1: y = (k + u)/M can round up to 1.0.
#define VF_ONE_MINUS_ULP 0x1.fffffffffffffp-1

/// In the kernel bitcode the dimension is a constant once the integrand is
/// instantiated: the per-dimension loops are then unrolled completely (no
/// size limit), which leaves the kernel's loop over samples innermost so
/// the host's loop vectorizer can widen it across samples.
#ifdef VF_KERNEL_BITCODE
#define VF_UNROLL_DIMENSIONS _Pragma("clang loop unroll(full)")
#else
#define VF_UNROLL_DIMENSIONS
#endif

/// Integer coordinates of hypercube h, axis 0 varying fastest.
static inline void vf_hcube_coords(vf_u64 h, unsigned dim, vf_u32 nstrat,
                                   double *k) {
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d) {
    k[d] = (double)(h % nstrat);
    h /= nstrat;
  }
}

/// Fills x (user's box) and bin (map increment per axis) for sample j in the
/// hypercube with coordinates k; returns the Jacobian including the box
/// volume. The GPU kernel's and the host's scalar form; the host's tile
/// loop does the same eight samples at a time (SampleBatch.h).
static inline double vf_sample_point(const vf_sampler_args *a, unsigned dim,
                                     vf_u64 j, const double *k, double *x,
                                     vf_u32 *bin) {
  const vf_u32 ninc = a->ninc;
  const double dninc = (double)ninc, inv_nstrat = 1.0 / (double)a->nstrat;
  // All uniforms first, four per Philox block, so the loop over dimensions
  // has no dependence on an earlier iteration's block.
  double u[VF_SAMPLER_MAX_DIM];
  VF_UNROLL_DIMENSIONS
  for (unsigned blk = 0; 4 * blk < dim; ++blk) {
    vf_u32 words[4];
    vf_philox_block(a->seed, a->iteration, j, blk, words);
    VF_UNROLL_DIMENSIONS
    for (unsigned c = 0; c < 4 && 4 * blk + c < dim; ++c)
      u[4 * blk + c] = vf_philox_u01(words[c]);
  }
  double jac = a->box_volume;
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d) {
    double y = (k[d] + u[d]) * inv_nstrat;
    y = y < 1.0 ? y : VF_ONE_MINUS_ULP;
    double t = y * dninc;
    vf_u32 i = (vf_u32)t;
    i = i < ninc ? i : ninc - 1;
    const double *e = a->edges + (vf_u64)d * (ninc + 1) + i;
    double width = e[1] - e[0];
    double xu = e[0] + (t - (double)i) * width;
    jac *= dninc * width;
    x[d] = a->box_lo[d] + a->box_width[d] * xu;
    bin[d] = i;
  }
  return jac;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_SAMPLEPOINT_H
