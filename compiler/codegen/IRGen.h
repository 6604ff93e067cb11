//===- codegen/IRGen.h - Entry points of an integrand module ----*- C++ -*-===//
//
// Builds the LLVM module for a checked Program: per integrand NAME,
//   vf_integrand_NAME(const double *x, const double *params, double *out)
// (internal, always inlined; out[0, outputs) are the values, followed by
// the cell of each histogram as a whole number, which only the fused
// sampler reads); for an integrand with m channels, that is their sum at
// alpha = 1/m (what --eval gives), and channel C's term alone is
//   vf_integrand_NAME.chC(same arguments)
// whose params are the P user parameters followed by alpha_0 .. alpha_m-1
// and, where a channel calls density(), every channel's map
// (codegen/DensityGen.h): the fused sampler's block; the dispatcher of
// SamplerKernel.h picks the channel; and a batch entry point evaluating
// it over an array of points (x stride = dimension, out stride = number
// of outputs, no cells):
//   host: void vf_batch_NAME(const double *xs, i64 n, const double *params,
//                            double *out)
//   GPU:  kernel vf_eval_NAME(same arguments), one point per thread;
// and, on the host for an integrand with histograms,
//   void vf_cells_NAME(same arguments), out stride = number of histograms,
// each point's histogram cells (for --eval and the differential test);
// and, on the host for an integrand with weight lists, with or without
// BatchEntries,
//   void vf_weights_NAME(const double *x, const double *params, double *out)
// one point's entries of all its lists (codegen/WeightsGen.h), each times
// the maps' Jacobian (for events, --eval and the differential test);
// for a multi-channel integrand on the host, channel C's term over an
// array of points from the kernels' parameter block (P + m doubles, and
// the maps after them where a channel calls density()):
//   void vf_batch_NAME.chC(same arguments);
// and on the host, whatever else it holds,
//   void vf_bounds_NAME(const double *params, double *out)
// the values the runtime checks and uses before sampling: per interval of
// the domain its lo and hi (an infinite one: its scale and 0), then per
// histogram axis its lo and hi (the layout of backends/IntegrandBounds.h).
// Without BatchEntries the module has the integrands alone (what the fused
// sampler needs). The math library is not linked here; the backends
// link it for their target.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_IRGEN_H
#define VF_COMPILER_CODEGEN_IRGEN_H

#include "llvm/ADT/StringRef.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace vf {

struct SingleCodegen;

class GpuKernelABI;
struct Program;

/// \p P's module for the host (\p Gpu null) or for the GPU target \p Gpu;
/// with \p Single, the integrands' arithmetic in single precision (their
/// entry points still read and write doubles: ExprGen.h), the constants a
/// float cannot hold noted there.
std::unique_ptr<llvm::Module> generateModule(const Program &P,
                                             llvm::LLVMContext &Ctx,
                                             const GpuKernelABI *Gpu,
                                             bool BatchEntries = true,
                                             SingleCodegen *Single = nullptr);

std::string integrandSymbol(llvm::StringRef Name);
/// Channel \p Channel's term of a multi-channel integrand.
std::string channelSymbol(llvm::StringRef Name, unsigned Channel);
/// ... over an array of points, as vf_batch_NAME, from the kernels'
/// parameter block (host).
std::string channelBatchSymbol(llvm::StringRef Name, unsigned Channel);
std::string batchSymbol(llvm::StringRef Name);
std::string gpuEvalSymbol(llvm::StringRef Name);
std::string cellsSymbol(llvm::StringRef Name);
std::string weightsSymbol(llvm::StringRef Name);
std::string boundsSymbol(llvm::StringRef Name);
/// The fused sampling kernel instantiated for an integrand (host).
std::string sampleTileSymbol(llvm::StringRef Name);
/// ... and its GPU kernel.
std::string gpuSampleSymbol(llvm::StringRef Name);
/// The integrand at given points next to the host's sampler
/// (runtime/kernels/IntegrandPoints.c), where there is no batch entry point.
std::string pointsSymbol(llvm::StringRef Name);
/// ... and a multi-channel integrand's channel \p Channel's term there,
/// from the kernels' parameter block.
std::string channelPointsSymbol(llvm::StringRef Name, unsigned Channel);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_IRGEN_H
