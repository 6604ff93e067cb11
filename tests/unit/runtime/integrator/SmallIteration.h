//===- integrator/SmallIteration.h - A hand-sized iteration -----*- C++ -*-===//
//
// An iteration small enough to forge packets for by hand, shared by
// GroupPacketTest and the part fuzzer (tests/fuzz/FuzzParts.cpp, whose
// seed corpus was written from it): 10 hypercubes of uneven sizes, tiles
// of 8 samples (the last short), 3 groups, one output, and the arrays a
// run fills, zeroed.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_RUNTIME_INTEGRATOR_SMALLITERATION_H
#define VF_TESTS_UNIT_RUNTIME_INTEGRATOR_SMALLITERATION_H

#include "integrator/GroupPacket.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

namespace vf::test {

constexpr std::uint64_t SmallGroups = 3;
constexpr unsigned SmallStride = 3; // one output: n, K, S, C
// constexpr: no dynamic initialisation for other statics to race with.
inline constexpr std::array<std::uint64_t, 10> SmallSamplesPerHcube = {
    3, 7, 1, 12, 5, 5, 9, 2, 8, 4};

struct SmallIteration {
  std::vector<std::uint64_t> Offsets{0};
  GroupLayout L;
  std::vector<vf_tile_result> Results;
  std::vector<double> Edges, Segs, Partials, Hists;

  SmallIteration() {
    for (std::uint64_t N : SmallSamplesPerHcube)
      Offsets.push_back(Offsets.back() + N);
    L.TileSize = 8;
    L.Samples = Offsets.back() - 1; // not a multiple of the tile size
    L.Offsets = Offsets;
    L.Stride = SmallStride;
    L.PartialSize = 4;
    L.HistSize = 2;
    const std::uint64_t Ntiles = (L.Samples + L.TileSize - 1) / L.TileSize;
    L.GroupBegin = {0, 2, 4, Ntiles};
    Results.resize(Ntiles);
    Edges.assign(Ntiles * 2 * SmallStride, 0.0);
    Segs.assign(SmallSamplesPerHcube.size() * SmallStride, 0.0);
    Partials.assign(SmallGroups * L.PartialSize, 0.0);
    Hists.assign(SmallGroups * L.HistSize, 0.0);
  }
  GroupArrays arrays() { return {Results, Edges, Segs, Partials, Hists}; }
  /// The hypercube of sample \p S.
  std::uint64_t hcubeOf(std::uint64_t S) const {
    return std::uint64_t(std::upper_bound(Offsets.begin(), Offsets.end(), S) -
                         Offsets.begin()) -
           1;
  }
};

} // namespace vf::test

#endif // VF_TESTS_UNIT_RUNTIME_INTEGRATOR_SMALLITERATION_H
