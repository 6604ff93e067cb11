//===- runtime/devices/cuda/FakeDriverKernels.cpp - Host code for the fake driver ===//
//
// The host kernel's and the fold's launches laid out as the GPU kernels lay
// out their outputs (device pointers are host pointers in the fake driver),
// and the registration of the emulated GPU kernels.
//
//===----------------------------------------------------------------------===//

#include "devices/cuda/FakeDriverKernels.h"

#include "SamplerABI.h"
#include "devices/cuda/CudaDriver.h"
#include "reduction/HistogramSums.h"

#include <algorithm>
#include <deque>
#include <functional>
#include <mutex>

namespace vf {

namespace {

/// What the host build of the kernel needs when the fake driver of the
/// tests runs a launch on the host. Contexts are kept for the process: a
/// kernel name stays registered after its device is gone.
struct HostKernelContext {
  std::function<void(const vf_sampler_args *, unsigned long long,
                     const vf_tile_outputs *)>
      SampleTile;
};

HostKernelContext *keepContext(HostKernelContext C) {
  static std::mutex Mutex;
  static auto *Kept = new std::deque<HostKernelContext>();
  std::lock_guard<std::mutex> Lock(Mutex);
  Kept->push_back(std::move(C));
  return &Kept->back();
}

/// The launch of vf_sample_tiles_gpu_NAME, run on the host: each tile the
/// grid covers through the host kernel, with the GPU kernel's layout of
/// outputs (device pointers are host pointers in the fake driver).
void runOnHost(void *Context, void **Params, unsigned Grid, unsigned Block) {
  auto *K = static_cast<HostKernelContext *>(Context);
  auto Arg = [&](unsigned I) { return *static_cast<CUdeviceptr *>(Params[I]); };
  const auto *A = reinterpret_cast<const vf_sampler_args *>(Arg(0));
  const std::uint64_t First = Arg(1), N = Arg(2);
  const auto *O = reinterpret_cast<const vf_chunk_outputs *>(Arg(3));
  const std::uint64_t Stride = VF_SEGMENT_STRIDE(A->nout);
  const std::uint64_t Bins = std::uint64_t(A->dim) * A->ninc;
  const std::uint64_t Covered = std::uint64_t(Grid) * (Block / 32);
  for (std::uint64_t T = 0; T < std::min(N, Covered); ++T) {
    double *Train = O->train ? O->train + 2 * Bins * T : nullptr;
    if (A->train)
      std::fill(Train, Train + 2 * Bins, 0.0);
    vf_tile_outputs Out{O->hcube_segments, O->edge_segments + 2 * Stride * T,
                        Train, O->results + T, nullptr, nullptr};
    // Histograms: the GPU kernel zeroes the tile's buffer and workspace.
    if (O->hist) {
      Out.hist = O->hist + VF_HIST_TILE(A->hist_cells) * T;
      Out.hist_work = O->hist_work + VF_HIST_WORK(A->hist_cells) * T;
      std::fill(Out.hist, Out.hist + VF_HIST_TILE(A->hist_cells), 0.0);
      std::fill(Out.hist_work, Out.hist_work + VF_HIST_WORK(A->hist_cells),
                0u);
    }
    K->SampleTile(A, First + T, &Out);
  }
}

/// The fold kernel on the host (GpuSampler.c's vf_fold_groups_gpu).
void runFoldOnHost(void *, void **Params, unsigned, unsigned) {
  auto Arg = [&](unsigned I) { return *static_cast<CUdeviceptr *>(Params[I]); };
  const auto *Train = reinterpret_cast<const double *>(Arg(0));
  const std::uint64_t Entries = Arg(1), Ngroups = Arg(3);
  const auto *Groups = reinterpret_cast<const std::uint64_t *>(Arg(2));
  auto *Partials = reinterpret_cast<double *>(Arg(4));
  for (std::uint64_t G = 0; G < Ngroups; ++G)
    for (std::uint64_t I = 0; I < Entries; ++I) {
      double P = 0.0;
      for (std::uint64_t T = 0; T < Groups[2 * G + 1]; ++T)
        P += Train[(Groups[2 * G] + T) * Entries + I];
      Partials[G * Entries + I] = P;
    }
}

/// Gives the fake driver of the tests the host code it runs launches
/// with: the GPU kernels compiled for the host under warp emulation, or
/// the host kernel and fold (VF_FAKE_CUDA_KERNELS=host).
} // namespace

Status registerOnHost(const IntegrandInfo &I) {
  const CudaDriver &D = CudaDriver::get();
  if (!D.emulatesKernels()) {
    D.registerHostKernel(I.GpuKernel.c_str(), runOnHost,
                         keepContext({I.SampleTile}));
    D.registerHostKernel(VF_GPU_FOLD_KERNEL, runFoldOnHost, nullptr);
    return Status::ok();
  }
  if (!I.EmulatedGpu)
    return Error{"integrand '" + I.Name +
                 "' has no emulated GPU kernel for the fake driver"};
  Expected<EmulatedGpuKernels> K = I.EmulatedGpu();
  if (!K)
    return Error{"compiling the emulated GPU kernel: " + K.message()};
  D.registerEmulatedKernel(I.GpuKernel.c_str(), K->Bind, K->Sample);
  D.registerEmulatedKernel(VF_GPU_FOLD_KERNEL, K->Bind, K->Fold);
  return Status::ok();
}


} // namespace vf
