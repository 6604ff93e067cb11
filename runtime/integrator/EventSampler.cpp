//===- runtime/integrator/EventSampler.cpp - Events from a frozen map -----===//
//
// Weighted events: batches filled in parallel by the CPU pool, a round of
// batches at a time, and handed out in order. Unweighted events: a w_max
// pass over its own stream, then hit-or-miss on the event stream, deciding
// event by event in index order so the accepted set does not depend on the
// batching or the threads.
//
//===----------------------------------------------------------------------===//

#include "integrator/EventSampler.h"

#include "SamplePoint.h"
#include "devices/WorkerPool.h"
#include "integrator/Strata.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace vf {

Expected<EventSampler> EventSampler::create(const Frozen &State) {
  EventSampler E(State);
  std::vector<double> Hi;
  if (Status St = State.Integrand->Domain(State.Params, E.Lo, Hi); !St)
    return St.error();
  E.Width.resize(E.Lo.size());
  for (std::size_t D = 0; D < E.Lo.size(); ++D) {
    E.Width[D] = Hi[D] - E.Lo[D];
    E.Volume *= E.Width[D];
  }
  const bool Channels = !State.Channels.empty();
  if (Channels ? !State.Integrand->EvaluateChannel : !State.Integrand->Evaluate)
    return Error{"integrand '" + State.Integrand->Name +
                 "' has no batch entry point to evaluate events with"};
  E.Entries = weightEntries(*State.Integrand);
  // Sema keeps lists out of channels; an integrand made by hand may not.
  if (E.Entries && (Channels || !State.Integrand->EvaluateWeights))
    return Error{"integrand '" + State.Integrand->Name +
                 "' has the weight list '" +
                 State.Integrand->WeightLists.front().Name +
                 "' but no entry point to evaluate its entries at events "
                 "(IntegrandInfo::EvaluateWeights" +
                 (Channels ? ", which a multi-channel integrand lacks)" : ")")};
  return E;
}

vf_sampler_args EventSampler::gridArgs(std::uint32_t Stream,
                                       std::span<const double> Edges,
                                       unsigned Ninc, unsigned Nstrat,
                                       unsigned Channel) const {
  vf_sampler_args A{};
  A.seed = S.Seed;
  A.iteration = Stream;
  A.dim = S.Integrand->Dim;
  A.nout = S.Integrand->Outputs;
  A.ninc = Ninc;
  A.nstrat = Nstrat;
  A.edges = Edges.data();
  A.box_lo = Lo.data();
  A.box_width = Width.data();
  A.box_volume = Volume;
  A.params = S.Params.data();
  A.channel = Channel;
  return A;
}

double EventSampler::drawPoint(const vf_sampler_args &A,
                               std::span<const std::uint64_t> Offsets,
                               double Pick, std::uint64_t J, double *X) const {
  const unsigned Dim = A.dim;
  const std::uint64_t Nhcube = Offsets.size() - 1, Nused = Offsets.back();
  // On the stack: a heap allocation per event cost more than the point.
  double Coords[VF_SAMPLER_MAX_DIM];
  vf_u32 Bin[VF_SAMPLER_MAX_DIM];
  const std::uint64_t Index =
      std::min<std::uint64_t>(std::uint64_t(Pick * double(Nused)), Nused - 1);
  const std::uint64_t H = Strata::findHcube(Offsets, Index);
  vf_hcube_coords(H, Dim, A.nstrat, Coords);
  const double Jac = vf_sample_point(&A, Dim, J, Coords, X, Bin);
  const double Nh = double(Offsets[H + 1] - Offsets[H]);
  return Jac * (double(Nused) / (double(Nhcube) * Nh));
}

void EventSampler::resize(std::size_t N, Buffers &B) const {
  B.X.resize(N * S.Integrand->Dim);
  B.F.resize(N * S.Integrand->Outputs);
  B.Jac.resize(N);
  B.Weight.resize(N);
  B.Accept.resize(N);
  B.Zeroed.resize(N);
}

