//===- runtime/devices/GpuKinds.cpp - The kinds of GPU a run can use ------===//

#include "devices/GpuKinds.h"

namespace vf {

const std::vector<GpuKind> &gpuKinds() {
  static const std::vector<GpuKind> Kinds = {cudaGpuKind()};
  return Kinds;
}

} // namespace vf
