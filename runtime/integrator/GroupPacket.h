//===- integrator/GroupPacket.h - What ranks exchange, checked --*- C++ -*-===//
//
// The packet a rank (or a task engine's part) sends of the TrainingSums
// groups it computed: word 0 the group mask, then per group, in group
// order, its tiles' results and edge segments, the segments of the
// hypercubes strictly inside its tiles, its training partial and its
// histograms' partial.
//
// A received packet is never trusted: a part comes from a shared file
// system or an engine's bytes, and its checksum proves only that nothing
// was damaged on the way, not that a script or a faulty node wrote sense.
// unpackGroups therefore checks the whole packet against what the
// receiver knows of the iteration (GroupLayout: its own tiles, allocation
// and array sizes) before it copies a word:
//   - the mask names groups of this iteration that no other packet holds;
//   - the packet's length is exactly what those groups need, computed
//     from the receiver's own allocation (never from the packet);
//   - each tile's first and last hypercube are those of its first and
//     last sample, its non-finite count, first bad sample and largest
//     sample lie within its samples;
//   - each segment's sample count is a whole number from 0 to the samples
//     its hypercube has in the tiles that wrote it (but for the slots of
//     hypercubes the reduction rebuilds from edges: stale, never read);
//   - in a group without non-finite samples, the training partials (sums
//     of squares and of positive weights) are >= 0, never NaN.
// Values an integrand can produce (sums that overflowed, NaN samples) are
// left to the iteration's own checks, which name the hypercube or sample
// exactly as for one process: a merged run fails as one process would.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_GROUPPACKET_H
#define VF_RUNTIME_INTEGRATOR_GROUPPACKET_H

#include "SamplerABI.h"

#include "vf/Expected.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vf {

/// What the receiver knows of an iteration's groups, from its own state.
struct GroupLayout {
  /// Groups + 1 tile indices: group g is tiles [GroupBegin[g],
  /// GroupBegin[g + 1]).
  std::vector<std::uint64_t> GroupBegin;
  /// Tile t holds samples [t TileSize, min((t + 1) TileSize, Samples)).
  std::uint64_t TileSize = 0, Samples = 0;
  /// Hypercube h holds samples [Offsets[h], Offsets[h + 1]).
  std::span<const std::uint64_t> Offsets;
  unsigned Stride = 0;                       ///< doubles per segment
  std::size_t PartialSize = 0, HistSize = 0; ///< doubles per group

  std::uint64_t groups() const {
    return GroupBegin.empty() ? 0 : GroupBegin.size() - 1;
  }
};

/// The iteration's arrays a packet is read from or written to.
struct GroupArrays {
  std::span<vf_tile_result> Results; ///< per tile
  std::span<double> Edges;           ///< 2 Stride per tile
  std::span<double> Segs;            ///< Stride per hypercube
  std::span<double> Partials;        ///< PartialSize per group
  std::span<double> Hists;           ///< HistSize per group (or empty)
};

/// Whether \p L is self-consistent (its tiles cover its samples, its
/// allocation holds them, \p A is large enough): a receiver's own state,
/// so a failure is a bug, reported rather than read past.
Status checkLayout(const GroupLayout &L, const GroupArrays &A);

/// Appends \p Mask and the groups it names, as unpackGroups reads them.
void packGroups(const GroupLayout &L, std::uint64_t Mask, const GroupArrays &A,
                std::vector<std::uint64_t> &Out);

/// Checks \p Packet whole (the header's list), then copies its groups into
/// \p A. \p Seen holds the groups received so far (this rank's own and
/// earlier packets') and gains the packet's. Errors begin with \p From
/// ("part 'p3'", "rank 2's packet").
Status unpackGroups(const GroupLayout &L, std::span<const std::uint64_t> Packet,
                    const GroupArrays &A, std::uint64_t &Seen,
                    const std::string &From);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_GROUPPACKET_H