void EventSampler::fill(std::uint32_t Stream, std::uint64_t First,
                        std::size_t N, EntryChoice Choice, Buffers &B) const {
  if (!S.Channels.empty())
    return fillChannels(Stream, First, N, B);
  const unsigned Dim = S.Integrand->Dim;
  const vf_sampler_args A = gridArgs(Stream, S.Edges, S.Ninc, S.Nstrat, 0);
  resize(N, B);
  for (std::size_t E = 0; E < N; ++E) {
    double Pick;
    vf_uniforms_choice(S.Seed, Stream, First + E, &Pick, &B.Accept[E]);
    B.Jac[E] = drawPoint(A, S.Offsets, Pick, First + E, &B.X[E * Dim]);
  }
  S.Integrand->Evaluate(B.X.data(), std::int64_t(N), S.Params.data(),
                        B.F.data());
  weigh(First, N, B);
  fillEntries(Choice, N, B);
}

void EventSampler::fillEntries(EntryChoice Choice, std::size_t N,
                               Buffers &B) const {
  if (!Entries || Choice.Which == EntryChoice::None)
    return;
  const unsigned Dim = S.Integrand->Dim;
  B.Entries.assign(N * Entries, 0.0);
  // The chosen events' points, in one call: the test is unweight()'s own.
  std::vector<std::size_t> Chosen;
  std::vector<double> X;
  for (std::size_t E = 0; E < N; ++E) {
    if (B.Zeroed[E] || (Choice.Which == EntryChoice::Accepted &&
                        !(B.Accept[E] * Choice.Wmax < std::abs(B.Weight[E]))))
      continue;
    Chosen.push_back(E);
    X.insert(X.end(), B.X.begin() + E * Dim, B.X.begin() + (E + 1) * Dim);
  }
  std::vector<double> Values(Chosen.size() * Entries);
  S.Integrand->EvaluateWeights(X.data(), std::int64_t(Chosen.size()),
                               S.Params.data(), Values.data());
  for (std::size_t C = 0; C < Chosen.size(); ++C) {
    const std::size_t E = Chosen[C];
    const double Scale = Choice.Which == EntryChoice::All ? B.Jac[E] : 1.0;
    // A non-finite entry adds nothing to its integral (kernels/HistSums.h)
    // and weighs nothing here.
    for (unsigned K = 0; K < Entries; ++K) {
      const double V = Values[C * Entries + K];
      B.Entries[E * Entries + K] = std::isfinite(V) ? Scale * V : 0.0;
    }
  }
}

void EventSampler::takeAccepted(const Buffers &B, std::size_t E, double Weight,
                                Buffers &Out) const {
  const unsigned Dim = S.Integrand->Dim, K = S.Integrand->Outputs;
  Out.X.insert(Out.X.end(), B.X.begin() + E * Dim, B.X.begin() + (E + 1) * Dim);
  Out.F.insert(Out.F.end(), B.F.begin() + E * K, B.F.begin() + (E + 1) * K);
  Out.Jac.push_back(B.Jac[E]);
  if (!B.Channel.empty())
    Out.Channel.push_back(B.Channel[E]);
  Out.Weight.push_back(Weight);
  // Weight e_k / f: the variation's ratio to the value the event's weight
  // came from (f != 0, or the event had weight 0 and was not accepted).
  const double F = B.F[E * K];
  for (unsigned J = 0; J < Entries; ++J)
    Out.Entries.push_back(Weight * (B.Entries[E * Entries + J] / F));
}

void EventSampler::fillChannels(std::uint32_t Stream, std::uint64_t First,
                                std::size_t N, Buffers &B) const {
  const IntegrandInfo &I = *S.Integrand;
  const unsigned Dim = I.Dim, K = I.Outputs, M = unsigned(S.Channels.size());
  std::vector<vf_sampler_args> Args;
  for (unsigned C = 0; C < M; ++C) {
    const Frozen::ChannelGrid &G = S.Channels[C];
    Args.push_back(gridArgs(Stream, G.Edges, G.Ninc, G.Nstrat, C));
  }
  resize(N, B);
  B.Channel.resize(N);
  for (std::size_t E = 0; E < N; ++E) {
    double Pick;
    vf_uniforms_choice(S.Seed, Stream, First + E, &Pick, &B.Accept[E]);
    // The channel, then the hypercube from the rest of the same uniform.
    unsigned C = 0;
    double Below = 0;
    while (C + 1 < M && Pick >= Below + S.Channels[C].Alpha)
      Below += S.Channels[C++].Alpha;
    const double Alpha = S.Channels[C].Alpha;
    const double Rest = std::clamp((Pick - Below) / Alpha, 0.0, 1.0);
    B.Channel[E] = C;
    B.Jac[E] = drawPoint(Args[C], S.Channels[C].Offsets, Rest, First + E,
                         &B.X[E * Dim]) /
               Alpha;
  }
  // Each channel's term at its events' points, in one call per channel.
  std::vector<double> X, F;
  for (unsigned C = 0; C < M; ++C) {
    X.clear();
    for (std::size_t E = 0; E < N; ++E)
      if (B.Channel[E] == C)
        X.insert(X.end(), B.X.begin() + E * Dim, B.X.begin() + (E + 1) * Dim);
    const std::size_t Nc = X.size() / Dim;
    F.resize(Nc * K);
    I.EvaluateChannel(C, X.data(), std::int64_t(Nc), S.Params.data(), F.data());
    for (std::size_t E = 0, Next = 0; E < N; ++E)
      if (B.Channel[E] == C)
        std::copy_n(F.begin() + (Next++) * K, K, B.F.begin() + E * K);
  }
  weigh(First, N, B);
}

