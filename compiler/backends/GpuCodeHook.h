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

#include "IntegrandCode.h"

#include <string>

namespace vf {

/// What compiled an integrand's GPU code: enough to compile it again with
/// other options (CompileOptions::Extension). \p P lives for the hook's
/// call only: what the hook keeps of it is an image (ProgramImage.h).
struct GpuCodeSource {
  Compiler &OnDemand;
  const Program &P;
  CompileOptions Options;
};

/// Given integrand \p Name's code with GPU code (IntegrandCode::GpuCode
/// set), may replace what the runtime gets for it.
using GpuCodeHook = void (*)(IntegrandCode &Code, const std::string &Name,
                             const GpuCodeSource &S);

/// Registers \p Hook for every integrand bound from now on; call it before
/// any module is compiled.
void setGpuCodeHook(GpuCodeHook Hook);
/// Applies the registered hook, if any, to \p Code.
void applyGpuCodeHook(IntegrandCode &Code, const std::string &Name,
                      const GpuCodeSource &S);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_GPUCODEHOOK_H
