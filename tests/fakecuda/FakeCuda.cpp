//===- tests/fakecuda/FakeCuda.cpp - A CUDA driver for machines without one -===//
//
// A shared library exporting the CUDA driver entry points vegasflow uses
// (the table in runtime/devices/cuda/cuda_functions.inc, plus the error and
// event-time functions), so the CUDA backend's host logic can run in CI:
// vegasc loads it through VF_CUDA_LIBRARY. Devices are plain host memory;
// modules record their PTX; a launch runs the GPU kernel's own code under
// warp emulation (WarpEmulator.h: the module compiled for the host with
// its intrinsics emulated, registered for the kernel's name with
// vfFakeCudaRegisterEmulatedKernel), or with VF_FAKE_CUDA_KERNELS=host the
// host function registered with vfFakeCudaRegisterKernel (the host
// sampler, faster, but it never runs the GPU code). Environment:
//   VF_FAKE_CUDA_DEVICES=N     number of devices (default 1; 0: none)
//   VF_FAKE_CUDA_FAIL_INIT=1   cuInit fails
//   VF_FAKE_CUDA_FAIL_LAUNCH=K the K-th launch (1-based) fails
//   VF_FAKE_CUDA_TRACE=1       each launch is logged to stderr
//   VF_FAKE_CUDA_MAJOR=M       compute capability M.0 (default 9)
//   VF_FAKE_CUDA_DRIVER=V      cuDriverGetVersion's answer (default 13000)
//   VF_FAKE_CUDA_KERNELS=host  launches run the host kernels (default:
//                              emulated, the GPU kernel's own code)
//   VF_FAKE_CUDA_BLOCK=B       the block size the occupancy query suggests
//                              (default 128), VF_FAKE_CUDA_MIN_GRID its grid
//   VF_FAKE_CUDA_FAULT=F       the emulator injects a kernel bug (tests
//                              only): no-warp-sync or shfl-off-by-one
// Async copies must use page-locked host memory (cuMemAllocHost), or they
// fail with CUDA_ERROR_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//

#include "WarpEmulator.h"
#include "devices/cuda/mini_cuda.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <string>

namespace {

constexpr CUresult FakeInvalidValue = 1;
constexpr CUresult FakeLaunchFailed = 719; // CUDA_ERROR_LAUNCH_FAILED

int envInt(const char *Name, int Default) {
  const char *V = std::getenv(Name);
  return V && *V ? std::atoi(V) : Default;
}

/// Page-locked allocations (cuMemAllocHost): the fake insists that async
/// copies use them, since with pageable memory the real driver quietly
/// makes the copy synchronous and the slots' overlap is lost.
std::mutex PinnedMutex;
std::map<const char *, size_t> Pinned;

bool isPinned(const void *P, size_t N) {
  std::lock_guard<std::mutex> Lock(PinnedMutex);
  const char *C = static_cast<const char *>(P);
  auto It = Pinned.upper_bound(C);
  if (It == Pinned.begin())
    return false;
  --It;
  return C >= It->first && C + N <= It->first + It->second;
}

struct FakeFunction {
  std::string Name;
};
/// A module owns its functions, as the driver's do: unloading frees them.
struct FakeModule {
  std::string PTX;
  std::deque<FakeFunction> Functions;
};

using HostKernel = void (*)(void *Context, void **Args, unsigned Grid,
                            unsigned Block);
struct Registered {
  HostKernel Fn = nullptr;
  void *Context = nullptr;
  vf_gpu_emu_kernel_fn Emulated = nullptr;
};

std::mutex Mutex;
std::map<std::string, Registered> &kernels() {
  static auto *K = new std::map<std::string, Registered>();
  return *K;
}

bool emulates() {
  const char *V = std::getenv("VF_FAKE_CUDA_KERNELS");
  return !(V && std::string(V) == "host");
}

vf::fakecuda::EmulatorOptions emulatorOptions() {
  vf::fakecuda::EmulatorOptions O;
  const char *F = std::getenv("VF_FAKE_CUDA_FAULT");
  const std::string Fault = F ? F : "";
  O.Inject = Fault == "no-warp-sync"      ? vf::fakecuda::Fault::NoWarpSync
             : Fault == "shfl-off-by-one" ? vf::fakecuda::Fault::ShflOffByOne
                                          : vf::fakecuda::Fault::None;
  if (const char *J = std::getenv("VF_FAKE_CUDA_JITTER"); J && *J)
    O.Seed = std::strtoull(J, nullptr, 10) | 1;
  return O;
}

/// The last launch failure's message, which cuGetErrorString returns.
std::string LaunchFailure = "unspecified launch failure (injected)";
std::atomic<int> Launches{0};
bool Initialised = false;

} // namespace

