//===- runtime/integrator/RankExchange.cpp - Iterations over MPI ranks ----===//
//
// A rank's claims of an iteration's groups, sized by the ranks' measured
// rates, and the exchange of what each computed (RankExchange.h).
//
//===----------------------------------------------------------------------===//

#include "integrator/RankExchange.h"

#include "integrator/GroupPacket.h"
#include "scheduler/TileScheduler.h"

#include <chrono>
#include <cmath>

namespace vf {

using Clock = std::chrono::steady_clock;

/// The adaptive policy's chunk among the ranks' measured rates (0: a
/// slower rank stops), half an equal share until they are measured.
std::uint64_t RankExchange::chunk(const Cluster &C, std::uint64_t Left) const {
  double Sum = 0, FastestOther = 0;
  for (int R = 0; R < int(Rates.size()); ++R) {
    Sum += Rates[R];
    if (R != C.rank())
      FastestOther = std::max(FastestOther, Rates[R]);
  }
  if (Rates.size() != std::size_t(C.size()) || !(Rates[C.rank()] > 0))
    return std::max<std::uint64_t>(
        1, std::uint64_t(std::ceil(double(Left) / C.size() / 2)));
  return adaptiveChunk(Rates[C.rank()], Sum, FastestOther, Left, 1, Left);
}

void RankExchange::learnRates(const std::vector<RankStats> &Row) {
  Rates.clear();
  for (const RankStats &R : Row)
    Rates.push_back(R.BusySeconds > 0 ? double(R.Samples) / R.BusySeconds
                                      : 0.0);
  Totals.resize(Row.size());
  for (std::size_t R = 0; R < Row.size(); ++R) {
    Totals[R].Rank = Row[R].Rank;
    Totals[R].Samples += Row[R].Samples;
    Totals[R].BusySeconds += Row[R].BusySeconds;
    Totals[R].IdleSeconds += Row[R].IdleSeconds;
  }
}

/// Ranks claim groups of tiles (TrainingSums' groups, so each rank's
/// training partials are whole), guided by their measured shares, and run
/// them with W.RunTiles; then each sends what it computed to the others.
Status RankExchange::run(Cluster &C, const RankWork &W, bool &Finished,
                         std::vector<RankStats> &RankRow) {
  const TrainingSums &Training = W.Buffers.Training;
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
    const std::uint64_t Want = *Now < G ? chunk(C, G - *Now) : 0;
    if (Want == 0)
      break;
    Expected<Cluster::Range> R = C.claim(Want);
    if (!R)
      return R.error();
    if (R->empty())
      break;
    for (std::uint64_t Grp = R->Begin; Grp < R->End; ++Grp)
      Owned |= std::uint64_t(1) << Grp;
    Finished =
        W.RunTiles(Training.groupBegin(R->Begin), Training.groupBegin(R->End));
  }
  double Busy = std::chrono::duration<double>(Clock::now() - T0).count();
  std::uint64_t Bad = Finished ? 0 : std::uint64_t(1) << (C.rank() % 64);
  if (Status S = C.orAll(&Bad, 1); !S)
    return S;
  double Idle = std::chrono::duration<double>(Clock::now() - T0).count() - Busy;
  // A rank whose devices all failed says why itself (Finished is false);
  // the others stop with it, and none takes part in another collective.
  if (Bad)
    return Finished ? Status(Error{"iteration " + std::to_string(W.Iteration) +
                                   ": every device of another rank failed "
                                   "(its messages say why); stopping every "
                                   "rank"})
                    : Status::ok();
  Expected<std::uint64_t> Sent = exchange(C, Owned, W);
  if (!Sent)
    return Sent.error();
  Bytes = *Sent;
  if (C.sendsOnly())
    return Status::ok();
  Expected<std::vector<double>> All =
      C.gatherAll({double(W.SamplesDone.load()), Busy, Idle});
  if (!All)
    return All.error();
  for (int R = 0; R < C.size(); ++R)
    RankRow.push_back({R, std::uint64_t((*All)[3 * R]), (*All)[3 * R + 1],
                       (*All)[3 * R + 2]});
  learnRates(RankRow);
  return Status::ok();
}

Expected<std::uint64_t> RankExchange::exchange(Cluster &C, std::uint64_t Owned,
                                               const RankWork &W) {
  IterationBuffers &Buffers = W.Buffers;
  TrainingSums &Training = Buffers.Training;
  const std::uint64_t G = Training.groups();
  std::span<double> Partials = Training.partials();
  std::span<double> Hists = Buffers.Histograms.partials();
  if (!Buffers.Histograms.cells())
    Hists = {};
  // The layout from this rank's own allocation: a packet's words are
  // compared with it, never used to address memory (GroupPacket.h).
  GroupLayout L;
  for (std::uint64_t Grp = 0; Grp <= G; ++Grp)
    L.GroupBegin.push_back(Training.groupBegin(Grp));
  L.TileSize = W.Args.tile_size;
  L.Samples = W.Args.nsamples;
  L.Offsets = W.Offsets;
  L.Stride = W.Stride;
  L.PartialSize = Partials.size() / G;
  L.HistSize = Hists.size() / G;
  const GroupArrays A{Buffers.Results, Buffers.Edges, Buffers.Segs, Partials,
                      Hists};
  if (Status S = checkLayout(L, A); !S)
    return S.error();
  std::vector<std::uint64_t> &Mine = Send, &All = Receive;
  Mine.clear();
  packGroups(L, Owned, A, Mine);
  const std::uint64_t Sent = 8 * Mine.size();
  std::vector<std::size_t> Counts;
  if (Status S = C.gatherWords(Mine, All, Counts); !S)
    return S.error();
  if (C.sendsOnly())
    return Sent;
  std::size_t Total = 0;
  for (std::size_t N : Counts)
    Total += N;
  if (Counts.size() != std::size_t(C.size()) || Total != All.size())
    return Error{"the exchange returned " + std::to_string(All.size()) +
                 " words for " + std::to_string(Counts.size()) + " of " +
                 std::to_string(C.size()) + " ranks"};
  std::uint64_t Seen = Owned;
  Status Accepted = Status::ok();
  std::size_t Offset = 0;
  for (int R = 0; R < C.size() && Accepted; Offset += Counts[R], ++R) {
    if (R == C.rank())
      continue;
    std::span<const std::uint64_t> Packet(All.data() + Offset, Counts[R]);
    Accepted = unpackGroups(L, Packet, A, Seen, C.describeRank(R));
  }
  const std::uint64_t Every =
      G == 64 ? ~std::uint64_t(0) : (std::uint64_t(1) << G) - 1;
  if (Accepted && Seen != Every)
    Accepted =
        Error{"after the exchange, groups of iteration " +
              std::to_string(W.Iteration) + " are missing (mask " +
              std::to_string(Seen) + " of " + std::to_string(G) + " groups)"};
  // A rank checks the others' packets, not its own: the ranks agree before
  // any stops, or those that accepted would wait for it forever.
  std::uint64_t Bad = Accepted ? 0 : 1; // then: whether any rank refused
  if (Status S = C.orAll(&Bad, 1); !S)
    return S.error();
  if (!Accepted) {
    C.setErrorScope(ErrorScope::Rank);
    return Error{Accepted.message()};
  }
  if (Bad)
    return Error{"iteration " + std::to_string(W.Iteration) +
                 ": another rank "
                 "refused a packet of the exchange (its message says why); "
                 "stopping every rank"};
  return Sent;
}

} // namespace vf
