//===- runtime/integrator/EventStream.cpp - Events from the frozen map ----===//
//
// Integrator::sample and unweight: an EventSampler (integrator/
// EventSampler.h) over the frozen map and allocation, continuing the
// integrator's event stream.
//
//===----------------------------------------------------------------------===//

#include "integrator/IntegratorImpl.h"

#include "integrator/EventSampler.h"

namespace vf {

namespace {
Expected<EventSampler> frozenSampler(const IntegrandInfo &I,
                                     const IntegratorOptions &O,
                                     const std::vector<double> &Params,
                                     const AdaptiveMap *Map, const Strata *Str,
                                     bool Frozen,
                                     std::span<const std::uint64_t> Offsets) {
  if (!Map || !Str)
    return Error{"no events before training: run() at least one iteration, "
                 "then freeze()"};
  if (!Frozen)
    return Error{"events come from a frozen map: call freeze() after "
                 "training"};
  return EventSampler::create(
      {&I, Params, Map->edges(), Map->ninc(),
       Offsets.empty() ? Str->offsets() : Offsets, Str->nstrat(),
       O.Seed, O.Threads, O.OnNonFinite == NonFinitePolicy::Stop});
}
} // namespace

Status
Integrator::sample(std::uint64_t N,
                   const std::function<void(const EventBatch &)> &Callback) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("sample");
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen, {});
  if (!E)
    return E.error();
  Status S = E->draw(EventSampler::EventStream, P->NextEvent, N,
                     [&](const EventBatch &B) {
                       Callback(B);
                       return true;
                     });
  if (S)
    P->NextEvent += N;
  return S;
}

Expected<UnweightStats>
Integrator::unweight(std::uint64_t N,
                     const std::function<void(const EventBatch &)> &Callback,
                     const UnweightOptions &O) {
  BusyClaim Claim(P->Busy);
  if (!Claim)
    return busyError("unweight");
  // Unweighting wants q(x) close to |f|, not the variance-optimal
  // allocation: n_h ~ sigma_h^beta puts extra samples where f varies and
  // so spreads the weights (the e+e- -> mu+mu- example's efficiency was
  // 0.55 with beta = 0.75 against 0.96 with beta = 0). The hypercubes are
  // drawn with equal probability instead, and the trained map alone
  // shapes q(x), as with beta = 0, whatever beta trained it.
  std::vector<std::uint64_t> Uniform;
  if (P->Str && !O.UseAllocation) {
    Uniform.resize(P->Str->offsets().size());
    for (std::uint64_t H = 0; H < Uniform.size(); ++H)
      Uniform[H] = H;
  }
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen, Uniform);
  if (!E)
    return E.error();
  return E->unweight(N, P->NextEvent, O, Callback);
}

} // namespace vf
