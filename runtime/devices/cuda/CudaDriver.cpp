//===- runtime/devices/cuda/CudaDriver.cpp - The CUDA driver, loaded late -===//
//
// Load order (after Taichi's loader): open the library, bind the error
// and version functions, refuse drivers older than the oldest PTX ISA the
// GPU kernel is ever compiled for allows (kernels/PtxTargets.h; each device
// checks its own architecture's ISA again), bind the rest
// of the table (a missing symbol means an unusable driver), cuInit, and
// count devices. Any failure leaves a reason and no GPU; nothing aborts.
//
//===----------------------------------------------------------------------===//

#include "devices/cuda/CudaDriver.h"

#include "PtxTargets.h"

#include <cstdlib>
#include <dlfcn.h>

namespace vf {

const CudaDriver &CudaDriver::get() {
  // Never destroyed: GPU work may still be in flight at exit.
  static const CudaDriver *D = new CudaDriver();
  return *D;
}

// A library that failed half-way stays open: unloading a partly
// initialised driver is unsafe, and detected() is false anyway.
CudaDriver::CudaDriver() { load(); }

std::string cudaVersionText(int Version) {
  return std::to_string(Version / 1000) + "." +
         std::to_string(Version % 1000 / 10);
}

template <typename F> static bool bind(void *Lib, const char *Sym, F &Fn) {
  Fn = reinterpret_cast<F>(dlsym(Lib, Sym));
  return Fn != nullptr;
}

bool CudaDriver::load() {
  if (const char *Off = std::getenv("VF_DISABLE_CUDA");
      Off && std::string(Off) != "0" && *Off) {
    Reason = "GPUs are disabled by VF_DISABLE_CUDA";
    return false;
  }
  const char *Env = std::getenv("VF_CUDA_LIBRARY");
  Path = Env && *Env ? Env : "libcuda.so.1";
  Lib = dlopen(Path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!Lib) {
    const char *E = dlerror();
    Reason = "cannot load the NVIDIA driver (" + Path + "): " +
             (E ? E : "unknown error") +
             "; install the NVIDIA driver to use GPUs";
    return false;
  }
  if (!bind(Lib, "cuGetErrorName", Fn_getErrorName) ||
      !bind(Lib, "cuGetErrorString", Fn_getErrorString) ||
      !bind(Lib, "cuDriverGetVersion", Fn_driverGetVersion)) {
    Reason = Path + " is not a CUDA driver (no cuDriverGetVersion)";
    return false;
  }
  const int Oldest = vf_ptx_min_driver(VF_BITCODE_PTX_ISA);
  if (Fn_driverGetVersion(&Version) != CUDA_SUCCESS || Version < Oldest) {
    Reason = "the NVIDIA driver supports CUDA " + cudaVersionText(Version) +
             "; vegasflow needs CUDA " + cudaVersionText(Oldest) +
             " or newer";
    return false;
  }
#define VF_CUDA_FN(Name, Symbol, Params)                                       \
  if (!Fn_##Name && !bind(Lib, #Symbol, Fn_##Name)) {                          \
    Reason = Path + " lacks " #Symbol "; the driver is too old or broken";     \
    return false;                                                              \
  }
#include "devices/cuda/cuda_functions.inc"
#undef VF_CUDA_FN
  if (!bind(Lib, "cuEventElapsedTime_v2", Fn_eventElapsedTime) &&
      !bind(Lib, "cuEventElapsedTime", Fn_eventElapsedTime)) {
    Reason = Path + " lacks cuEventElapsedTime";
    return false;
  }
  if (CUresult R = Fn_init(0); R != CUDA_SUCCESS) {
    Reason = "cuInit failed: " + describe(R);
    return false;
  }
  if (CUresult R = Fn_deviceGetCount(&Devices); R != CUDA_SUCCESS) {
    Reason = "cuDeviceGetCount failed: " + describe(R);
    return false;
  }
  if (Devices == 0) {
    Reason = "the NVIDIA driver found no CUDA device";
    return false;
  }
  return true;
}

std::string CudaDriver::describe(CUresult R) const {
  const char *Name = nullptr, *Text = nullptr;
  if (Fn_getErrorName)
    Fn_getErrorName(R, &Name);
  if (Fn_getErrorString)
    Fn_getErrorString(R, &Text);
  return std::string(Name ? Name : "CUDA error " + std::to_string(R)) + ": " +
         (Text ? Text : "unknown error");
}

Status CudaDriver::check(const char *Name, const char *Symbol,
                         CUresult R) const {
  if (R == CUDA_SUCCESS)
    return Status::ok();
  return Error{describe(R) + " while calling " + Name + " (" + Symbol + ")"};
}

Status CudaDriver::eventElapsedTime(float *Ms, CUevent Start,
                                    CUevent End) const {
  return check("eventElapsedTime", "cuEventElapsedTime",
               Fn_eventElapsedTime(Ms, Start, End));
}

} // namespace vf
