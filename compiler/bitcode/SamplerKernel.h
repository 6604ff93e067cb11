//===- bitcode/SamplerKernel.h - Instantiate the fused kernel ---*- C++ -*-===//
//
// The fused sampling kernels (runtime/kernels/Sampler.c, GpuSampler.c) are
// embedded as bitcode with holes (vf_user_*): the integrand's copy on the
// fast paths and an out-of-line exact one (FastIntegrand.h; on the host
// the fast copy reads x strided where it can, StridedIntegrand.h), its
// constant dimension, output, histogram and (host) parameter counts, and
// the host's vector width.
// For each integrand NAME this clones the kernel into vf_sample_tile_NAME
// (host) or the kernel vf_sample_tiles_gpu_NAME (NVPTX) with the holes
// filled, so O2 inlines the integrand into the sampling loop and unrolls
// the loops over dimensions; on the host also vf_points_NAME, the
// integrand at given points through the same exact copy.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_SAMPLERKERNEL_H
#define VF_COMPILER_BITCODE_SAMPLERKERNEL_H

#include "bitcode/MathLibrary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/CallingConv.h"

#include <string>
#include <vector>

namespace llvm {
class Function;
} // namespace llvm

namespace vf {

struct SamplerInstance {
  llvm::Function *Integrand; ///< void(const double*, const double*, double*)
  unsigned Dim;
  unsigned Outputs;
  unsigned Histograms;       ///< cells written after the outputs
  std::string EntryName;     ///< the entry point to create
  /// (host) The integrand at given points to create next to it
  /// (runtime/kernels/IntegrandPoints.c); empty: none.
  std::string PointsName;
  bool WideVectors = false;  ///< the host has 512-bit vectors (BlockSums.h)
  /// The integrand calls C/C++ code: the kernels then get no copy on the
  /// fast paths (FastIntegrand.h), whose stand-in values could steer that
  /// code's loops.
  bool CallsForeignCode = false;
  /// Run-time parameters the host's tile may copy to its stack (0: none;
  /// runtime/kernels/Sampler.c).
  unsigned Params = 0;
};

/// The embedded sampler bitcode for \p T.
llvm::ArrayRef<unsigned char> samplerBitcode(BitcodeTarget T);

/// Links the sampler bitcode for \p T into \p M and creates each instance's
/// entry point (external linkage; a PTX kernel on NVPTX).
llvm::Error instantiateSampler(llvm::Module &M, BitcodeTarget T,
                               const std::vector<SamplerInstance> &Instances);

/// Clones the kernel \p Generic, already linked into \p M, into each
/// instance's entry point (external, calling convention \p CC) with the
/// holes filled, then deletes it (instantiateSampler's second half, shared
/// with the emulated GPU kernel's instantiation).
llvm::Error cloneKernel(llvm::Module &M, llvm::StringRef Generic,
                        const std::vector<SamplerInstance> &Instances,
                        llvm::CallingConv::ID CC);

} // namespace vf

#endif // VF_COMPILER_BITCODE_SAMPLERKERNEL_H
