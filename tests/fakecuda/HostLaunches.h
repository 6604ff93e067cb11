//===- tests/fakecuda/HostLaunches.h - Host code, fake driver --*- C++ -*-===//
//
// The fake CUDA driver (FakeCuda.cpp) runs a launch with host code
// registered for the kernel's name: by default the GPU kernels compiled
// for the host under warp emulation (EmulatedKernel.h), or the host kernel
// and fold (VF_FAKE_CUDA_KERNELS=host). vegasc-emu registers them through
// the product's one hook for it (backends/GpuCodeHook.h): whenever an
// integrand's PTX is compiled for a GPU, its host code is registered too.
// Against a real driver, which has no such entry points, nothing is.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_FAKECUDA_HOSTLAUNCHES_H
#define VF_TESTS_FAKECUDA_HOSTLAUNCHES_H

namespace vf::fakecuda {

/// Registers the hook; call it first thing in main().
void registerGpuEmulation();

} // namespace vf::fakecuda

#endif // VF_TESTS_FAKECUDA_HOSTLAUNCHES_H
