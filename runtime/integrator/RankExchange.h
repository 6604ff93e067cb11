//===- runtime/integrator/RankExchange.h - Work over ranks ------*- C++ -*-===//
//
// With several ranks (vf/Cluster.h), each iteration's tiles are claimed in
// TrainingSums' groups, so each rank's training partials are whole; after
// running its claims, a rank sends the others what only it computed
// (GroupPacket.h), and every rank continues with the single-process
// state, bit for bit. RankExchange owns what that needs across
// iterations: the ranks' measured rates (which size the claims), their
// totals and the bytes sent, and the packets' buffers.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_RANKEXCHANGE_H
#define VF_RUNTIME_INTEGRATOR_RANKEXCHANGE_H

#include "vf/Cluster.h"
#include "vf/Expected.h"
#include "vf/Result.h"

#include "integrator/IterationBuffers.h"

#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

namespace vf {

/// One iteration's part of the exchange: its arrays and where they lie.
struct RankWork {
  IterationBuffers &Buffers;
  /// The allocation: hypercube h holds samples [Offsets[h], Offsets[h+1]).
  std::span<const std::uint64_t> Offsets;
  const vf_sampler_args &Args;
  unsigned Stride;    ///< doubles per segment
  unsigned Iteration; ///< the Philox iteration word (messages)
  /// Runs tiles [begin, end) on this process's devices; false when every
  /// device failed.
  std::function<bool(std::uint64_t, std::uint64_t)> RunTiles;
  const std::atomic<std::uint64_t> &SamplesDone; ///< by this rank's devices
};

class RankExchange {
public:
  /// This rank's part of the iteration's tiles, claimed group by group
  /// and run, then the exchange; \p Finished turns false when this rank's
  /// devices all failed, and \p RankRow gets every rank's share.
  Status run(Cluster &C, const RankWork &W, bool &Finished,
             std::vector<RankStats> &RankRow);

  /// Per rank, over the run.
  const std::vector<RankStats> &totals() const { return Totals; }
  /// What this rank sent in the last exchange.
  std::uint64_t bytes() const { return Bytes; }
  /// Forgets the totals and bytes (the statistics start afresh); the
  /// rates stay, as the map does.
  void clearTotals() {
    Totals.clear();
    Bytes = 0;
  }

private:
  /// The groups this rank claims next of the \p Left unclaimed.
  std::uint64_t chunk(const Cluster &C, std::uint64_t Left) const;
  /// Gives every rank what the others computed for their groups (tile
  /// results, edge segments, the segments of hypercubes inside the groups,
  /// training partials), each sent once by its owner; returns the bytes
  /// this rank sent (a Cluster::sendsOnly rank receives nothing). Every
  /// received packet is checked whole before use
  /// (GroupPacket.h): a bad one is an error naming it
  /// (Cluster::describeRank).
  Expected<std::uint64_t> exchange(Cluster &C, std::uint64_t Owned,
                                   const RankWork &W);
  void learnRates(const std::vector<RankStats> &Row);

  /// Ranks' samples/s in the last iteration (empty: none measured).
  std::vector<double> Rates;
  std::vector<RankStats> Totals;
  std::uint64_t Bytes = 0;
  std::vector<std::uint64_t> Send, Receive; ///< the packets' words
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_RANKEXCHANGE_H
