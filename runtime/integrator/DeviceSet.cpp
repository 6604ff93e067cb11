//===- runtime/integrator/DeviceSet.cpp - The devices of a run ------------===//

#include "integrator/DeviceSet.h"

#include "devices/GpuKinds.h"
#include "devices/cpu/CpuDevice.h"

#include "IntegrandCode.h"

#include <map>

namespace vf {

namespace {

/// This process's part of \p Which when O.MachineShare processes share
/// the machine.
std::vector<int> machineShareOf(const std::vector<int> &Which,
                                const IntegratorOptions &O) {
  const unsigned L = std::max(1u, O.MachineShare), R = O.MachineRank % L;
  if (L < 2 || Which.empty())
    return Which;
  std::vector<int> Mine;
  for (std::size_t K = R; K < Which.size(); K += L)
    Mine.push_back(Which[K]);
  // More processes than GPUs: the extra ones share, rather than have none.
  if (Mine.empty())
    Mine.push_back(Which[R % Which.size()]);
  return Mine;
}

/// Keeps \p Got in \p Kept; a failure stops the run with its error, or,
/// when the GPUs are \p Optional, is a note and the run goes on without.
template <typename T, typename U>
Status keepOrSkip(Expected<T> Got, std::vector<U> &Kept, bool Optional,
                  std::vector<IntegratorNote> &Notes) {
  if (Got)
    Kept.push_back(std::move(*Got));
  else if (Optional)
    Notes.push_back({IntegratorNote::Kind::GpuSkipped,
                     Got.message() + "; running without it"});
  else
    return Got.error();
  return Status::ok();
}

/// The kinds whose driver can be used; the others' reasons in \p Why.
std::vector<const GpuKind *> availableKinds(std::string &Why) {
  std::vector<const GpuKind *> Kinds;
  for (const GpuKind &K : gpuKinds())
    if (Status S = K.Available(); S)
      Kinds.push_back(&K);
    else
      Why += (Why.empty() ? "" : "; ") + S.message();
  return Kinds;
}

/// GPU \p Ordinal of \p Kinds (numbered across them in order) for \p In;
/// one past them all goes to the last kind, whose driver says there is no
/// such GPU.
Expected<FoundGpu> queryGpu(const std::vector<const GpuKind *> &Kinds,
                            int Ordinal, const IntegrandInfo &In) {
  std::size_t K = 0;
  for (; K + 1 < Kinds.size() && Ordinal >= Kinds[K]->Count(); ++K)
    Ordinal -= Kinds[K]->Count();
  Expected<FoundGpu> G = Kinds[K]->Query(Ordinal, In);
  if (G)
    G->Kind = Kinds[K];
  return G;
}

/// The GPUs \p O asks for as their drivers describe them, this process's
/// share; a GPU that cannot run the kernel is an error, or a note when
/// \p Optional.
Status queryGpus(const IntegrandInfo &In, const IntegratorOptions &O,
                 const std::vector<const GpuKind *> &Kinds, bool Optional,
                 std::vector<FoundGpu> &Found,
                 std::vector<IntegratorNote> &Notes) {
  std::vector<int> Which = O.Gpus;
  if (O.AllGpus) {
    int All = 0;
    for (const GpuKind *K : Kinds)
      All += K->Count();
    for (int G = 0; G < All; ++G)
      Which.push_back(G);
  }
  for (int G : machineShareOf(Which, O))
    if (Status S = keepOrSkip(queryGpu(Kinds, G, In), Found, Optional, Notes);
        !S)
      return S;
  return Status::ok();
}

/// The GPUs \p O asks for, set up for \p In (DeviceSet::create). The
/// integrand's GPU code is compiled here, once per distinct target, before
/// any device is set up: devices only load it.
Status setUpGpus(const IntegrandInfo &In, const IntegratorOptions &O,
                 std::vector<std::unique_ptr<Device>> &Gpus,
                 std::vector<IntegratorNote> &Notes) {
  if (!O.AllGpus && O.Gpus.empty())
    return Status::ok();
  const bool Optional = O.AllGpus && !O.GpusRequired;
  std::string Why;
  std::vector<const GpuKind *> Kinds = availableKinds(Why);
  if (Kinds.empty()) {
    if (!Optional)
      return Error{"no GPU to run on: " + Why};
    Notes.push_back({IntegratorNote::Kind::NoGpu, "no GPU (" + Why + ")"});
    return Status::ok();
  }
  std::vector<FoundGpu> Found;
  if (Status S = queryGpus(In, O, Kinds, Optional, Found, Notes); !S)
    return S;
  std::map<std::pair<const GpuKind *, std::string>, Expected<std::string>>
      CodeByTarget;
  for (const FoundGpu &G : Found) {
    auto It = CodeByTarget.find({G.Kind, G.Target});
    if (It == CodeByTarget.end())
      It = CodeByTarget
               .emplace(std::pair(G.Kind, G.Target), G.Kind->Code(In, G.Target))
               .first;
    Expected<std::unique_ptr<Device>> Dev =
        It->second ? G.SetUp(In, *It->second)
                   : Error{G.Name + ": compiling the kernel for " + G.Target +
                           ": " + It->second.message()};
    if (Status S = keepOrSkip(std::move(Dev), Gpus, Optional, Notes); !S)
      return S;
  }
  return Status::ok();
}

/// CPU threads: as asked, or this process's share of the hardware
/// threads but one per GPU (the thread that feeds it).
unsigned cpuThreads(const IntegratorOptions &O, std::size_t Gpus) {
  if (O.Threads)
    return O.Threads;
  unsigned All = cpuThreadCount(0) / std::max(1u, O.MachineShare);
  unsigned G = unsigned(Gpus);
  return All > G ? All - G : 1;
}

} // namespace

Expected<DeviceSet> DeviceSet::create(const IntegrandInfo &I,
                                      const IntegratorOptions &O,
                                      std::vector<IntegratorNote> &Notes) {
  std::vector<std::unique_ptr<Device>> Gpus;
  if (Status G = setUpGpus(I, O, Gpus, Notes); !G)
    return G.error();
  if (O.NoCpu && O.SimulatedDevices.empty() && Gpus.empty())
    return Error{"no device to run on: no CPU threads and no other device"};
  DeviceSet S;
  const unsigned Cpus = O.NoCpu ? 0 : cpuThreads(O, Gpus.size());
  for (unsigned C = 0; C < Cpus; ++C)
    S.Devices.push_back(std::make_unique<CpuDevice>(C, I.Code->SampleTile));
  for (std::size_t K = 0; K < O.SimulatedDevices.size(); ++K)
    S.Devices.push_back(std::make_unique<SimulatedDevice>(
        unsigned(K), O.SimulatedDevices[K], I.Code->SampleTile));
  for (std::unique_ptr<Device> &G : Gpus)
    S.Devices.push_back(std::move(G));
  for (std::unique_ptr<Device> &D : S.Devices)
    S.Pointers.push_back(D.get());
  S.Rates = WorkerRates(S.Devices.size());
  S.Failed.assign(S.Devices.size(), false);
  return S;
}

std::vector<WorkerInfo> DeviceSet::info() const {
  std::vector<WorkerInfo> W;
  for (const std::unique_ptr<Device> &D : Devices)
    W.push_back({D->name(), D->kind(), D->description()});
  return W;
}

void DeviceSet::begin(const vf_sampler_args &A, std::size_t Nparams,
                      std::vector<std::string> &Failures) {
  for (std::size_t W = 0; W < Devices.size(); ++W)
    if (!Failed[W])
      if (Status S = Devices[W]->begin(A, Nparams); !S) {
        Failed[W] = true;
        Failures[W] = Devices[W]->name() + ": " + S.message();
      }
}

bool DeviceSet::run(const ScheduleSpec &Schedule, const vf_sampler_args &A,
                    std::uint64_t Tb, std::uint64_t Te, const TileSink &Sink,
                    std::vector<WorkerTimes> &Times,
                    std::vector<std::string> &Failures,
                    const std::atomic<bool> *Cancel) {
  // A GPU's chunk sizes follow the tiles at hand: a rank's claim can be a
  // small part of the iteration.
  std::vector<WorkerLimits> Limits;
  for (const std::unique_ptr<Device> &D : Devices)
    Limits.push_back(D->limits(A.tile_size, Te - Tb));
  TileScheduler Sched(Schedule, Te - Tb, A.tile_size, Limits, Rates);
  Sched.stopWhen(Cancel);
  std::vector<WorkerTimes> T = runDevices(
      Pointers, Sched, Tb,
      [&](std::uint64_t Tile) { return tileSamples(A, Tile); }, Sink, Failed);
  for (std::size_t W = 0; W < T.size(); ++W) {
    WorkerTimes &Sum = Times[W];
    Sum.Tiles += T[W].Tiles;
    Sum.Chunks += T[W].Chunks;
    Sum.Samples += T[W].Samples;
    Sum.BusySeconds += T[W].BusySeconds;
    Sum.IdleSeconds += T[W].IdleSeconds;
    if (!T[W].Error.empty()) {
      Failed[W] = true;
      Failures[W] = T[W].Error;
    }
  }
  return !Sched.hasWork();
}

} // namespace vf
