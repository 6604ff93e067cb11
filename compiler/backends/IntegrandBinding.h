//===- backends/IntegrandBinding.h - Compiled code to the runtime -*- C++ -*-===//
//
// The runtime knows an integrand only as a vf::IntegrandInfo (no compiler
// types). This fills one in from the checked program and the compiled
// module: shape, parameters, entry points, and the domain and histogram
// ranges computed by compiled code and checked (IntegrandBounds.h).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_INTEGRANDBINDING_H
#define VF_COMPILER_BACKENDS_INTEGRANDBINDING_H

#include "backends/Compiler.h"
#include "faults/IntegrandFaults.h"
#include "vf/Integrand.h"

#include <memory>

namespace vf {

struct IntegrandDecl;
struct ProgramImage;

/// Calls JIT-compiled code through its entry point. Not under UBSan's
/// function-type check (-fsanitize=function, the asan preset), which
/// reads the 8 bytes before the callee for a signature: compiled code has
/// none, and an entry point at the start of the JIT's memory has an
/// unmapped page there (vegasc --eval of a C++ file crashed).
__attribute__((no_sanitize("function"))) inline void
callCompiled(BatchEntry Fn, const double *Xs, std::int64_t N,
             const double *Params, double *Out) {
  Fn(Xs, N, Params, Out);
}
__attribute__((no_sanitize("function"))) inline void
callCompiled(BoundsEntry Fn, const double *Params, double *Out) {
  Fn(Params, Out);
}
__attribute__((no_sanitize("function"))) inline void
callCompiled(WeightsEntry Fn, const double *X, const double *Params,
             double *Out) {
  Fn(X, Params, Out);
}
__attribute__((no_sanitize("function"))) inline void
callCompiled(vf_sample_tile_fn Fn, const vf_sampler_args *A,
             unsigned long long Tile, const vf_tile_outputs *Out) {
  Fn(A, Tile, Out);
}

/// What a fault in \p Name's compiled code reports
/// (faults/IntegrandFaults.h) when \p P has C/C++ code, whose faults are
/// the user's; null for a .vf program alone, where a fault is a compiler
/// bug and goes to the crash handler's stack dump. The bindings below run
/// their entry points under it.
std::shared_ptr<const FaultSite> integrandFaultSite(const Program &P,
                                                    const std::string &Name);

/// The Compiler that produced \p M owns the code the entry points point to
/// and must outlive every use of them. With \p OnDemand, the result
/// compiles its GPU kernel's code for a GPU's target with \p Options when
/// an integrator is set up for GPUs, from a frozen image of \p P
/// (ProgramImage.h): \p GpuImage, shared by the bindings of one module,
/// or one made for this binding. The result holds nothing of \p P: it
/// may be freed. Its SingleCode is \p Options.Single (the code is \p M's,
/// compiled with them).
IntegrandInfo bindIntegrand(const Program &P, const CompiledModule &M,
                            const IntegrandDecl &I,
                            Compiler *OnDemand = nullptr,
                            const CompileOptions &Options = {},
                            std::shared_ptr<const ProgramImage> GpuImage = {});

/// The frozen image of \p P that GPU code compiled later with \p Options
/// needs (codegen's GPU module as bitcode).
std::shared_ptr<const ProgramImage> gpuImage(const Program &P,
                                             const CompileOptions &Options);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_INTEGRANDBINDING_H
