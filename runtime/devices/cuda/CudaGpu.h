//===- runtime/devices/cuda/CudaGpu.h - One GPU, described --*- C++ -*-===//
//
// What the driver says of a GPU before anything runs on it: its model,
// compute capability, memory, and the PTX target its kernel is compiled
// for. The device set asks for every GPU first, so that each distinct
// target's PTX is compiled once, at the module level, before any device is
// set up (CudaDevice::create takes the PTX as text).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_CUDAGPU_H
#define VF_RUNTIME_DEVICES_CUDA_CUDAGPU_H

#include "devices/cuda/mini_cuda.h"
#include "vf/Expected.h"

#include <cstddef>
#include <string>

namespace vf {

struct CudaGpu {
  std::string Name; ///< "gpu:N"
  CUdevice Dev = 0;
  /// The PTX target: the device's own compute capability up to the newest
  /// the compiler targets (kernels/PtxTargets.h), that one for newer
  /// devices, whose driver JIT-compiles it.
  std::string Arch;
  /// The model, its compute capability and multiprocessors (and, for a
  /// device newer than Arch, that the driver JIT-compiles Arch's PTX).
  std::string Description;
  int Multiprocessors = 1;
  std::size_t MemoryBytes = 0;
};

/// GPU \p Ordinal as the driver describes it; an error says why it cannot
/// run the kernel (no driver, no such GPU, too old a GPU or driver).
Expected<CudaGpu> queryCudaGpu(int Ordinal);

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_CUDAGPU_H