void EventSampler::weigh(std::uint64_t First, std::size_t N, Buffers &B) const {
  const unsigned K = S.Integrand->Outputs;
  B.NonFinite = 0;
  for (std::size_t E = 0; E < N; ++E) {
    double *F = &B.F[E * K];
    bool Finite = true;
    for (unsigned C = 0; C < K; ++C)
      Finite &= std::isfinite(F[C]);
    if (!Finite) {
      if (B.NonFinite++ == 0)
        B.FirstBad = First + E;
      std::fill(F, F + K, 0.0);
    }
    B.Zeroed[E] = !Finite;
    B.Weight[E] = B.Jac[E] * F[0];
  }
}

EventBatch EventSampler::view(const Buffers &B, std::uint64_t First,
                              std::size_t N) const {
  const unsigned Dim = S.Integrand->Dim, K = S.Integrand->Outputs;
  EventBatch E;
  E.First = First;
  E.N = N;
  E.Dim = Dim;
  E.Outputs = K;
  E.X = std::span<const double>(B.X.data(), N * Dim);
  E.F = std::span<const double>(B.F.data(), N * K);
  E.Jac = std::span<const double>(B.Jac.data(), N);
  E.Weight = std::span<const double>(B.Weight.data(), N);
  if (!S.Channels.empty())
    E.Channel = std::span<const std::uint32_t>(B.Channel.data(), N);
  E.Entries = Entries;
  if (Entries)
    E.EntryWeights = std::span<const double>(B.Entries.data(), N * Entries);
  return E;
}

Status EventSampler::draw(
    std::uint32_t Stream, std::uint64_t First, std::uint64_t N,
    const std::function<bool(const EventBatch &)> &Callback) const {
  return drawBuffers(
      Stream, First, N, {EntryChoice::All},
      [&](const Buffers &B, std::uint64_t Start, std::size_t Size) {
        return Callback(view(B, Start, Size));
      });
}

Status EventSampler::drawBuffers(
    std::uint32_t Stream, std::uint64_t First, std::uint64_t N,
    EntryChoice Choice,
    const std::function<bool(const Buffers &, std::uint64_t, std::size_t)>
        &Callback) const {
  const std::uint64_t Nbatches = (N + BatchSize - 1) / BatchSize;
  const std::uint64_t Round = 2 * std::uint64_t(cpuThreadCount(S.Threads));
  std::vector<Buffers> Bufs(std::min(Round, Nbatches));
  for (std::uint64_t B0 = 0; B0 < Nbatches; B0 += Round) {
    const std::uint64_t Nb = std::min(Round, Nbatches - B0);
    auto Size = [&](std::uint64_t B) {
      return std::size_t(std::min<std::uint64_t>(BatchSize,
                                                 N - B * BatchSize));
    };
    parallelFor(S.Threads, Nb, [&](unsigned, std::uint64_t T) {
      fill(Stream, First + (B0 + T) * BatchSize, Size(B0 + T), Choice, Bufs[T]);
    });
    for (std::uint64_t T = 0; T < Nb; ++T) {
      const Buffers &B = Bufs[T];
      const std::uint64_t Start = First + (B0 + T) * BatchSize;
      if (B.NonFinite && S.StopOnNonFinite) {
        const unsigned Dim = S.Integrand->Dim;
        std::string Point;
        char Num[40];
        for (unsigned D = 0; D < Dim; ++D) {
          std::snprintf(Num, sizeof(Num), "%.17g",
                        B.X[(B.FirstBad - Start) * Dim + D]);
          Point += (D ? ", " : "") + std::string(Num);
        }
        return Error{"integrand '" + S.Integrand->Name +
                     "' is not finite at x = [" + Point + "] (event " +
                     std::to_string(B.FirstBad) +
                     "); fix it there, or set OnNonFinite = Zero to count "
                     "such events as 0"};
      }
      if (!Callback(B, Start, Size(B0 + T)))
        return Status::ok();
    }
  }
  return Status::ok();
}

