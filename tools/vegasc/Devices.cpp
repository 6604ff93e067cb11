//===- vegasc/Devices.cpp - vegasc --list-devices -------------------------===//

#include "vegasc/Driver.h"
#include "vegasc/Streams.h"

#include "vf/Devices.h"
#include "vf/ToolSupport.h"

#include <ostream>

namespace vf {

int runListDevices() {
  DeviceList L = listDevices();
  outs() << "cpu: " << L.CpuThreads << " thread"
         << (L.CpuThreads == 1 ? "" : "s") << " (" << hostCpuName() << ")\n";
  if (L.Gpus.empty())
    outs() << "gpu: none: " << L.NoGpuReason << "\n";
  for (const GpuInfo &G : L.Gpus)
    outs() << "gpu:" << G.Index << ": " << G.Name << ", sm_" << G.Major
           << G.Minor << ", " << G.Multiprocessors << " multiprocessors, "
           << (G.MemoryBytes >> 20) << " MiB\n";
  return ExitOk;
}

} // namespace vf
