//===- tests/fuzz/FuzzParts.cpp - libFuzzer entry for task parts ----------===//
//
// Feeds arbitrary bytes to what `vegasc --task-merge` does with a part:
// decodePart, checkCoverage among parts of the other groups, and the
// checked unpacking into an iteration's arrays (integrator/GroupPacket.h),
// then reads the arrays the way the iteration's reduction does, trapping
// on any value it would index with out of range: a packet the checks let
// through and the reduction would read past is a finding, as is any
// out-of-bounds read in the checks themselves (ASan).
//
// Each input is tried as given, then with its word count and checksum
// made consistent, as a forger would recompute them: a random mutation
// almost never keeps either, and without this the fuzzer would only ever
// exercise the header checks.
//
// With VF_FUZZ_PARTS_SEEDS=DIR, writes valid parts of the fuzzer's
// iteration to DIR (tests/fuzz/corpus-parts was made so) and exits.
//
//===----------------------------------------------------------------------===//

#include "SmallIteration.h"
#include "integrator/GroupPacket.h"
#include "tasks/PartFile.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <iterator>
#include <string>
#include <utility>
#include <vector>

namespace {

using namespace vf;

constexpr std::uint64_t StateHash = 7, Groups = test::SmallGroups;
constexpr unsigned Stride = test::SmallStride;
constexpr const auto &SamplesPerHcube = test::SmallSamplesPerHcube;
constexpr std::size_t Nhcube = SamplesPerHcube.size();
using Iteration = test::SmallIteration;

std::uint64_t rangeMask(std::uint64_t Begin, std::uint64_t End) {
  std::uint64_t M = 0;
  for (std::uint64_t G = Begin; G < End; ++G)
    M |= std::uint64_t(1) << G;
  return M;
}

/// Traps unless \p Ok: a value the reduction would index with.
void require(bool Ok) {
  if (!Ok)
    __builtin_trap();
}

/// What Iteration's estimate() and largestWeight() do with the received
/// tiles \p Tb to \p Te: every index they derive, used.
double consume(Iteration &It, std::uint64_t Tb, std::uint64_t Te) {
  // The tiles' end hypercubes start from zero, as in estimate() (their
  // slots may hold an earlier iteration's sums), then come from edges.
  for (std::uint64_t T = Tb; T < Te; ++T) {
    const vf_tile_result &R = It.Results[T];
    require(R.first_hcube <= R.last_hcube && R.last_hcube < Nhcube);
    for (std::uint64_t H : {R.first_hcube, R.last_hcube})
      std::fill_n(It.Segs.begin() + H * Stride, Stride, 0.0);
  }
  double Sum = 0;
  for (std::uint64_t T = Tb; T < Te; ++T) {
    const vf_tile_result &R = It.Results[T];
    require(R.max_index < It.L.Samples && R.nonfinite <= It.L.TileSize);
    require(!R.nonfinite || R.first_bad < It.L.Samples);
    const std::uint64_t H = It.hcubeOf(R.max_index);
    require(H >= R.first_hcube && H <= R.last_hcube);
    Sum += It.Segs[H * Stride + Stride - 1] + It.Edges[T * 2 * Stride];
  }
  for (std::size_t H = 0; H < Nhcube; ++H)
    require(!(It.Segs[H * Stride] > double(SamplesPerHcube[H])));
  return Sum;
}

/// A valid part of groups [Begin, End): what a part task would write.
std::string seedPart(std::uint64_t Begin, std::uint64_t End) {
  Iteration It;
  for (std::uint64_t T = 0; T < It.Results.size(); ++T) {
    const std::uint64_t B = T * It.L.TileSize,
                        E = std::min(B + It.L.TileSize, It.L.Samples);
    It.Results[T] = {It.hcubeOf(B), It.hcubeOf(E - 1), T % 2, B, 0.5, E - 1};
    It.Edges[T * 2 * Stride] = 1;
  }
  for (std::size_t H = 0; H < Nhcube; ++H)
    It.Segs[H * Stride] = double(SamplesPerHcube[H]);
  std::fill(It.Partials.begin(), It.Partials.end(), 0.25);
  Part P;
  P.StateHash = StateHash;
  P.Groups = Groups;
  P.Begin = Begin;
  P.End = End;
  P.BusySeconds = 0.5;
  packGroups(It.L, rangeMask(Begin, End), It.arrays(), P.Words);
  return encodePart({P});
}

/// \p B as a part of one pass, with its pass count, word count and
/// checksum recomputed, where it is long enough to have them.
std::string consistent(std::string B) {
  constexpr std::size_t Header = 8 + 4 + 7 * 8, CountAt = Header - 8,
                        PassesAt = 8 + 4 + 8;
  auto Put = [&](std::size_t At, std::uint64_t V) {
    for (int K = 0; K < 8; ++K)
      B[At + K] = char((V >> (8 * K)) & 0xff);
  };
  if (B.size() >= Header + 8 && (B.size() - Header - 8) % 8 == 0) {
    Put(PassesAt, 1);
    Put(CountAt, (B.size() - Header - 8) / 8);
  }
  if (B.size() >= 8)
    Put(B.size() - 8, fnv1a64(std::string_view(B).substr(0, B.size() - 8)));
  return B;
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***) {
  const char *Dir = std::getenv("VF_FUZZ_PARTS_SEEDS");
  if (!Dir)
    return 0;
  for (auto [B, E] : {std::pair{0, 1}, {1, 3}, {0, 3}, {2, 3}}) {
    std::string Name = std::string(Dir) + "/part-" + std::to_string(B) + "-" +
                       std::to_string(E) + ".vfpart";
    std::string Bytes = seedPart(B, E);
    FILE *F = std::fopen(Name.c_str(), "wb");
    if (!F || std::fwrite(Bytes.data(), 1, Bytes.size(), F) != Bytes.size() ||
        std::fclose(F) != 0)
      std::exit(1);
  }
  std::exit(0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string Raw(reinterpret_cast<const char *>(Data), Size);
  (void)decodePart(Raw, "raw");
  Expected<std::vector<Part>> Passes = decodePart(consistent(Raw), "fuzz");
  if (!Passes || Passes->size() != 1 || Passes->front().Groups != Groups)
    return 0;
  const Part *P = &Passes->front();
  // The other groups as the other parts' headers: coverage is checked
  // as the merge checks it.
  std::vector<Part> Parts = {*P};
  for (auto [B, E] : {std::pair{std::uint64_t(0), P->Begin},
                      std::pair{P->End, Groups}})
    if (B < E)
      Parts.push_back(Part{StateHash, Groups, B, E, 0, {rangeMask(B, E)},
                           "other"});
  if (!checkCoverage(Parts, P->StateHash))
    return 0;
  Iteration It;
  std::uint64_t Seen = rangeMask(0, Groups) & ~rangeMask(P->Begin, P->End);
  if (!unpackGroups(It.L, P->Words, It.arrays(), Seen, "part 'fuzz'"))
    return 0;
  require(Seen == rangeMask(0, Groups));
  volatile double Use = consume(It, It.L.GroupBegin[P->Begin],
                                It.L.GroupBegin[P->End]);
  (void)Use;
  return 0;
}