extern "C" {

/// Test hook: the host function to run, with \p Context, for launches of
/// kernel \p Name (vegasflow's CUDA backend registers the host build of
/// each kernel it loads).
__attribute__((visibility("default"))) void
vfFakeCudaRegisterKernel(const char *Name, HostKernel Fn, void *Context) {
  std::lock_guard<std::mutex> Lock(Mutex);
  kernels()[Name].Fn = Fn;
  kernels()[Name].Context = Context;
}

/// Test hook: whether launches run the emulated GPU kernels (the backend
/// then compiles and registers them).
__attribute__((visibility("default"))) int vfFakeCudaEmulatesKernels() {
  return emulates();
}

/// Test hook: the GPU kernel \p Name compiled for the host under
/// emulation; \p Bind gives its module the emulator's intrinsics (once
/// per module, before any of its kernels runs).
__attribute__((visibility("default"))) void
vfFakeCudaRegisterEmulatedKernel(const char *Name, vf_gpu_emu_bind_fn Bind,
                                 vf_gpu_emu_kernel_fn Fn) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Bind(vf::fakecuda::emulatorOps());
  kernels()[Name].Emulated = Fn;
}

#define VF_FAKE_API __attribute__((visibility("default")))

VF_FAKE_API CUresult cuGetErrorName(CUresult R, const char **S) {
  *S = R == FakeLaunchFailed ? "CUDA_ERROR_LAUNCH_FAILED"
       : R == CUDA_ERROR_NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED"
                                         : "CUDA_ERROR_INVALID_VALUE";
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuGetErrorString(CUresult R, const char **S) {
  *S = R == FakeLaunchFailed ? LaunchFailure.c_str() : "fake driver error";
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDriverGetVersion(int *V) {
  *V = envInt("VF_FAKE_CUDA_DRIVER", 13000);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuInit(unsigned) {
  if (envInt("VF_FAKE_CUDA_FAIL_INIT", 0))
    return CUDA_ERROR_NOT_INITIALIZED;
  Initialised = true;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceGetCount(int *N) {
  if (!Initialised)
    return CUDA_ERROR_NOT_INITIALIZED;
  *N = envInt("VF_FAKE_CUDA_DEVICES", 1);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceGet(CUdevice *D, int I) {
  if (I < 0 || I >= envInt("VF_FAKE_CUDA_DEVICES", 1))
    return FakeInvalidValue;
  *D = I;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceGetName(char *Name, int Len, CUdevice D) {
  std::snprintf(Name, size_t(Len), "vegasflow fake GPU %d", D);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceGetAttribute(int *V, int Attr, CUdevice) {
  switch (Attr) {
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR:
    *V = envInt("VF_FAKE_CUDA_MAJOR", 9);
    break;
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: *V = 0; break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *V = 4; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *V = 1024; break;
  default: *V = 2048; break;
  }
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceTotalMem_v2(size_t *B, CUdevice) {
  *B = size_t(1) << 30;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice D) {
  *C = reinterpret_cast<CUcontext>(std::intptr_t(D) + 1);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuCtxSetCurrent(CUcontext) { return CUDA_SUCCESS; }
VF_FAKE_API CUresult cuCtxSynchronize() { return CUDA_SUCCESS; }

VF_FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *P, size_t Bytes) {
  void *M = std::calloc(1, Bytes ? Bytes : 1);
  if (!M)
    return FakeInvalidValue;
  *P = reinterpret_cast<CUdeviceptr>(M);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemFree_v2(CUdeviceptr P) {
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemAllocHost_v2(void **P, size_t Bytes) {
  *P = std::calloc(1, Bytes ? Bytes : 1);
  if (!*P)
    return FakeInvalidValue;
  std::lock_guard<std::mutex> Lock(PinnedMutex);
  Pinned[static_cast<const char *>(*P)] = Bytes;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemFreeHost(void *P) {
  {
    std::lock_guard<std::mutex> Lock(PinnedMutex);
    Pinned.erase(static_cast<const char *>(P));
  }
  std::free(P);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr D, const void *S, size_t N) {
  std::memcpy(reinterpret_cast<void *>(D), S, N);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemcpyDtoH_v2(void *D, CUdeviceptr S, size_t N) {
  std::memcpy(D, reinterpret_cast<const void *>(S), N);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr D, const void *S,
                                          size_t N, CUstream) {
  if (!isPinned(S, N))
    return FakeInvalidValue;
  return cuMemcpyHtoD_v2(D, S, N);
}
VF_FAKE_API CUresult cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t N,
                                          CUstream) {
  if (!isPinned(D, N))
    return FakeInvalidValue;
  return cuMemcpyDtoH_v2(D, S, N);
}
VF_FAKE_API CUresult cuMemsetD8_v2(CUdeviceptr D, unsigned char V, size_t N) {
  std::memset(reinterpret_cast<void *>(D), V, N);
  return CUDA_SUCCESS;
}

VF_FAKE_API CUresult cuModuleLoadDataEx(CUmodule *M, const void *Image,
                                        unsigned, int *, void **) {
  auto *F = new FakeModule{static_cast<const char *>(Image), {}};
  if (F->PTX.find(".entry") == std::string::npos) {
    delete F;
    return FakeInvalidValue;
  }
  *M = reinterpret_cast<CUmodule>(F);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuModuleUnload(CUmodule M) {
  delete reinterpret_cast<FakeModule *>(M);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuModuleGetFunction(CUfunction *F, CUmodule M,
                                         const char *Name) {
  auto *Mod = reinterpret_cast<FakeModule *>(M);
  if (Mod->PTX.find(std::string(".entry ") + Name) == std::string::npos)
    return FakeInvalidValue;
  *F = reinterpret_cast<CUfunction>(&Mod->Functions.emplace_back(
      FakeFunction{Name}));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY,
                                    unsigned GZ, unsigned BX, unsigned BY,
                                    unsigned BZ, unsigned Shared, CUstream,
                                    void **Args, void **) {
  int K = ++Launches;
  if (K == envInt("VF_FAKE_CUDA_FAIL_LAUNCH", 0))
    return FakeLaunchFailed;
  const std::string &Name = reinterpret_cast<FakeFunction *>(F)->Name;
  Registered R;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = kernels().find(Name);
    if (It == kernels().end())
      return FakeInvalidValue;
    R = It->second;
  }
  const bool Emulated = emulates();
  if ((Emulated && !R.Emulated) || (!Emulated && !R.Fn))
    return FakeInvalidValue;
  const vf::fakecuda::LaunchGeometry G{{GX, GY, GZ}, {BX, BY, BZ}, Shared};
  if (std::string Bad = vf::fakecuda::checkGeometry(G); !Bad.empty()) {
    std::fprintf(stderr, "fakecuda: launch %s: %s\n", Name.c_str(),
                 Bad.c_str());
    return FakeInvalidValue;
  }
  if (envInt("VF_FAKE_CUDA_TRACE", 0))
    std::fprintf(stderr, "fakecuda: launch %s grid %u block %u%s\n",
                 Name.c_str(), GX, BX, Emulated ? " (emulated)" : "");
  if (!Emulated) {
    R.Fn(R.Context, Args, GX, BX);
    return CUDA_SUCCESS;
  }
  std::string Failure =
      vf::fakecuda::runEmulated(Name, R.Emulated, Args, G, emulatorOptions());
  if (Failure.empty())
    return CUDA_SUCCESS;
  std::fprintf(stderr, "fakecuda: %s\n", Failure.c_str());
  std::lock_guard<std::mutex> Lock(Mutex);
  LaunchFailure = Failure;
  return FakeLaunchFailed;
}
VF_FAKE_API CUresult cuOccupancyMaxPotentialBlockSize(int *Grid, int *Block,
                                                      CUfunction, void *,
                                                      size_t, int) {
  *Grid = envInt("VF_FAKE_CUDA_MIN_GRID", 8);
  *Block = envInt("VF_FAKE_CUDA_BLOCK", 128);
  return CUDA_SUCCESS;
}

VF_FAKE_API CUresult cuStreamCreate(CUstream *S, unsigned) {
  *S = reinterpret_cast<CUstream>(new int(0));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuStreamDestroy_v2(CUstream S) {
  delete reinterpret_cast<int *>(S);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuStreamSynchronize(CUstream) { return CUDA_SUCCESS; }
VF_FAKE_API CUresult cuEventCreate(CUevent *E, unsigned) {
  *E = reinterpret_cast<CUevent>(new int(0));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventDestroy_v2(CUevent E) {
  delete reinterpret_cast<int *>(E);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventRecord(CUevent, CUstream) { return CUDA_SUCCESS; }
VF_FAKE_API CUresult cuEventSynchronize(CUevent) { return CUDA_SUCCESS; }
VF_FAKE_API CUresult cuEventElapsedTime(float *Ms, CUevent, CUevent) {
  *Ms = 0;
  return CUDA_SUCCESS;
}

} // extern "C"
