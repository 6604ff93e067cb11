//===- runtime/devices/cuda/DeviceMemory.h - Buffers that grow -*- C++ -*-===//
//
// CudaDevice's device and page-locked host buffers: grown when an
// iteration needs more, never shrunk, so that their pages are not faulted
// in anew every iteration.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_DEVICEMEMORY_H
#define VF_RUNTIME_DEVICES_CUDA_DEVICEMEMORY_H

#include "devices/cuda/CudaDriver.h"
#include "vf/Expected.h"

#include <algorithm>
#include <cstddef>

namespace vf {

/// Page-locked host memory: an async copy to or from pageable memory
/// returns only when it is done, which would serialise a slot's copy-back
/// with the other slot's kernel.
struct PinnedBuffer {
  void *Ptr = nullptr;
  std::size_t Bytes = 0;
  template <typename T> T *as() const { return static_cast<T *>(Ptr); }
};

/// Makes \p B (a device or a pinned buffer) hold at least \p Bytes,
/// reallocating (contents lost) when it is smaller.
template <typename BufferT, typename AllocFn, typename FreeFn>
Status regrow(BufferT &B, std::size_t Bytes, AllocFn Alloc, FreeFn Free) {
  if (Bytes <= B.Bytes && B.Ptr)
    return Status::ok();
  if (B.Ptr)
    if (Status S = Free(B.Ptr); !S)
      return S;
  B = {};
  Bytes = std::max<std::size_t>(Bytes, 8);
  if (Status S = Alloc(&B.Ptr, Bytes); !S)
    return S;
  B.Bytes = Bytes;
  return Status::ok();
}

inline Status growPinned(PinnedBuffer &B, std::size_t Bytes) {
  const CudaDriver &D = CudaDriver::get();
  return regrow(
      B, Bytes, [&](void **P, std::size_t N) { return D.memAllocHost(P, N); },
      [&](void *P) { return D.memFreeHost(P); });
}

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_DEVICEMEMORY_H