Expected<double> EventSampler::wmax(std::uint64_t Events) const {
  if (Events == 0)
    return Error{"unweighting needs WmaxEvents >= 1 to estimate w_max"};
  double Wmax = 0;
  Status St =
      drawBuffers(WmaxStream, 0, Events, {},
                  [&](const Buffers &B, std::uint64_t, std::size_t Size) {
                    for (std::size_t E = 0; E < Size; ++E)
                      Wmax = std::max(Wmax, std::abs(B.Weight[E]));
                    return true;
                  });
  if (!St)
    return St.error();
  if (!(Wmax > 0) || !std::isfinite(Wmax))
    return Error{"cannot unweight: the largest |weight| of " +
                 std::to_string(Events) +
                 " events is 0 or not finite (the integrand vanishes where "
                 "the map samples)"};
  return Wmax;
}

Expected<UnweightStats> EventSampler::unweight(
    std::uint64_t N, std::uint64_t &Next, const UnweightOptions &O,
    const std::function<void(const EventBatch &)> &Callback) const {
  UnweightStats R;
  R.Channels.resize(S.Channels.size());
  // (1) w_max from a pass of its own.
  Expected<double> Wmax = wmax(O.WmaxEvents);
  if (!Wmax)
    return Wmax.error();
  R.Wmax = *Wmax;
  // (2) Hit or miss, event by event in order; accepted events are
  // compacted into Out and handed out per batch. Mean and variance of w
  // over the drawn events by Welford's update, in event order.
  double Mean = 0, M2 = 0;
  Buffers Out;
  // Each round draws at least the events still needed at the efficiency
  // seen so far (and never fewer than a batch per thread).
  while (R.Accepted < N) {
    const double Eff =
        R.Drawn ? std::max(double(R.Accepted) / double(R.Drawn), 1e-6) : 0.5;
    const std::uint64_t Want = std::uint64_t(
        std::min(1.2 * double(N - R.Accepted) / Eff + 1, 1e8));
    const std::uint64_t Start = Next;
    Status St = drawBuffers(
        EventStream, Start, std::max<std::uint64_t>(Want, BatchSize),
        {EntryChoice::Accepted, R.Wmax},
        [&](const Buffers &B, std::uint64_t First, std::size_t Size) {
          Out.X.clear(), Out.F.clear(), Out.Jac.clear(), Out.Weight.clear();
          Out.Channel.clear(), Out.Entries.clear();
          std::size_t E = 0;
          for (; E < Size && R.Accepted < N; ++E) {
            const double W = B.Weight[E];
            ++R.Drawn;
            ChannelUnweight *Ch =
                B.Channel.empty() ? nullptr : &R.Channels[B.Channel[E]];
            if (Ch)
              ++Ch->Drawn;
            const double Delta = W - Mean;
            Mean += Delta / double(R.Drawn);
            M2 += Delta * (W - Mean);
            // Accept with probability |w| / w_max (always when |w| > w_max).
            if (!(B.Accept[E] * R.Wmax < std::abs(W)))
              continue;
            ++R.Accepted;
            if (Ch)
              ++Ch->Accepted;
            const bool Over = std::abs(W) > R.Wmax;
            R.Overshoot += Over;
            takeAccepted(
                B, E, std::copysign(Over ? std::abs(W) / R.Wmax : 1.0, W), Out);
          }
          Next = First + E;
          if (!Out.Jac.empty())
            Callback(view(Out, R.Accepted - Out.Jac.size(), Out.Jac.size()));
          return R.Accepted < N;
        });
    if (!St)
      return St.error();
  }
  R.Mean = Mean;
  R.Error = R.Drawn > 1 ? std::sqrt(M2 / double(R.Drawn - 1) / double(R.Drawn))
                        : 0.0;
  R.Efficiency = R.Drawn ? double(R.Accepted) / double(R.Drawn) : 0.0;
  R.OvershootFraction =
      R.Accepted ? double(R.Overshoot) / double(R.Accepted) : 0.0;
  return R;
}

} // namespace vf
