//===- backends/GpuCodeHook.h - A test build's hold on GPU code -*- C++ -*-===//
//
// The one place where a test build reaches into the product: the fake CUDA
// driver of the tests (tests/fakecuda) accepts PTX but runs each launch
// with host code registered for the kernel's name, which its emulation
// target (vegasc-emu) compiles and registers when the module's GPU code is
// asked for. It does so through this hook, registered by that binary's
// main() before anything else runs. The product registers none, and then
// an integrand's GPU code is its PTX alone.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_GPUCODEHOOK_H
#define VF_COMPILER_BACKENDS_GPUCODEHOOK_H

#include "backends/Compiler.h"
#include "vf/Integrand.h"

#include <memory>

namespace vf {

/// What compiled an integrand's GPU code: enough to compile it again with
/// other options (CompileOptions::Extension).
struct GpuCodeSource {
  Compiler &OnDemand;
  std::shared_ptr<const Program> P;
  CompileOptions Options;
};

/// Given an integrand bound with GPU code (IntegrandInfo::Ptx set), may
/// replace what the runtime gets for it.
using GpuCodeHook = void (*)(IntegrandInfo &Info, const GpuCodeSource &S);

/// Registers \p Hook for every integrand bound from now on; call it before
/// any module is compiled.
void setGpuCodeHook(GpuCodeHook Hook);
/// Applies the registered hook, if any, to \p Info.
void applyGpuCodeHook(IntegrandInfo &Info, const GpuCodeSource &S);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_GPUCODEHOOK_H
