//===- runtime/kernels/GpuSampler.h - GPU kernel entries ----------*- C -*-===//
//
// The two kernels GpuSampler.c defines (SamplerABI.h documents their
// parameters and names). The compiler launches them through the CUDA
// driver by name; under warp emulation the tests' trampolines
// (tests/fakecuda/GpuEmulation.c) call them directly, so they include this
// header and the kernel includes nothing of theirs.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_GPUSAMPLER_H
#define VF_RUNTIME_KERNELS_GPUSAMPLER_H

#include "SamplerABI.h"

/// Tiles [first_tile, first_tile + ntiles), one warp per tile; the
/// compiler clones it per integrand as vf_sample_tiles_gpu_NAME.
void vf_sample_tiles_gpu(const vf_sampler_args *a, vf_u64 first_tile,
                         vf_u64 ntiles, const vf_chunk_outputs *out);
/// The training partials of whole groups of tiles (VF_GPU_FOLD_KERNEL).
void vf_fold_groups_gpu(const double *train, vf_u64 entries,
                        const vf_u64 *groups, vf_u64 ngroups,
                        double *partials);

#endif // VF_RUNTIME_KERNELS_GPUSAMPLER_H
