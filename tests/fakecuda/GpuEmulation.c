//===- tests/fakecuda/GpuEmulation.c - GPU kernels' host entries --*- C -*-===//
//
// The entry points through which the fake CUDA driver runs GpuSampler.c's
// kernels on the host (GpuEmulation.h): each unpacks cuLaunchKernel's
// parameter array into the kernel's own parameters and calls it, on every
// lane the emulator runs. They sit above the kernel (GpuSampler.h); the
// table they bind is the one the kernel's intrinsics call below it
// (WarpIntrinsics.h). Only in the sampler_emu bitcode (x86-64 with
// VF_GPU_EMULATION); empty elsewhere.
//
//===----------------------------------------------------------------------===//

#ifdef VF_GPU_EMULATION

#include "GpuEmulation.h"
#include "GpuSampler.h"

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
