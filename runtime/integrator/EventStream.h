//===- runtime/integrator/EventStream.h - Events of a run -------*- C++ -*-===//
//
// The event side of an integrator: weighted events (sample) and unweighted
// ones (unweight) drawn from the frozen map and allocation of a RunState,
// through an EventSampler, continuing the run's event stream from its
// position (RunState::NextEvent), which a checkpoint keeps, so that a
// resumed generator hands out the events that follow, not the same again.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_EVENTSTREAM_H
#define VF_RUNTIME_INTEGRATOR_EVENTSTREAM_H

#include "vf/Events.h"
#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Integrator.h"

#include "integrator/EventSampler.h"
#include "integrator/RunState.h"

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace vf {

class EventStream {
public:
  /// Events of \p I with options \p O and parameters \p Params (borrowed:
  /// they must outlive the stream).
  EventStream(const IntegrandInfo &I, const IntegratorOptions &O,
              const std::vector<double> &Params)
      : I(I), O(O), Params(Params) {}

  /// \p N weighted events from \p S's frozen map, in batches, in order;
  /// the stream's position moves past them when all were drawn.
  Status sample(RunState &S, std::uint64_t N,
                const std::function<void(const EventBatch &)> &Callback) const;
  /// \p N unweighted events, examining the stream's events from its
  /// position on (which moves past the last one examined).
  Expected<UnweightStats>
  unweight(RunState &S, std::uint64_t N,
           const std::function<void(const EventBatch &)> &Callback,
           const UnweightOptions &U) const;

private:
  /// What a sampler borrows that the stream makes for it: the kernels'
  /// parameter block and uniform allocations.
  struct Borrowed {
    std::vector<double> Params;
    std::vector<std::vector<std::uint64_t>> Offsets;
  };
  /// A sampler over \p S's grids, each with its allocation or (with
  /// \p Uniform) every hypercube equally likely, kept in \p B; or why
  /// there is none (no iteration yet, or not frozen).
  Expected<EventSampler> frozenSampler(const RunState &S, bool Uniform,
                                       Borrowed &B) const;

  const IntegrandInfo &I;
  const IntegratorOptions &O;
  const std::vector<double> &Params;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_EVENTSTREAM_H
