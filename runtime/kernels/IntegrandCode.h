//===- runtime/kernels/IntegrandCode.h - What the devices run -*- C++ -*-===//
//
// The compiler/runtime contract's C++ part (its C part is SamplerABI.h,
// HistogramCells.h and PtxTargets.h): an integrand's code for the devices,
// bound by the compiler (compiler/backends/IntegrandBinding) or by
// vf::nativeIntegrand, and held by vf::IntegrandInfo::Code, which users
// see as an opaque pointer.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_INTEGRANDCODE_H
#define VF_RUNTIME_KERNELS_INTEGRANDCODE_H

#include "SamplerABI.h"
#include "vf/Integrand.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

namespace vf {

struct IntegrandCode {
  /// The fused sampling kernel for one tile (host). Called concurrently
  /// from worker threads.
  std::function<void(const vf_sampler_args *Args, unsigned long long Tile,
                     const vf_tile_outputs *Out)>
      SampleTile;
  /// SampleTile takes the box as the unit cube, which the compiler read
  /// from the domain (every interval [0, 1] in constants, or infinite),
  /// and leaves the map's points unscaled: it would ignore another box,
  /// so the integrator refuses one (a Domain replaced after binding).
  bool UnitBoxTile = false;
  /// The GPU kernel (runtime/kernels/GpuSampler.c instantiated for this
  /// integrand): its name in the GPU code, and that code for a target
  /// such as "sm_90", compiled (and cached) when an integrator is set up
  /// for GPUs: once per distinct target, before any GPU is set up, from
  /// what the compiler kept of the program (never the program itself).
  /// Empty when the integrand has no GPU code (a native one); GPUs then
  /// refuse it.
  std::string GpuKernel;
  std::function<Expected<std::string>(const std::string &Target)> GpuCode;
  /// The block of parton-density members the GPU code reads through its
  /// module's global PdfTableSymbol (compiler/codegen/PdfGen.h): each GPU
  /// copies it once per run, right after loading the module, and points
  /// the global at the copy. Null for an integrand of a program without
  /// pdf items.
  std::shared_ptr<const void> PdfTable;
  std::size_t PdfTableBytes = 0;
  std::string PdfTableSymbol;
};

} // namespace vf

#endif // VF_RUNTIME_KERNELS_INTEGRANDCODE_H
