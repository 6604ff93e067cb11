//===- runtime/devices/cuda/FakeDriverKernels.h - Host code for the fake driver -*- C++ -*-===//
//
// The fake CUDA driver of the tests (tests/fakecuda) runs a launch with host
// code registered for the kernel's name: by default the GPU kernels
// compiled for the host under warp emulation, or the host kernel and fold
// (VF_FAKE_CUDA_KERNELS=host). A real driver has no such hook, and this
// does nothing there.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_FAKEDRIVERKERNELS_H
#define VF_RUNTIME_DEVICES_CUDA_FAKEDRIVERKERNELS_H

#include "vf/Expected.h"
#include "vf/Integrand.h"

namespace vf {

/// Registers \p I's kernels with the fake driver (when it is the one
/// loaded); an error says why the emulated kernel is missing.
Status registerOnHost(const IntegrandInfo &I);

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_FAKEDRIVERKERNELS_H
