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

namespace {

/// Every hypercube of \p Str equally likely: one sample each.
std::vector<std::uint64_t> uniformOffsets(const Strata &Str) {
  std::vector<std::uint64_t> U(Str.offsets().size());
  for (std::uint64_t H = 0; H < U.size(); ++H)
    U[H] = H;
  return U;
}

} // namespace

Expected<EventSampler>
EventStream::frozenSampler(const RunState &S, bool Uniform, Borrowed &B) const {
  if (!S.Map || !S.Str)
    return Error{"no events before training: run() at least one iteration, "
                 "then freeze()"};
  if (!S.Frozen)
    return Error{"events come from a frozen map: call freeze() after "
                 "training"};
  B.Params = S.kernelParams(Params, I.ChannelDensityUsed);
  B.Offsets.reserve(S.channels() + 1);
  auto Offsets = [&](const Strata &Str) -> std::span<const std::uint64_t> {
    if (!Uniform)
      return Str.offsets();
    return B.Offsets.emplace_back(uniformOffsets(Str));
  };
  EventSampler::Frozen F{&I,
                         B.Params,
                         S.Map->edges(),
                         S.Map->ninc(),
                         Offsets(*S.Str),
                         S.Str->nstrat(),
                         O.Seed,
                         O.Threads,
                         O.OnNonFinite == NonFinitePolicy::Stop,
                         {}};
  for (unsigned C = 0; C < S.channels(); ++C) {
    const AdaptiveMap &Map = C == S.Channel ? *S.Map : *S.Parked[C].Map;
    const Strata &Str = C == S.Channel ? *S.Str : *S.Parked[C].Str;
    F.Channels.push_back({Map.edges(), Map.ninc(),
                          C == S.Channel ? F.Offsets : Offsets(Str),
                          Str.nstrat(), S.Alpha[C]});
  }
  return EventSampler::create(F);
}

Status EventStream::sample(
    RunState &S, std::uint64_t N,
    const std::function<void(const EventBatch &)> &Callback) const {
  Borrowed B;
  Expected<EventSampler> E = frozenSampler(S, false, B);
  if (!E)
    return E.error();
  Status Drawn = E->draw(EventSampler::EventStream, S.NextEvent, N,
                         [&](const EventBatch &Batch) {
                           Callback(Batch);
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
  Borrowed B;
  Expected<EventSampler> E = frozenSampler(S, !U.UseAllocation, B);
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
