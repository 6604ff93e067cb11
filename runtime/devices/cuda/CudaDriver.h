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

#include "GpuEmulation.h"
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

  /// The fake driver of the tests (tests/fakecuda) runs a launch with a
  /// host function registered for the kernel's name; a real driver has no
  /// such hook, and this does nothing.
  using HostKernel = void (*)(void *Context, void **Params, unsigned Grid,
                              unsigned Block);
  bool runsKernelsOnHost() const { return Fn_fakeRegisterKernel != nullptr; }
  void registerHostKernel(const char *Name, HostKernel Fn,
                          void *Context) const {
    if (Fn_fakeRegisterKernel)
      Fn_fakeRegisterKernel(Name, Fn, Context);
  }
  /// The fake driver runs launches through the GPU kernel's own code
  /// compiled for the host (kernels/GpuEmulation.h) instead, unless told
  /// to use the host kernels (VF_FAKE_CUDA_KERNELS=host).
  bool emulatesKernels() const {
    return Fn_fakeEmulates && Fn_fakeEmulates() && Fn_fakeRegisterEmulated;
  }
  void registerEmulatedKernel(const char *Name, vf_gpu_emu_bind_fn Bind,
                              vf_gpu_emu_kernel_fn Fn) const {
    if (Fn_fakeRegisterEmulated)
      Fn_fakeRegisterEmulated(Name, Bind, Fn);
  }

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
  void (*Fn_fakeRegisterKernel)(const char *, HostKernel, void *) = nullptr;
  int (*Fn_fakeEmulates)() = nullptr;
  void (*Fn_fakeRegisterEmulated)(const char *, vf_gpu_emu_bind_fn,
                                  vf_gpu_emu_kernel_fn) = nullptr;
#define VF_CUDA_FN(Name, Symbol, Params) CUresult(*Fn_##Name) Params = nullptr;
#include "devices/cuda/cuda_functions.inc"
#undef VF_CUDA_FN
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_CUDADRIVER_H
