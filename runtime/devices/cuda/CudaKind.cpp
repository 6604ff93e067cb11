//===- runtime/devices/cuda/CudaKind.cpp - NVIDIA GPUs as a GPU kind ------===//
//
// CUDA's entry in the list of GPU kinds (devices/GpuKinds.h): the driver
// loaded with dlopen (CudaDriver), a GPU described by queryCudaGpu, its
// code the integrand's PTX for the GPU's sm_XX, its device a CudaDevice.
//
//===----------------------------------------------------------------------===//

#include "devices/GpuKinds.h"
#include "devices/cuda/CudaDevice.h"
#include "devices/cuda/CudaDriver.h"

#include "IntegrandCode.h"

namespace vf {

namespace {

Status available() {
  const CudaDriver &D = CudaDriver::get();
  if (!D.detected())
    return Error{D.unavailableReason()};
  return Status::ok();
}

int count() { return CudaDriver::get().deviceCount(); }

Expected<FoundGpu> query(int Ordinal, const IntegrandInfo &I) {
  Expected<CudaGpu> Gpu = queryCudaGpu(Ordinal);
  if (!Gpu)
    return Gpu.error();
  if (!hasGpuCode(I))
    return Error{Gpu->Name + ": integrand '" + I.Name +
                 "' was compiled without GPU code"};
  FoundGpu F;
  F.Name = Gpu->Name;
  F.Target = Gpu->Arch;
  F.SetUp = [G = std::move(*Gpu)](
                const IntegrandInfo &In,
                const std::string &Ptx) -> Expected<std::unique_ptr<Device>> {
    Expected<std::unique_ptr<CudaDevice>> Dev = CudaDevice::create(G, In, Ptx);
    if (!Dev)
      return Dev.error();
    return std::unique_ptr<Device>(std::move(*Dev));
  };
  return F;
}

Expected<std::string> code(const IntegrandInfo &I, const std::string &Arch) {
  return I.Code->GpuCode(Arch);
}

} // namespace

GpuKind cudaGpuKind() { return {available, count, query, code}; }

} // namespace vf
