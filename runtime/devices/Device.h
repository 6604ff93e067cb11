//===- runtime/devices/Device.h - What runs tiles -----------------*- C++ -*-===//
//
// A Device runs chunks of an iteration's tiles with the fused kernel and
// commits each finished tile into the iteration's host arrays (a
// TileSink). CPU threads, simulated devices and GPUs are Devices; the
// worker pool and the scheduler see only this interface, so a new kind of
// device (ROCm, say) is a new folder under runtime/devices/ with a class
// implementing it, and nothing above it changes.
//
// Contract. Per tile, a device produces exactly what the host kernel
// produces (kernels/Sampler.c): its edge segments and result into the
// tile's own slots, the segments of hypercubes that lie wholly inside the
// tile (or the chunk) into theirs, and its training histogram through
// TrainingSums (a tile's own buffer, or a whole group's partial summed in
// TrainingSums' order). Then the tile's result cannot depend on which
// device ran it. A device fails by returning an error: the tiles it has
// not committed go to the others.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_DEVICE_H
#define VF_RUNTIME_DEVICES_DEVICE_H

#include "SamplerABI.h"
#include "reduction/TileSink.h"
#include "scheduler/TileScheduler.h"
#include "vf/Expected.h"

#include <algorithm>
#include <cstdint>
#include <string>

namespace vf {

/// Samples in tile \p Tile of an iteration (the last tile may be short).
inline std::uint64_t tileSamples(const vf_sampler_args &A,
                                 std::uint64_t Tile) {
  return std::min<std::uint64_t>(A.tile_size,
                                 A.nsamples - Tile * A.tile_size);
}

class Device {
public:
  virtual ~Device() = default;
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// "cpu:0", "sim:1", "gpu:0": unique among a run's devices.
  const std::string &name() const { return Name; }
  /// "cpu", "sim" or "gpu" (DeviceStats::Kind): for reports, never for
  /// decisions.
  const std::string &kind() const { return Kind; }
  /// For people: "CPU thread", "NVIDIA H200, sm_90, 132 multiprocessors".
  virtual std::string description() const = 0;

  /// Takes an iteration's inputs: \p A (the map, the allocation, the box
  /// and \p Nparams parameters it points to) stays valid until the next
  /// begin(). A device that cannot take them is out for the run.
  virtual Status begin(const vf_sampler_args &A, std::size_t Nparams) = 0;
  /// Chunk sizes for \p Ntiles tiles of \p TileSamples samples each (what
  /// a GPU needs to be busy; a CPU thread takes any chunk).
  virtual WorkerLimits limits(std::uint64_t TileSamples,
                              std::uint64_t Ntiles) const {
    return {};
  }
  /// Runs tiles [C.Begin, C.End) into \p Sink, advancing C.Begin past each
  /// committed tile (whose outputs are final); an error leaves the rest to
  /// other devices.
  virtual Status run(TileScheduler::Chunk &C, const TileSink &Sink) = 0;

protected:
  Device(std::string Name, std::string Kind)
      : Name(std::move(Name)), Kind(std::move(Kind)) {}

private:
  std::string Name, Kind;
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_DEVICE_H
