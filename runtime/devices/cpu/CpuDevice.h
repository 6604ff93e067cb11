//===- runtime/devices/cpu/CpuDevice.h - A CPU thread as a device -*- C++ -*-===//
//
// CpuDevice runs its chunks on the calling thread (each worker of the pool
// is a thread), tile by tile through the integrand's host kernel
// (IntegrandInfo::SampleTile), each tile with a training buffer of its own
// from TrainingSums. SimulatedDevice is a CpuDevice that throttles itself
// to R samples/s, so scheduling can be tested with heterogeneous speeds on
// any machine; it cannot be faster than the kernel on one thread.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_DEVICES_CPU_CPUDEVICE_H
#define VF_RUNTIME_DEVICES_CPU_CPUDEVICE_H

#include "devices/Device.h"

#include <functional>
#include <vector>

namespace vf {

/// The host kernel for one tile (IntegrandInfo::SampleTile).
using SampleTileFn = std::function<void(
    const vf_sampler_args *, unsigned long long, const vf_tile_outputs *)>;

class CpuDevice : public Device {
public:
  /// CPU thread \p Index ("cpu:Index").
  CpuDevice(unsigned Index, SampleTileFn SampleTile)
      : CpuDevice("cpu:" + std::to_string(Index), "cpu",
                  std::move(SampleTile)) {}

  std::string description() const override { return "CPU thread"; }
  Status begin(const vf_sampler_args &A, std::size_t Nparams) override;
  Status run(TileScheduler::Chunk &C, const TileSink &Sink) override;

protected:
  CpuDevice(std::string Name, std::string Kind, SampleTileFn SampleTile)
      : Device(std::move(Name), std::move(Kind)),
        SampleTile(std::move(SampleTile)) {}
  /// Samples in tiles [Begin, End) of the current iteration.
  std::uint64_t samples(std::uint64_t Begin, std::uint64_t End) const;

private:
  SampleTileFn SampleTile;
  const vf_sampler_args *Args = nullptr;
  /// The kernel's histogram workspace (it leaves it zero after a tile).
  std::vector<vf_u32> HistWork;
  /// A batch's values and the lists' shifts where the integrand has weight
  /// lists (up to 1024 entries: 32 x 1056 + 2049 doubles, 280 KiB); empty
  /// otherwise.
  std::vector<double> Values;
};

class SimulatedDevice : public CpuDevice {
public:
  /// Simulated device \p Index ("sim:Index") keeping to \p Rate samples/s.
  SimulatedDevice(unsigned Index, double Rate, SampleTileFn SampleTile)
      : CpuDevice("sim:" + std::to_string(Index), "sim",
                  std::move(SampleTile)),
        Rate(Rate) {}

  std::string description() const override { return "simulated device"; }
  /// The CPU kernel, then a sleep until the chunk has taken samples / R.
  Status run(TileScheduler::Chunk &C, const TileSink &Sink) override;

private:
  double Rate;
};

} // namespace vf

#endif // VF_RUNTIME_DEVICES_CPU_CPUDEVICE_H
