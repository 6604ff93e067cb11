//===- runtime/devices/GpuKinds.h - The GPU kinds of a run ------*- C++ -*-===//
//
// The one list of GPU kinds (CUDA today): per kind, how its driver is
// found, how it describes one of its GPUs before anything runs on it, how
// an integrand's code for that GPU's target is obtained, and how the
// device is set up with that code. The device set asks through this list
// only, so that a new kind (ROCm, say) is its folder under
// runtime/devices/ plus one line in GpuKinds.cpp, and the integrator does
// not change. GPU ordinals (--devices gpu:N) run over the kinds in the
// list's order.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_GPUKINDS_H
#define VF_RUNTIME_DEVICES_GPUKINDS_H

#include "devices/Device.h"
#include "vf/Integrand.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vf {

struct GpuKind;

/// One GPU as its kind's driver describes it, not yet set up.
struct FoundGpu {
  const GpuKind *Kind = nullptr; ///< set by the device set that asked
  std::string Name;              ///< "gpu:N"
  std::string Target;            ///< what its code is compiled for ("sm_90")
  /// Sets the GPU up for the integrand, loading \p Code (the integrand's
  /// code for Target); an error names the device and what failed.
  std::function<Expected<std::unique_ptr<Device>>(const IntegrandInfo &I,
                                                  const std::string &Code)>
      SetUp;
};

struct GpuKind {
  /// Whether the kind's driver can be used; if not, why ("the NVIDIA
  /// driver ...").
  Status (*Available)();
  /// How many GPUs its driver sees (when Available).
  int (*Count)();
  /// GPU \p Ordinal of this kind, which is to run \p I; an error says why
  /// it cannot (no such GPU, too old a GPU or driver, no code for it).
  Expected<FoundGpu> (*Query)(int Ordinal, const IntegrandInfo &I);
  /// \p I's code for \p Target (compiled here, once per target of a run).
  Expected<std::string> (*Code)(const IntegrandInfo &I,
                                const std::string &Target);
};

/// Every kind, in the order of GPU ordinals.
const std::vector<GpuKind> &gpuKinds();

/// The kinds' factories, listed in GpuKinds.cpp.
GpuKind cudaGpuKind(); // devices/cuda/CudaKind.cpp

} // namespace vf

#endif // VF_RUNTIME_DEVICES_GPUKINDS_H
