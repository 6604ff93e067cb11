//===- tests/fakecuda/FakeCuda.cpp - A CUDA driver for machines without one
//-===//
//
// A shared library exporting the CUDA driver entry points vegasflow uses
// (the table in runtime/devices/cuda/cuda_functions.inc, plus the error and
// event-time functions), so the CUDA backend's host logic can run in CI:
// vegasc loads it through VF_CUDA_LIBRARY. Devices are plain host memory;
// modules record their PTX; a launch runs the GPU kernel's own code under
// warp emulation (WarpEmulator.h: the module compiled for the host with
// its intrinsics emulated, registered for the kernel's name with
// vfFakeCudaRegisterEmulatedKernel by vegasc-emu; the shipped vegasc
// registers nothing, and its launches fail here), or with
// VF_FAKE_CUDA_KERNELS=host the host function registered with
// vfFakeCudaRegisterKernel (the host sampler, faster, but it never runs the GPU
// code). Copies, memsets and launches are as asynchronous as the real driver's,
// on streams with the CUDA ordering rules and a race detector (FakeStreams.h).
// Environment:
//   VF_FAKE_CUDA_DEVICES=N     number of devices (default 1; 0: none)
//   VF_FAKE_CUDA_FAIL_INIT=1   cuInit fails
//   VF_FAKE_CUDA_FAIL_LAUNCH=K the K-th launch (1-based) fails
//   VF_FAKE_CUDA_FAIL_GLOBAL=1 cuModuleGetGlobal finds no global
//   VF_FAKE_CUDA_TRACE=1       each launch is logged to stderr
//   VF_FAKE_CUDA_MAJOR=M       compute capability M.m (default 9.0), with
//   VF_FAKE_CUDA_MINOR=m       VF_FAKE_CUDA_MINOR (default 0)
//   VF_FAKE_CUDA_DRIVER=V      cuDriverGetVersion's answer (default 13000)
//   VF_FAKE_CUDA_KERNELS=host  launches run the host kernels (default:
//                              emulated, the GPU kernel's own code)
//   VF_FAKE_CUDA_MEMORY_MB=M   device memory (default 1024), which sizes
//                              CudaDevice's slots
//   VF_FAKE_CUDA_BLOCK=B       the block size the occupancy query suggests
//                              (default 128), VF_FAKE_CUDA_MIN_GRID its grid
//   VF_FAKE_CUDA_FAULT=F       the emulator injects a kernel bug (tests
//                              only): no-warp-sync, shfl-off-by-one or
//                              match-any-alone
//   VF_FAKE_CUDA_JITTER=SEED   a seeded random delay before each stream
//                              operation, and a seeded lane order
// Async copies must use page-locked host memory (cuMemAllocHost), or they
// fail with CUDA_ERROR_INVALID_VALUE.
//
//===----------------------------------------------------------------------===//

#include "FakeStreams.h"
#include "WarpEmulator.h"
#include "devices/cuda/mini_cuda.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <map>
#include <mutex>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace fc = vf::fakecuda;

constexpr CUresult FakeInvalidValue = 1;
constexpr CUresult FakeInvalidContext = 201; // CUDA_ERROR_INVALID_CONTEXT
constexpr CUresult FakeNotFound = 500;       // CUDA_ERROR_NOT_FOUND
constexpr CUresult FakeNotReady = 600;       // CUDA_ERROR_NOT_READY
constexpr CUresult FakeLaunchFailed = 719;   // CUDA_ERROR_LAUNCH_FAILED

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
  std::vector<unsigned> ParamBytes; ///< from the PTX .entry's .param list
};

/// The sizes of the parameters of .entry \p Name in \p PTX; false if it
/// is not there or has a parameter type this fake does not know.
bool entryParameters(const std::string &PTX, const std::string &Name,
                     std::vector<unsigned> &Sizes) {
  const std::string Key = ".entry " + Name + "(";
  std::size_t At = PTX.find(Key);
  if (At == std::string::npos)
    return false;
  const std::size_t End = PTX.find(')', At);
  for (At = PTX.find(".param", At); At < End; At = PTX.find(".param", At + 1)) {
    const std::size_t Type = PTX.find('.', At + 6);
    const std::string T = PTX.substr(Type + 1, 3);
    if (T == "u64" || T == "b64" || T == "s64" || T == "f64")
      Sizes.push_back(8);
    else if (T == "u32" || T == "b32" || T == "s32" || T == "f32")
      Sizes.push_back(4);
    else
      return false;
  }
  return true;
}

