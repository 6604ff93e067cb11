//===- bitcode/EmulatedKernel.h - The GPU kernel for the host ---*- C++ -*-===//
//
// For the fake CUDA driver of the tests, a host module can also carry the
// GPU kernel's own code (runtime/kernels/GpuSampler.c) compiled for the
// host with its intrinsics emulated (runtime/kernels/WarpIntrinsics.h;
// launched through GpuEmulation.h's entry points): the sampler_emu
// bitcode, instantiated per integrand NAME as
// vf_sample_tiles_emu_NAME like the real kernel, next to one
// vf_fold_groups_emu and vf_gpu_emu_bind per module.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_EMULATEDKERNEL_H
#define VF_COMPILER_BITCODE_EMULATEDKERNEL_H

#include "bitcode/SamplerKernel.h"

#include <string>

namespace vf {

/// The embedded sampler_emu bitcode (x86-64).
llvm::ArrayRef<unsigned char> emulatedSamplerBitcode();

/// vf_sample_tiles_emu_NAME.
std::string emulatedSampleSymbol(llvm::StringRef Name);

/// Links the emulated kernels into host module \p M and creates each
/// instance's entry point (its EntryName), keeping the module's fold and
/// bind entry points external.
llvm::Error instantiateEmulatedSampler(
    llvm::Module &M, const std::vector<SamplerInstance> &Instances);

} // namespace vf

#endif // VF_COMPILER_BITCODE_EMULATEDKERNEL_H
