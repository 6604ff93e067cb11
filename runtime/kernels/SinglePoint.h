//===- runtime/kernels/SinglePoint.h - A float sample's point -----*- C -*-===//
//
// The host runtime's recomputation of a sample's point (the message that
// names a non-finite value's x) where the kernels' sample path is single
// precision: SamplePoint.h compiled with VF_SAMPLE_SINGLE (SinglePoint.c),
// natively and rounding as the kernels do (-ffp-contract=off), so the x
// it gives is the one the integrand saw. The double path is SamplePoint.h,
// inline.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SINGLEPOINT_H
#define VF_RUNTIME_KERNELS_SINGLEPOINT_H

#include "SamplerABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/// x (widened to double) of sample j of hypercube h, as the
/// single-precision kernels draw it from a's float inputs.
void vf_single_sample_x(const vf_sampler_args *a, unsigned dim, vf_u64 h,
                        vf_u64 j, double *x);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_SINGLEPOINT_H
