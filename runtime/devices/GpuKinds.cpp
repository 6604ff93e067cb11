//===- runtime/devices/GpuKinds.cpp - The kinds of GPU a run can use ------===//

#include "devices/GpuKinds.h"

#include "IntegrandCode.h"

namespace vf {

const std::vector<GpuKind> &gpuKinds() {
  static const std::vector<GpuKind> Kinds = {cudaGpuKind()};
  return Kinds;
}

bool hasGpuCode(const IntegrandInfo &I) {
  return I.Code && I.Code->GpuCode && !I.Code->GpuKernel.empty();
}

} // namespace vf
