//===- tests/fakecuda/EmulatedKernel.h - GPU kernel on the host -*- C++ -*-===//
//
// For the fake CUDA driver, a host module can also carry the GPU kernel's
// own code (runtime/kernels/GpuSampler.c) compiled for the host with its
// intrinsics emulated (runtime/kernels/WarpIntrinsics.h; launched through
// GpuEmulation.h's entry points): the sampler_emu bitcode, instantiated per
// integrand NAME as vf_sample_tiles_emu_NAME like the real kernel, next to
// one vf_fold_groups_emu and vf_gpu_emu_bind per module. It reaches the
// compiler as a HostExtension (backends/Compiler.h), so the product never
// embeds this bitcode nor digests it into its cache keys.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_FAKECUDA_EMULATEDKERNEL_H
#define VF_TESTS_FAKECUDA_EMULATEDKERNEL_H

#include "backends/Compiler.h"

#include <string>

namespace vf::fakecuda {

/// vf_sample_tiles_emu_NAME.
std::string emulatedSampleSymbol(llvm::StringRef Name);

/// The emulated kernels as a compile option: its key digests the
/// sampler_emu bitcode.
const HostExtension &emulatedKernelExtension();

} // namespace vf::fakecuda

#endif // VF_TESTS_FAKECUDA_EMULATEDKERNEL_H
