//===- runtime/integrator/EventStream.cpp - Events from the frozen map ----===//
//
// EventStream's sample and unweight, an EventSampler (integrator/
// EventSampler.h) over the frozen map and allocation, and the Integrator
// entry points in front of them.
//
//===----------------------------------------------------------------------===//

#include "integrator/EventStream.h"

#include "integrator/IntegratorImpl.h"

namespace vf {

Expected<EventSampler>
EventStream::frozenSampler(const RunState &S,
                           std::span<const std::uint64_t> Offsets) const {
  if (S.channels())
    return Error{"integrand '" + I.Name + "' has " +
                 std::to_string(S.channels()) +
                 " channels: events from a multi-channel integrand are not "
                 "available yet in this build (integrate it, or draw events "
                 "from a single-channel integrand)"};
  if (!S.Map || !S.Str)
    return Error{"no events before training: run() at least one iteration, "
                 "then freeze()"};
  if (!S.Frozen)
    return Error{"events come from a frozen map: call freeze() after "
                 "training"};
  return EventSampler::create({&I, Params, S.Map->edges(), S.Map->ninc(),
                               Offsets.empty() ? S.Str->offsets() : Offsets,
                               S.Str->nstrat(), O.Seed, O.Threads,
                               O.OnNonFinite == NonFinitePolicy::Stop});
}

Status EventStream::sample(
    RunState &S, std::uint64_t N,
    const std::function<void(const EventBatch &)> &Callback) const {
  Expected<EventSampler> E = frozenSampler(S, {});
  if (!E)
    return E.error();
  Status Drawn = E->draw(EventSampler::EventStream, S.NextEvent, N,
                         [&](const EventBatch &B) {
                           Callback(B);
                           return true;
                         });
  if (Drawn)
    S.NextEvent += N;
  return Drawn;
}

Expected<UnweightStats>
EventStream::unweight(RunState &S, std::uint64_t N,
                      const std::function<void(const EventBatch &)> &Callback,
                      const UnweightOptions &U) const {
  // Unweighting wants q(x) close to |f|, not the variance-optimal
  // allocation: n_h ~ sigma_h^beta puts extra samples where f varies and
  // so spreads the weights (the e+e- -> mu+mu- example's efficiency was
  // 0.55 with beta = 0.75 against 0.96 with beta = 0). The hypercubes are
  // drawn with equal probability instead, and the trained map alone
  // shapes q(x), as with beta = 0, whatever beta trained it.
  std::vector<std::uint64_t> Uniform;
  if (S.Str && !U.UseAllocation) {
    Uniform.resize(S.Str->offsets().size());
    for (std::uint64_t H = 0; H < Uniform.size(); ++H)
      Uniform[H] = H;
  }
  Expected<EventSampler> E = frozenSampler(S, Uniform);
  if (!E)
    return E.error();
  return E->unweight(N, S.NextEvent, U, Callback);
}

Status
Integrator::sample(std::uint64_t N,
                   const std::function<void(const EventBatch &)> &Callback) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("sample");
  return P->Events.sample(P->State, N, Callback);
}

Expected<UnweightStats>
Integrator::unweight(std::uint64_t N,
                     const std::function<void(const EventBatch &)> &Callback,
                     const UnweightOptions &O) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("unweight");
  return P->Events.unweight(P->State, N, Callback, O);
}

} // namespace vf
