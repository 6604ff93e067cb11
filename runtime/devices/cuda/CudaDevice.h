//===- runtime/devices/cuda/CudaDevice.h - One GPU running the kernel -*- C++ -*-===//
//
// A CudaDevice is one NVIDIA GPU set up for one integrand: its primary
// context, the fused kernel's PTX loaded (compiled beforehand, at the module
// level, for the target CudaGpu names), the iteration's inputs in device
// memory, and two output slots with a stream each. A chunk of tiles runs as
// pieces that alternate between the slots, so one piece's kernel overlaps
// the previous piece's copy-back and host-side commit.
//
// Per tile the GPU produces exactly what the CPU kernel produces (one warp
// per tile, kernels/GpuSampler.c); the host then commits a finished tile
// like a CPU thread's: its segments and result into the iteration's arrays,
// its training histogram into TrainingSums. Whole groups of tiles have their
// histograms summed on the device in TrainingSums' order (the fold kernel),
// so only the groups' partials come back. Which device ran a tile never
// changes the result.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CUDA_CUDADEVICE_H
#define VF_RUNTIME_DEVICES_CUDA_CUDADEVICE_H

#include "SamplerABI.h"
#include "devices/Device.h"
#include "devices/cuda/CudaGpu.h"
#include "devices/cuda/mini_cuda.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace vf {

class TrainingSums;

class CudaDevice : public Device {
public:
  /// Sets up \p Gpu for \p I, loading \p PTX (I's GPU code compiled for
  /// Gpu.Arch); an error says what failed, naming the device and the
  /// driver call (and the JIT log of a failed load).
  static Expected<std::unique_ptr<CudaDevice>>
  create(const CudaGpu &Gpu, const IntegrandInfo &I, const std::string &PTX);
  ~CudaDevice() override;

  /// The model, its compute capability and multiprocessors.
  std::string description() const override { return Description; }

  /// Chunk sizes for an iteration of \p Ntiles tiles of \p TileSamples: at
  /// least what fills the GPU (capped at a quarter of the iteration, so
  /// the others get a share), at most everything.
  WorkerLimits limits(std::uint64_t TileSamples,
                      std::uint64_t Ntiles) const override;

  /// Uploads an iteration's inputs (map, allocation, box, parameters) and
  /// clears the per-hypercube outputs, asynchronously but ordered before
  /// every kernel of the iteration.
  Status begin(const vf_sampler_args &A, std::size_t Nparams) override;
  /// Runs tiles [C.Begin, C.End), advancing C.Begin past each committed
  /// tile; an error leaves the rest to other devices.
  Status run(TileScheduler::Chunk &C, const TileSink &Sink) override;

private:
  struct Slot;
  struct Staging;
  explicit CudaDevice(std::string Name);
  Status reserveInputs(const vf_sampler_args &A, std::size_t Nparams);
  Status reserveSlots(std::uint64_t Ntiles);
  std::uint64_t tileBytes() const;
  Status upload();
  Status uploadPdfTable(const IntegrandCode &C);
  Status reserveHistograms(Slot &S);
  Status launch(Slot &S, std::uint64_t First, std::uint64_t N,
                const TrainingSums *Training);
  Status commit(Slot &S, const TileSink &Sink, TileScheduler::Chunk &C);
  Status foldGroups(Slot &S, const TrainingSums &T);
  static std::uint64_t unfoldedIndex(const Slot &S, std::uint64_t Tile);

  std::string Description, Arch;
  CUdevice Dev = 0;
  CUcontext Ctx = nullptr;
  CUmodule Mod = nullptr;
  CUfunction Kernel = nullptr;
  CUfunction Fold = nullptr; ///< vf_fold_groups_gpu
  int Multiprocessors = 1;
  int BlockThreads = 128; ///< 4 warps, 4 tiles per block
  int SaturatingBlocks = 1;
  std::size_t MemoryBytes = 0;

  /// The iteration's inputs on the device (grown, never shrunk).
  struct Buffer {
    CUdeviceptr Ptr = 0;
    std::size_t Bytes = 0;
  };
  Buffer Edges, Offsets, BoxLo, BoxWidth, Params, Args, Segments;
  Buffer SingleEdges, SingleLo, SingleWidth; ///< --precision f32's inputs
  Buffer PdfTable; ///< the run's parton-density members, copied once
  vf_sampler_args HostArgs{};
  std::uint64_t Bins = 0;
  unsigned Stride = 0;
  std::vector<std::unique_ptr<Slot>> Slots;
  std::unique_ptr<Staging> Upload; ///< the iteration's inputs on their way
  std::uint64_t SlotTiles = 0; ///< tiles one slot holds
  std::uint64_t SlotBins = 0;  ///< histogram bins a slot's tiles hold
  /// Histograms of observables (kernels/HistSums.h): the integrand's cells
  /// and those a slot's tiles hold.
  std::uint64_t Cells = 0, SlotCells = 0;
  /// Weight-list entries (SamplerABI.h's scratch), and those a slot's
  /// tiles have room for.
  std::uint64_t Weights = 0, SlotWeights = 0;

  Status grow(Buffer &B, std::size_t Bytes);
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CUDA_CUDADEVICE_H
