//===- vf/Devices.h - The devices of this machine ---------------*- C++ -*-===//
//
// What `vegasc --list-devices` prints and an embedding program can ask:
// the CPU threads, and each CUDA GPU or the reason there is none (no
// driver, no device, VF_DISABLE_CUDA). Never fails: a broken driver is
// reported as "no GPU" with its reason.
//
//===----------------------------------------------------------------------===//
#ifndef VF_DEVICES_H
#define VF_DEVICES_H

#include <cstddef>
#include <string>
#include <vector>

namespace vf {

struct GpuInfo {
  int Index = 0;
  std::string Name;
  int Major = 0, Minor = 0; ///< compute capability
  int Multiprocessors = 0;
  std::size_t MemoryBytes = 0;
};

struct DeviceList {
  unsigned CpuThreads = 1;
  std::vector<GpuInfo> Gpus;
  std::string NoGpuReason; ///< set when Gpus is empty
};

DeviceList listDevices();

} // namespace vf

#endif // VF_DEVICES_H
