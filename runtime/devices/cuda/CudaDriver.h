//===- runtime/devices/cuda/CudaDriver.h - The CUDA driver, loaded late -*- C++ -*-===//
//
// vegasflow reaches NVIDIA GPUs through the CUDA driver API, opened with
// dlopen("libcuda.so.1") on first use (VF_CUDA_LIBRARY names another file,
// e.g. the fake driver of the tests; VF_DISABLE_CUDA=1 turns GPUs off).
// Nothing links against libcuda: a machine without the driver simply has no
// GPU, and detected() says why. Every entry point of cuda_functions.inc is
// a checked member returning a Status whose message names our function and
// the driver symbol ("CUDA_ERROR_OUT_OF_MEMORY: out of memory while calling
// memAlloc (cuMemAlloc_v2)").
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_CUDADRIVER_H
#define VF_RUNTIME_DEVICES_CUDA_CUDADRIVER_H

#include "devices/cuda/mini_cuda.h"
#include "vf/Expected.h"

#include <string>

namespace vf {

/// "11.8" for cuDriverGetVersion's 11080.
std::string cudaVersionText(int Version);

class CudaDriver {
public:
  /// The process-wide driver, loaded on the first call and never unloaded.
  static const CudaDriver &get();

  /// The driver loaded, initialised, and found at least one device.
  bool detected() const { return Reason.empty(); }
  /// Why there is no GPU (empty when detected()).
  const std::string &unavailableReason() const { return Reason; }
  /// The driver's CUDA version, e.g. 13000.
  int version() const { return Version; }
  int deviceCount() const { return Devices; }
  /// Which library was opened.
  const std::string &libraryPath() const { return Path; }

#define VF_CUDA_FN(Name, Symbol, Params)                                       \
  template <typename... Args> Status Name(Args... A) const {                   \
    return check(#Name, #Symbol, Fn_##Name(A...));                             \
  }
#include "devices/cuda/cuda_functions.inc"
#undef VF_CUDA_FN

  /// cuEventElapsedTime_v2, or cuEventElapsedTime on older drivers.
  Status eventElapsedTime(float *Ms, CUevent Start, CUevent End) const;

  /// "CUDA_ERROR_X: text" for a result code.
  std::string describe(CUresult R) const;

private:
  CudaDriver();
  Status check(const char *Name, const char *Symbol, CUresult R) const;
  bool load();

  void *Lib = nullptr;
  std::string Path;
  std::string Reason;
  int Version = 0;
  int Devices = 0;
  CUresult (*Fn_eventElapsedTime)(float *, CUevent, CUevent) = nullptr;
#define VF_CUDA_FN(Name, Symbol, Params) CUresult(*Fn_##Name) Params = nullptr;
#include "devices/cuda/cuda_functions.inc"
#undef VF_CUDA_FN
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_CUDADRIVER_H
