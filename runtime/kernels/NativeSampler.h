//===- runtime/kernels/NativeSampler.h - Sampler for native callbacks -*- C -*-===//
//
// The fused sampling kernel compiled natively (NativeSampler.c) for
// integrands written in C or C++ rather than .vf: step (3) of Sampler.c
// calls vf_native_integrand::eval for each batch of up to 64 points instead
// of the compiled integrand. Used by vf::nativeIntegrand
// (vf/Native.h) and the C API; host only.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_NATIVESAMPLER_H
#define VF_RUNTIME_KERNELS_NATIVESAMPLER_H

#include "SamplerABI.h"

#ifdef __cplusplus
extern "C" {
#endif

/// A batch integrand: eval(context, x, n, dim, params, out) fills out[i *
/// nout + c] for the n points x[i * dim + d]. Called concurrently from
/// several worker threads, each with its own x and out.
typedef struct vf_native_integrand {
  void (*eval)(const void *context, const double *x, vf_u64 n, unsigned dim,
               const double *params, double *out);
  const void *context;
} vf_native_integrand;

/// vf_sample_tile (Sampler.c) with the integrand `native`; dim and nout are
/// taken from args.
void vf_native_sample_tile(const vf_sampler_args *args, vf_u64 tile,
                           const vf_tile_outputs *out,
                           const vf_native_integrand *native);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_NATIVESAMPLER_H