/// Fresh device and pinned memory holds NaNs, not the zeros calloc would
/// give: a kernel or copy reading what nobody wrote shows.
void poison(void *P, std::size_t Bytes) { std::memset(P, 0xff, Bytes); }

fc::Stream *null() {
  fc::Context *C = fc::currentContext();
  return C ? fc::nullStream(C) : nullptr;
}
/// The stream a handle names (0 and CU_STREAM_LEGACY: the NULL stream).
fc::Stream *stream(CUstream S) {
  if (!S || reinterpret_cast<std::uintptr_t>(S) == 1)
    return null();
  return reinterpret_cast<fc::Stream *>(S);
}
fc::Access write(CUdeviceptr D, std::size_t N) {
  fc::Access A;
  A.What = fc::Access::Write;
  A.Ptr = std::uintptr_t(D);
  A.Bytes = N;
  return A;
}
/// A module owns its functions, as the driver's do: unloading frees them.
struct FakeModule {
  std::string PTX;
  std::deque<FakeFunction> Functions;
  /// The 64-bit globals asked for, by name: their "device" memory.
  std::map<std::string, std::uint64_t> Globals;
};

/// Whether \p PTX declares a 64-bit global \p Name (`.global .align 8
/// .u64 NAME;`), the only kind the product asks for.
bool declaresGlobal64(const std::string &PTX, const std::string &Name) {
  for (const char *Type : {".u64 ", ".b64 "}) {
    const std::string Decl = Type + Name + ";";
    for (std::size_t At = PTX.find(Decl); At != std::string::npos;
         At = PTX.find(Decl, At + 1)) {
      std::size_t Line = PTX.rfind('\n', At);
      Line = Line == std::string::npos ? 0 : Line;
      if (PTX.substr(Line, At - Line).find(".global") != std::string::npos)
        return true;
    }
  }
  return false;
}

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
  O.Inject = Fault == "no-warp-sync"       ? vf::fakecuda::Fault::NoWarpSync
             : Fault == "shfl-off-by-one"  ? vf::fakecuda::Fault::ShflOffByOne
             : Fault == "match-any-alone" ? vf::fakecuda::Fault::MatchAnyAlone
                                           : vf::fakecuda::Fault::None;
  if (const char *J = std::getenv("VF_FAKE_CUDA_JITTER"); J && *J)
    O.Seed = std::strtoull(J, nullptr, 10) | 1;
  return O;
}

/// The context's sticky failure (a kernel's, or a race the fake found),
/// which cuGetErrorString then gives for CUDA_ERROR_LAUNCH_FAILED.
std::string LaunchFailure = "unspecified launch failure (injected)";
CUresult status(fc::Context *C) {
  std::string E = fc::contextError(C);
  if (E.empty())
    return CUDA_SUCCESS;
  std::lock_guard<std::mutex> Lock(Mutex);
  LaunchFailure = E;
  return FakeLaunchFailed;
}
std::atomic<int> Launches{0};
bool Initialised = false;

} // namespace

