//===- runtime/integrator/Sampling.cpp - Events from the frozen map -------===//
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
                                     bool Frozen) {
  if (!Map || !Str)
    return Error{"no events before training: run() at least one iteration, "
                 "then freeze()"};
  if (!Frozen)
    return Error{"events come from a frozen map: call freeze() after "
                 "training"};
  return EventSampler::create(
      {&I, Params, Map->edges(), Map->ninc(), Str->offsets(), Str->nstrat(),
       O.Seed, O.Threads, O.OnNonFinite == NonFinitePolicy::Stop});
}
} // namespace

Status
Integrator::sample(std::uint64_t N,
                   const std::function<void(const EventBatch &)> &Callback) {
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen);
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
  Expected<EventSampler> E = frozenSampler(P->I, P->O, P->Params,
                                           P->Map.get(), P->Str.get(),
                                           P->Frozen);
  if (!E)
    return E.error();
  return E->unweight(N, P->NextEvent, O, Callback);
}

} // namespace vf
