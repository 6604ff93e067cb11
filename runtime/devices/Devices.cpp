//===- runtime/devices/Devices.cpp - The devices of this machine ----------===//

#include "vf/Devices.h"

#include "devices/cuda/CudaDriver.h"

#include <thread>

namespace vf {

DeviceList listDevices() {
  DeviceList L;
  L.CpuThreads = std::max(1u, std::thread::hardware_concurrency());
  const CudaDriver &D = CudaDriver::get();
  if (!D.detected()) {
    L.NoGpuReason = D.unavailableReason();
    return L;
  }
  for (int I = 0; I < D.deviceCount(); ++I) {
    GpuInfo G;
    G.Index = I;
    CUdevice Dev;
    char Name[256] = {0};
    if (!D.deviceGet(&Dev, I) ||
        !D.deviceGetName(Name, int(sizeof(Name)), Dev) ||
        !D.deviceGetAttribute(&G.Major,
                              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                              Dev) ||
        !D.deviceGetAttribute(&G.Minor,
                              CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                              Dev) ||
        !D.deviceGetAttribute(&G.Multiprocessors,
                              CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, Dev) ||
        !D.deviceTotalMem(&G.MemoryBytes, Dev))
      G.Name = "(cannot be queried)";
    else
      G.Name = Name;
    L.Gpus.push_back(G);
  }
  if (L.Gpus.empty())
    L.NoGpuReason = "the NVIDIA driver found no CUDA device";
  return L;
}

} // namespace vf
