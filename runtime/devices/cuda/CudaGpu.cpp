//===- runtime/devices/cuda/CudaGpu.cpp - A GPU, as the driver says -----===//

#include "devices/cuda/CudaGpu.h"

#include "PtxTargets.h"
#include "devices/cuda/CudaDriver.h"

#include <algorithm>
#include <utility>

namespace vf {

namespace {

/// The PTX target for compute capability Major.Minor (CudaGpu::Arch).
std::string archFor(int Major, int Minor) {
  int CC = std::min(Major * 10 + Minor, VF_PTX_NEWEST_ARCH);
  return "sm_" + std::to_string(CC);
}

/// The PTX ISA (major * 10 + minor) the compiler emits for \p Arch; 0 for
/// an architecture it does not know.
unsigned ptxIsaFor(const std::string &Arch) {
#define VF_PTX_TARGET(Sm, Isa)                                                 \
  if (Arch == Sm)                                                              \
    return Isa;
  VF_PTX_TARGETS(VF_PTX_TARGET)
#undef VF_PTX_TARGET
  return 0;
}

std::string isaText(unsigned Isa) {
  return std::to_string(Isa / 10) + "." + std::to_string(Isa % 10);
}

} // namespace

Expected<CudaGpu> queryCudaGpu(int Ordinal) {
  const CudaDriver &D = CudaDriver::get();
  CudaGpu G;
  G.Name = "gpu:" + std::to_string(Ordinal);
  if (!D.detected())
    return Error{G.Name + ": no GPU: " + D.unavailableReason()};
  if (Ordinal < 0 || Ordinal >= D.deviceCount())
    return Error{G.Name + ": no such GPU; this machine has " +
                 std::to_string(D.deviceCount()) +
                 " (gpu:0 to gpu:" + std::to_string(D.deviceCount() - 1) + ")"};
  auto Fail = [&](const Status &S) -> Error {
    return Error{G.Name + ": " + S.message()};
  };
  char Model[256] = {0};
  int Major = 0, Minor = 0;
  if (Status S = D.deviceGet(&G.Dev, Ordinal); !S)
    return Fail(S);
  if (Status S = D.deviceGetName(Model, int(sizeof(Model)), G.Dev); !S)
    return Fail(S);
  for (auto [Attr, Out] :
       {std::pair{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, &Major},
        std::pair{CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, &Minor},
        std::pair{CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT,
                  &G.Multiprocessors}})
    if (Status S = D.deviceGetAttribute(Out, Attr, G.Dev); !S)
      return Fail(S);
  if (Status S = D.deviceTotalMem(&G.MemoryBytes, G.Dev); !S)
    return Fail(S);
  if (Major < 7)
    return Error{G.Name + " (" + Model + ") has compute capability " +
                 std::to_string(Major) + "." + std::to_string(Minor) +
                 "; vegasflow's GPU kernel needs 7.0 or newer"};
  const std::string Own = "sm_" + std::to_string(Major) + std::to_string(Minor);
  G.Arch = archFor(Major, Minor);
  G.Description = std::string(Model) + ", " + Own + ", " +
                  std::to_string(G.Multiprocessors) + " multiprocessors";
  const unsigned Isa = ptxIsaFor(G.Arch);
  if (G.Arch != Own)
    G.Description += "; newer than " + G.Arch +
                     ", the newest architecture vegasflow compiles for: the "
                     "driver JIT-compiles its " +
                     G.Arch + " PTX (ISA " + isaText(Isa) + ") at load";
  if (int Need = vf_ptx_min_driver(Isa); D.version() < Need)
    return Error{G.Name + " (" + Model + "): the NVIDIA driver supports CUDA " +
                 cudaVersionText(D.version()) + ", and the kernel's PTX (ISA " +
                 isaText(Isa) + " for " + G.Arch + ") needs CUDA " +
                 cudaVersionText(Need) + " or newer; update the NVIDIA driver"};
  return G;
}

} // namespace vf
