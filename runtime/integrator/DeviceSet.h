//===- runtime/integrator/DeviceSet.h - The devices of a run ----*- C++ -*-===//
//
// The devices an integrator runs on, built once by create() from its
// options: this process's share of the GPUs (of every kind that
// devices/GpuKinds.h lists, CudaDevice today), then its CPU
// threads (CpuDevice) and simulated devices (SimulatedDevice), in the
// order CPU, simulated, GPU. Per iteration every device takes the inputs
// and the tiles are shared among them by the scheduler; the set keeps
// their measured rates across iterations and which of them failed (out
// for the rest of the run). It never asks what kind a device is.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_DEVICESET_H
#define VF_RUNTIME_INTEGRATOR_DEVICESET_H

#include "devices/Device.h"
#include "devices/WorkerPool.h"
#include "vf/Integrator.h"

#include <atomic>
#include <memory>
#include <vector>

namespace vf {

class DeviceSet {
public:
  /// The devices \p O asks for, set up for \p I. Named GPUs must work, and
  /// so must every GPU found under GpusRequired; otherwise, with AllGpus,
  /// what is missing or fails becomes one of \p Notes.
  static Expected<DeviceSet> create(const IntegrandInfo &I,
                                    const IntegratorOptions &O,
                                    std::vector<IntegratorNote> &Notes);

  std::size_t size() const { return Devices.size(); }
  const Device &operator[](std::size_t W) const { return *Devices[W]; }
  /// What each device is, for people.
  std::vector<WorkerInfo> info() const;

  /// Gives every device still in the run the iteration's inputs; one that
  /// cannot take them is out, and Failures[w] says why.
  void begin(const vf_sampler_args &A, std::size_t Nparams,
             std::vector<std::string> &Failures);
  /// Runs the iteration's tiles [Tb, Te) into \p Sink on the devices still
  /// in the run, adding to \p Times; a device that fails is out, and
  /// Failures[w] says why. False if tiles are left because every device
  /// failed. Once \p Cancel (when given) is set, no device takes a further
  /// chunk, and the tiles left are the caller's to drop.
  bool run(const ScheduleSpec &Schedule, const vf_sampler_args &A,
           std::uint64_t Tb, std::uint64_t Te, const TileSink &Sink,
           std::vector<WorkerTimes> &Times,
           std::vector<std::string> &Failures,
           const std::atomic<bool> *Cancel = nullptr);

private:
  std::vector<std::unique_ptr<Device>> Devices;
  std::vector<Device *> Pointers; ///< what the worker pool runs
  WorkerRates Rates;
  std::vector<bool> Failed;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_DEVICESET_H
