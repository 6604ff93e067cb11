//===- tests/fakecuda/GpuEmulation.h - Emulated GPU launches ------*- C -*-===//
//
// The launch side of the warp emulation: the entry points through which
// the fake CUDA driver of the tests runs GpuSampler.c's kernels on the
// host (GpuEmulation.c's trampolines, in the sampler_emu bitcode), and
// their types. The emulated intrinsics the kernel itself calls are below
// it, in WarpIntrinsics.h; this header adds the launch above it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_FAKECUDA_GPUEMULATION_H
#define VF_TESTS_FAKECUDA_GPUEMULATION_H

#include "WarpIntrinsics.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Entry points of a module compiled with the emulated kernels (the
/// compiler instantiates vf_sample_tiles_emu per integrand NAME as
/// vf_sample_tiles_emu_NAME). Params is cuLaunchKernel's kernelParams:
/// one pointer per kernel parameter, to its value. vf_gpu_emu_bind binds
/// the intrinsics' table (WarpIntrinsics.h) before any launch.
#define VF_GPU_EMU_BIND "vf_gpu_emu_bind"
#define VF_GPU_EMU_SAMPLER "vf_sample_tiles_emu"
#define VF_GPU_EMU_FOLD "vf_fold_groups_emu"
typedef void (*vf_gpu_emu_bind_fn)(const vf_gpu_emu_ops *ops);
typedef void (*vf_gpu_emu_kernel_fn)(void **params);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_TESTS_FAKECUDA_GPUEMULATION_H
