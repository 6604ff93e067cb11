//===- bitcode/SamplerKernel.h - Instantiate the fused kernel ---*- C++ -*-===//
//
// The fused sampling kernels (runtime/kernels/Sampler.c, GpuSampler.c) are
// embedded as bitcode with holes (vf_user_*): the integrand's copy on the
// fast paths and an out-of-line exact one (FastIntegrand.h; on the host
// the fast copy reads x strided where it can, StridedIntegrand.h), its
// constant dimension, output, histogram and (host) parameter counts, and
// the host's vector width and map form.
// For each integrand NAME this clones the kernel into vf_sample_tile_NAME
// (host) or the kernel vf_sample_tiles_gpu_NAME (NVPTX) with the holes
// filled, so O2 inlines the integrand into the sampling loop and unrolls
// the loops over dimensions; on the host also vf_points_NAME, the
// integrand at given points through the same exact copy.
// A multi-channel integrand's kernel is cloned once per channel, each
// filled with its channel's term (internal, calling convention C), and the
// entry point is a dispatcher that calls the clone of the channel
// vf_sampler_args::channel names; for any other channel it does nothing.
// On the host each channel's term at given points may sit beside it.
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

/// One channel of a multi-channel integrand's instance.
struct SamplerChannel {
  llvm::Function *Term;   ///< its term, of SamplerInstance::Integrand's type
  std::string PointsName; ///< (host) its term at given points; empty: none
};

struct SamplerInstance {
  /// void(const double*, const double*, double*); of a multi-channel
  /// integrand, the channels' sum, which vf_points_NAME computes.
  llvm::Function *Integrand;
  unsigned Dim;
  unsigned Outputs;
  unsigned Histograms;       ///< cells written after the outputs
  std::string EntryName;     ///< the entry point to create
  /// (host) The integrand at given points to create next to it
  /// (runtime/kernels/IntegrandPoints.c); empty: none.
  std::string PointsName;
  bool WideVectors = false; ///< the block step is lane-parallel (BlockSums.h)
  /// The integrand calls C/C++ code: the kernels then get no copy on the
  /// fast paths (FastIntegrand.h), whose stand-in values could steer that
  /// code's loops.
  bool CallsForeignCode = false;
  /// Run-time parameters the host's tile may copy to its stack (0: none;
  /// runtime/kernels/Sampler.c).
  unsigned Params = 0;
  /// A multi-channel integrand's channels in order; empty for an
  /// ordinary integrand.
  std::vector<SamplerChannel> Channels = {};
  /// The channel a clone samples (the vf_user_channel hole).
  unsigned Channel = 0;
  /// (host) Weight-list entries written after the histograms' cells.
  unsigned WeightEntries = 0;
  /// The kernel's sample path is single precision (--precision f32;
  /// runtime/kernels/SampleReal.h): the same for every instance of a
  /// module.
  bool Single = false;
  /// (host) The map gathers its edges rather than loading them in pairs
  /// (runtime/kernels/ChannelX8.h); the same results either way.
  bool MapGathers = false;
  /// (host) The box is the unit cube whatever the parameters
  /// (ProgramImage::Integrand::UnitBox): the map's points need no scaling.
  bool UnitBox = false;
};

/// Where a kernel's entry point finds its vf_sampler_args pointer, which
/// the dispatcher of a multi-channel integrand reads: in parameter Param,
/// after Loads loads of a pointer (0: the parameter is the pointer; 2:
/// cuLaunchKernel's parameter array, whose first element points to it).
struct ArgsPointer {
  unsigned Param = 0;
  unsigned Loads = 0;
};

/// The embedded sampler bitcode for \p T, with a single-precision sample
/// path for \p Single (runtime/kernels/SampleReal.h).
llvm::ArrayRef<unsigned char> samplerBitcode(BitcodeTarget T, bool Single);

/// Links the sampler bitcode for \p T (single or double, as the instances
/// say) into \p M and creates each instance's entry point (external
/// linkage; a PTX kernel on NVPTX).
llvm::Error instantiateSampler(llvm::Module &M, BitcodeTarget T,
                               const std::vector<SamplerInstance> &Instances);

/// Clones the kernel \p Generic, already linked into \p M, into each
/// instance's entry point (external, calling convention \p CC) with the
/// holes filled, then deletes it (instantiateSampler's second half, shared
/// with the emulated GPU kernel's instantiation). \p Args: where the entry
/// finds its arguments, for the dispatcher of a multi-channel integrand.
llvm::Error cloneKernel(llvm::Module &M, llvm::StringRef Generic,
                        const std::vector<SamplerInstance> &Instances,
                        llvm::CallingConv::ID CC, ArgsPointer Args = {});

} // namespace vf

#endif // VF_COMPILER_BITCODE_SAMPLERKERNEL_H
