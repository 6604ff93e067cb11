//===- runtime/kernels/GpuEmulation.c - GPU kernels' host entries -*- C -*-===//
//
// The entry points through which the fake CUDA driver runs GpuSampler.c's
// kernels on the host (GpuEmulation.h): each unpacks cuLaunchKernel's
// parameter array into the kernel's own parameters and calls it, on every
// lane the emulator runs. Only in the sampler_emu bitcode (x86-64 with
// VF_GPU_EMULATION); empty elsewhere.
//
//===----------------------------------------------------------------------===//

#ifdef VF_GPU_EMULATION

#include "GpuEmulation.h"
#include "SamplerABI.h"

void vf_sample_tiles_gpu(const vf_sampler_args *a, vf_u64 first_tile,
                         vf_u64 ntiles, const vf_chunk_outputs *out);
void vf_fold_groups_gpu(const double *train, vf_u64 entries,
                        const vf_u64 *groups, vf_u64 ngroups,
                        double *partials);

const vf_gpu_emu_ops *vf_gpu_emu;

void vf_gpu_emu_bind(const vf_gpu_emu_ops *ops) { vf_gpu_emu = ops; }

#define VF_PARAM(type, i) (*(type const *)params[i])

void vf_sample_tiles_emu(void **params) {
  vf_sample_tiles_gpu(VF_PARAM(const vf_sampler_args *, 0),
                      VF_PARAM(vf_u64, 1), VF_PARAM(vf_u64, 2),
                      VF_PARAM(const vf_chunk_outputs *, 3));
}

void vf_fold_groups_emu(void **params) {
  vf_fold_groups_gpu(VF_PARAM(const double *, 0), VF_PARAM(vf_u64, 1),
                     VF_PARAM(const vf_u64 *, 2), VF_PARAM(vf_u64, 3),
                     VF_PARAM(double *, 4));
}

#endif // VF_GPU_EMULATION