extern "C" {

/// Test hook: the host function to run, with \p Context, for launches of
/// kernel \p Name (vegasc-emu registers the host build of each kernel
/// whose PTX it compiles, HostLaunches.cpp).
__attribute__((visibility("default"))) void
vfFakeCudaRegisterKernel(const char *Name, HostKernel Fn, void *Context) {
  std::lock_guard<std::mutex> Lock(Mutex);
  kernels()[Name].Fn = Fn;
  kernels()[Name].Context = Context;
}

/// Test hook: whether launches run the emulated GPU kernels (vegasc-emu
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
  *S = R == FakeLaunchFailed             ? "CUDA_ERROR_LAUNCH_FAILED"
       : R == CUDA_ERROR_NOT_INITIALIZED ? "CUDA_ERROR_NOT_INITIALIZED"
       : R == FakeInvalidContext         ? "CUDA_ERROR_INVALID_CONTEXT"
       : R == FakeNotReady               ? "CUDA_ERROR_NOT_READY"
       : R == FakeNotFound               ? "CUDA_ERROR_NOT_FOUND"
                                         : "CUDA_ERROR_INVALID_VALUE";
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuGetErrorString(CUresult R, const char **S) {
  std::lock_guard<std::mutex> Lock(Mutex);
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
  case CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR:
    *V = envInt("VF_FAKE_CUDA_MINOR", 0);
    break;
  case CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: *V = 4; break;
  case CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: *V = 1024; break;
  default: *V = 2048; break;
  }
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDeviceTotalMem_v2(size_t *B, CUdevice) {
  *B = size_t(envInt("VF_FAKE_CUDA_MEMORY_MB", 1024)) << 20;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDevicePrimaryCtxRetain(CUcontext *C, CUdevice D) {
  *C = reinterpret_cast<CUcontext>(fc::context(D));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuDevicePrimaryCtxRelease_v2(CUdevice) {
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuCtxSetCurrent(CUcontext C) {
  fc::currentContext() = reinterpret_cast<fc::Context *>(C);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuCtxSynchronize() {
  fc::Context *C = fc::currentContext();
  if (!C)
    return FakeInvalidContext;
  fc::synchronizeContext(C);
  return status(C);
}

VF_FAKE_API CUresult cuMemAlloc_v2(CUdeviceptr *P, size_t Bytes) {
  if (!fc::currentContext())
    return FakeInvalidContext;
  void *M = std::malloc(Bytes ? Bytes : 1);
  if (!M)
    return FakeInvalidValue;
  poison(M, Bytes);
  *P = reinterpret_cast<CUdeviceptr>(M);
  fc::trackAllocation(*P, Bytes);
  return CUDA_SUCCESS;
}
/// Frees once the context's work is done (the real driver's cuMemFree
/// synchronises too).
VF_FAKE_API CUresult cuMemFree_v2(CUdeviceptr P) {
  fc::Context *C = fc::currentContext();
  if (!C)
    return FakeInvalidContext;
  fc::synchronizeContext(C);
  fc::untrackAllocation(P);
  std::free(reinterpret_cast<void *>(P));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemAllocHost_v2(void **P, size_t Bytes) {
  if (!fc::currentContext())
    return FakeInvalidContext;
  *P = std::malloc(Bytes ? Bytes : 1);
  if (!*P)
    return FakeInvalidValue;
  poison(*P, Bytes);
  std::lock_guard<std::mutex> Lock(PinnedMutex);
  Pinned[static_cast<const char *>(*P)] = Bytes;
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuMemFreeHost(void *P) {
  if (fc::Context *C = fc::currentContext())
    fc::synchronizeContext(C);
  {
    std::lock_guard<std::mutex> Lock(PinnedMutex);
    Pinned.erase(static_cast<const char *>(P));
  }
  std::free(P);
  return CUDA_SUCCESS;
}

/// Pageable host to device: the NULL stream's earlier work is waited for,
/// the source is staged, and the call returns while the copy from the
/// staging buffer is still queued (CUDA's "API synchronization behavior").
VF_FAKE_API CUresult cuMemcpyHtoD_v2(CUdeviceptr D, const void *S, size_t N) {
  fc::Stream *Null = null();
  if (!Null)
    return FakeInvalidContext;
  fc::synchronize(Null);
  auto Staged = std::make_shared<std::vector<char>>(
      static_cast<const char *>(S), static_cast<const char *>(S) + N);
  fc::enqueue(Null, "cuMemcpyHtoD", write(D, N), [D, Staged] {
    std::memcpy(reinterpret_cast<void *>(D), Staged->data(), Staged->size());
    return std::string();
  });
  return status(fc::currentContext());
}
/// Device to pageable host: returns once the copy is done.
VF_FAKE_API CUresult cuMemcpyDtoH_v2(void *D, CUdeviceptr S, size_t N) {
  fc::Stream *Null = null();
  if (!Null)
    return FakeInvalidContext;
  fc::enqueue(Null, "cuMemcpyDtoH", {}, [D, S, N] {
    std::memcpy(D, reinterpret_cast<const void *>(S), N);
    return std::string();
  });
  fc::synchronize(Null);
  return status(fc::currentContext());
}
VF_FAKE_API CUresult cuMemcpyHtoDAsync_v2(CUdeviceptr D, const void *S,
                                          size_t N, CUstream St) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  if (!isPinned(S, N))
    return FakeInvalidValue;
  fc::enqueue(Q, "cuMemcpyHtoDAsync", write(D, N), [D, S, N] {
    std::memcpy(reinterpret_cast<void *>(D), S, N);
    return std::string();
  });
  return status(fc::currentContext());
}
VF_FAKE_API CUresult cuMemcpyDtoHAsync_v2(void *D, CUdeviceptr S, size_t N,
                                          CUstream St) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  if (!isPinned(D, N))
    return FakeInvalidValue;
  fc::enqueue(Q, "cuMemcpyDtoHAsync", {}, [D, S, N] {
    std::memcpy(D, reinterpret_cast<const void *>(S), N);
    return std::string();
  });
  return status(fc::currentContext());
}
VF_FAKE_API CUresult cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N,
                                     CUstream St);
/// Asynchronous to the host even in its "synchronous" form.
VF_FAKE_API CUresult cuMemsetD8_v2(CUdeviceptr D, unsigned char V, size_t N) {
  return cuMemsetD8Async(D, V, N, nullptr);
}
VF_FAKE_API CUresult cuMemsetD8Async(CUdeviceptr D, unsigned char V, size_t N,
                                     CUstream St) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  fc::enqueue(Q, St ? "cuMemsetD8Async" : "cuMemsetD8", write(D, N),
              [D, V, N] {
                std::memset(reinterpret_cast<void *>(D), V, N);
                return std::string();
              });
  return status(fc::currentContext());
}

VF_FAKE_API CUresult cuModuleLoadDataEx(CUmodule *M, const void *Image,
                                        unsigned, int *, void **) {
  auto *F = new FakeModule{static_cast<const char *>(Image), {}, {}};
  if (F->PTX.find(".entry") == std::string::npos) {
    delete F;
    return FakeInvalidValue;
  }
  *M = reinterpret_cast<CUmodule>(F);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuModuleUnload(CUmodule M) {
  if (fc::Context *C = fc::currentContext())
    fc::synchronizeContext(C);
  delete reinterpret_cast<FakeModule *>(M);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuModuleGetFunction(CUfunction *F, CUmodule M,
                                         const char *Name) {
  auto *Mod = reinterpret_cast<FakeModule *>(M);
  std::vector<unsigned> Sizes;
  if (!entryParameters(Mod->PTX, Name, Sizes))
    return FakeInvalidValue;
  *F = reinterpret_cast<CUfunction>(
      &Mod->Functions.emplace_back(FakeFunction{Name, std::move(Sizes)}));
  return CUDA_SUCCESS;
}
/// A 64-bit global of the module, as the driver finds it by name; the
/// emulated kernels run the host module, whose own global the compiler
/// set, so this memory is only written.
VF_FAKE_API CUresult cuModuleGetGlobal_v2(CUdeviceptr *Ptr, size_t *Bytes,
                                          CUmodule M, const char *Name) {
  auto *Mod = reinterpret_cast<FakeModule *>(M);
  if (!declaresGlobal64(Mod->PTX, Name))
    return FakeNotFound;
  if (envInt("VF_FAKE_CUDA_FAIL_GLOBAL", 0))
    return FakeNotFound;
  *Ptr = CUdeviceptr(&Mod->Globals[Name]);
  *Bytes = sizeof(std::uint64_t);
  return CUDA_SUCCESS;
}
/// Queued on the stream with the parameters' values copied, as the driver
/// does; the kernel runs on the stream's worker.
VF_FAKE_API CUresult cuLaunchKernel(CUfunction F, unsigned GX, unsigned GY,
                                    unsigned GZ, unsigned BX, unsigned BY,
                                    unsigned BZ, unsigned Shared, CUstream St,
                                    void **Args, void **) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  if (CUresult R = status(fc::currentContext()); R != CUDA_SUCCESS)
    return R;
  int K = ++Launches;
  if (K == envInt("VF_FAKE_CUDA_FAIL_LAUNCH", 0))
    return FakeLaunchFailed;
  const auto *Fn = reinterpret_cast<FakeFunction *>(F);
  Registered R;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = kernels().find(Fn->Name);
    if (It == kernels().end())
      return FakeInvalidValue;
    R = It->second;
  }
  const bool Emulated = emulates();
  if ((Emulated && !R.Emulated) || (!Emulated && !R.Fn))
    return FakeInvalidValue;
  const fc::LaunchGeometry G{{GX, GY, GZ}, {BX, BY, BZ}, Shared};
  if (std::string Bad = fc::checkGeometry(G); !Bad.empty()) {
    std::fprintf(stderr, "fakecuda: launch %s: %s\n", Fn->Name.c_str(),
                 Bad.c_str());
    return FakeInvalidValue;
  }
  if (envInt("VF_FAKE_CUDA_TRACE", 0))
    std::fprintf(stderr, "fakecuda: launch %s grid %u block %u%s\n",
                 Fn->Name.c_str(), GX, BX, Emulated ? " (emulated)" : "");
  auto Values = std::make_shared<std::vector<std::uint64_t>>();
  fc::Access A;
  A.What = fc::Access::Kernel;
  for (std::size_t I = 0; I < Fn->ParamBytes.size(); ++I) {
    std::uint64_t V = 0;
    std::memcpy(&V, Args[I], Fn->ParamBytes[I]);
    Values->push_back(V);
    if (Fn->ParamBytes[I] == 8)
      A.Pointers.push_back(std::uintptr_t(V));
  }
  fc::enqueue(Q, Fn->Name, std::move(A), [R, Values, G, Emulated,
                                          Name = Fn->Name]() -> std::string {
    std::vector<void *> Params;
    for (std::uint64_t &V : *Values)
      Params.push_back(&V);
    if (!Emulated) {
      R.Fn(R.Context, Params.data(), G.Grid[0], G.Block[0]);
      return "";
    }
    std::string Failure =
        fc::runEmulated(Name, R.Emulated, Params.data(), G, emulatorOptions());
    if (!Failure.empty())
      std::fprintf(stderr, "fakecuda: %s\n", Failure.c_str());
    return Failure;
  });
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuOccupancyMaxPotentialBlockSize(int *Grid, int *Block,
                                                      CUfunction, void *,
                                                      size_t, int) {
  *Grid = envInt("VF_FAKE_CUDA_MIN_GRID", 8);
  *Block = envInt("VF_FAKE_CUDA_BLOCK", 128);
  return CUDA_SUCCESS;
}

VF_FAKE_API CUresult cuStreamCreate(CUstream *S, unsigned Flags) {
  fc::Context *C = fc::currentContext();
  if (!C)
    return FakeInvalidContext;
  *S = reinterpret_cast<CUstream>(
      fc::createStream(C, Flags & CU_STREAM_NON_BLOCKING));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuStreamDestroy_v2(CUstream S) {
  if (!S)
    return FakeInvalidValue;
  fc::destroyStream(reinterpret_cast<fc::Stream *>(S));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuStreamSynchronize(CUstream St) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  fc::synchronize(Q);
  return status(fc::currentContext());
}
VF_FAKE_API CUresult cuStreamWaitEvent(CUstream St, CUevent E, unsigned) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  fc::streamWaitEvent(Q, reinterpret_cast<fc::Event *>(E));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventCreate(CUevent *E, unsigned) {
  *E = reinterpret_cast<CUevent>(fc::createEvent());
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventDestroy_v2(CUevent E) {
  fc::destroyEvent(reinterpret_cast<fc::Event *>(E));
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventRecord(CUevent E, CUstream St) {
  fc::Stream *Q = stream(St);
  if (!Q)
    return FakeInvalidContext;
  fc::recordEvent(reinterpret_cast<fc::Event *>(E), Q);
  return CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventSynchronize(CUevent E) {
  fc::synchronizeEvent(reinterpret_cast<fc::Event *>(E));
  return fc::currentContext() ? status(fc::currentContext()) : CUDA_SUCCESS;
}
VF_FAKE_API CUresult cuEventElapsedTime(float *Ms, CUevent Start, CUevent End) {
  return fc::elapsedMs(reinterpret_cast<fc::Event *>(Start),
                       reinterpret_cast<fc::Event *>(End), Ms)
             ? CUDA_SUCCESS
             : FakeNotReady;
}

} // extern "C"
