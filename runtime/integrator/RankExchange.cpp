//===- runtime/integrator/RankExchange.cpp - Iterations over MPI ranks ----===//
//
// With several ranks (vf/Cluster.h), each iteration's tiles are claimed in
// TrainingSums' groups, so each rank's training partials are whole; after
// running its claims, a rank sends the others what only it computed, and
// every rank continues with the single-process state, bit for bit.
//
//===----------------------------------------------------------------------===//

#include "integrator/IntegratorImpl.h"

#include "reduction/Segments.h"

#include <cmath>
#include <cstring>

namespace vf {

/// The adaptive policy's chunk among the ranks' measured rates (0: a
/// slower rank stops), half an equal share until they are measured.
std::uint64_t Integrator::Impl::rankChunk(const Cluster &C,
                                          std::uint64_t Left) const {
  double Sum = 0, FastestOther = 0;
  for (int R = 0; R < int(RankRates.size()); ++R) {
    Sum += RankRates[R];
    if (R != C.rank())
      FastestOther = std::max(FastestOther, RankRates[R]);
  }
  if (RankRates.size() != std::size_t(C.size()) || !(RankRates[C.rank()] > 0))
    return std::max<std::uint64_t>(
        1, std::uint64_t(std::ceil(double(Left) / C.size() / 2)));
  return adaptiveChunk(RankRates[C.rank()], Sum, FastestOther, Left, 1, Left);
}

void Integrator::Impl::learnRankRates(const std::vector<RankStats> &Row) {
  RankRates.clear();
  for (const RankStats &R : Row)
    RankRates.push_back(R.BusySeconds > 0 ? double(R.Samples) / R.BusySeconds
                                          : 0.0);
  RankTotals.resize(Row.size());
  for (std::size_t R = 0; R < Row.size(); ++R) {
    RankTotals[R].Rank = Row[R].Rank;
    RankTotals[R].Samples += Row[R].Samples;
    RankTotals[R].BusySeconds += Row[R].BusySeconds;
    RankTotals[R].IdleSeconds += Row[R].IdleSeconds;
  }
}

/// Ranks claim groups of tiles (TrainingSums' groups, so each rank's
/// training partials are whole), guided by their measured shares, and run
/// them with RunTiles; then each sends what it computed to the others, so
/// every rank continues with the single-process state, bit for bit.
/// Finished turns false when this rank's devices all failed.
Status Integrator::Impl::runOnRanks(
    Cluster &C,
    const std::function<bool(std::uint64_t, std::uint64_t)> &RunTiles,
    const std::atomic<std::uint64_t> &SamplesDone, unsigned Stride,
    bool &Finished, std::vector<RankStats> &RankRow) {
  const TrainingSums &Training = Buffers.Training;
  const std::uint64_t G = Training.groups();
  if (Status S = C.startClaims(G); !S)
    return S;
  Clock::time_point T0 = Clock::now();
  std::uint64_t Owned = 0; // bit g: this rank ran group g (G <= 64)
  while (Finished) {
    // The ranks share the groups as the adaptive policy shares tiles.
    Expected<std::uint64_t> Now = C.claimed();
    if (!Now)
      return Now.error();
    const std::uint64_t Want = *Now < G ? rankChunk(C, G - *Now) : 0;
    if (Want == 0)
      break;
    Expected<Cluster::Range> R = C.claim(Want);
    if (!R)
      return R.error();
    if (R->empty())
      break;
    for (std::uint64_t Grp = R->Begin; Grp < R->End; ++Grp)
      Owned |= std::uint64_t(1) << Grp;
    Finished = RunTiles(Training.groupBegin(R->Begin),
                        Training.groupBegin(R->End));
  }
  double Busy = std::chrono::duration<double>(Clock::now() - T0).count();
  std::uint64_t Bad = Finished ? 0 : std::uint64_t(1) << (C.rank() % 64);
  if (Status S = C.orAll(&Bad, 1); !S)
    return S;
  double Idle = std::chrono::duration<double>(Clock::now() - T0).count() - Busy;
  // A rank whose devices all failed says why itself (Finished is false);
  // the others stop with it, and none takes part in another collective.
  if (Bad)
    return Finished ? Status(Error{"iteration " + std::to_string(Iteration) +
                                   ": every device of another rank failed "
                                   "(its messages say why); stopping every "
                                   "rank"})
                    : Status::ok();
  Expected<std::uint64_t> Bytes = exchangeGroups(C, Owned, Stride);
  if (!Bytes)
    return Bytes.error();
  ExchangeBytes = *Bytes;
  Expected<std::vector<double>> All = C.gatherAll(
      {double(SamplesDone.load()), Busy, Idle});
  if (!All)
    return All.error();
  for (int R = 0; R < C.size(); ++R)
    RankRow.push_back({R, std::uint64_t((*All)[3 * R]), (*All)[3 * R + 1],
                       (*All)[3 * R + 2]});
  learnRankRates(RankRow);
  return Status::ok();
}

namespace {
/// Copies N words between a packet and an array, in the packet's order.
struct Packer {
  std::vector<std::uint64_t> *Out = nullptr; ///< put() appends here
  const std::uint64_t *In = nullptr;         ///< get() reads from here
  template <typename T> void put(const T *Data, std::size_t Count) {
    std::size_t At = Out->size();
    Out->resize(At + Count * sizeof(T) / 8);
    std::memcpy(Out->data() + At, Data, Count * sizeof(T));
  }
  template <typename T> void get(T *Data, std::size_t Count) {
    std::memcpy(Data, In, Count * sizeof(T));
    In += Count * sizeof(T) / 8;
  }
};
} // namespace

Expected<std::uint64_t> Integrator::Impl::exchangeGroups(Cluster &C,
                                                         std::uint64_t Owned,
                                                         unsigned Stride) {
  static_assert(sizeof(vf_tile_result) % 8 == 0 && sizeof(double) == 8);
  TrainingSums &Training = Buffers.Training;
  std::vector<vf_tile_result> &Results = Buffers.Results;
  std::vector<double> &Edges = Buffers.Edges, &Segs = Buffers.Segs;
  const std::uint64_t G = Training.groups();
  std::span<double> Partials = Training.partials();
  const std::size_t PartialSize = Partials.size() / G;
  std::span<double> Hists = Buffers.Histograms.partials();
  const std::size_t HistSize = Buffers.Histograms.cells() ? Hists.size() / G : 0;
  // A group's inner hypercubes: only its owner wrote them.
  auto Inside = [&](std::uint64_t Tb, std::uint64_t Te) {
    return innerHypercubes(Results[Tb].first_hcube, Results[Te - 1].last_hcube);
  };
  // Each group: its tiles' results and edge segments, its hypercubes'
  // segments, its training partial and its histograms' partial.
  auto Walk = [&](std::uint64_t Mask, Packer &P, bool Put) {
    for (std::uint64_t Grp = 0; Grp < G; ++Grp) {
      if (!(Mask >> Grp & 1))
        continue;
      std::uint64_t Tb = Training.groupBegin(Grp), Te = Training.groupBegin(Grp + 1);
      auto Move = [&](auto *Data, std::size_t Count) {
        Put ? P.put(Data, Count) : P.get(Data, Count);
      };
      Move(Results.data() + Tb, Te - Tb);
      Move(Edges.data() + Tb * 2 * Stride, (Te - Tb) * 2 * Stride);
      auto [First, Count] = Inside(Tb, Te);
      Move(Segs.data() + First * Stride, Count * Stride);
      Move(Partials.data() + Grp * PartialSize, PartialSize);
      if (HistSize)
        Move(Hists.data() + Grp * HistSize, HistSize);
    }
  };
  std::vector<std::uint64_t> &Mine = Buffers.Send, &All = Buffers.Receive;
  Mine.assign(1, Owned);
  Packer Out{&Mine, nullptr};
  Walk(Owned, Out, true);
  const std::uint64_t Sent = 8 * Mine.size();
  std::vector<std::size_t> Counts;
  if (Status S = C.gatherWords(Mine, All, Counts); !S)
    return S.error();
  std::size_t Offset = 0;
  for (int R = 0; R < C.size(); Offset += Counts[R], ++R) {
    if (R == C.rank())
      continue;
    const std::uint64_t *Packet = All.data() + Offset;
    Packer In{nullptr, Packet + 1};
    Walk(Packet[0], In, false);
  }
  return Sent;
}

} // namespace vf
