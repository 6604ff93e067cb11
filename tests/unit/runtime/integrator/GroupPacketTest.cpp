//===- tests/unit/runtime/integrator/GroupPacketTest.cpp - Packets --------===//
//
// unpackGroups on a small iteration laid out by hand (hypercubes of uneven
// sizes, tiles that cut through them, a short last tile): a packet packed
// from valid arrays round-trips bit for bit; each field a forger can set
// (the mask, the length, a tile's hypercubes, counts and indices, a
// segment's sample count, a training sum) is broken once, and each is
// refused with an error naming the packet, leaving the arrays untouched.
//
//===----------------------------------------------------------------------===//

#include "integrator/GroupPacket.h"
#include "SmallIteration.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>

using namespace vf;

namespace {

constexpr std::size_t ResultWords = sizeof(vf_tile_result) / 8;
constexpr unsigned Stride = test::SmallStride;
constexpr const auto &SamplesPerHcube = test::SmallSamplesPerHcube;

struct Iteration : test::SmallIteration {
  /// What a valid run writes: counts that fit, finite sums.
  void fill() {
    for (std::uint64_t T = 0; T < Results.size(); ++T) {
      const std::uint64_t B = T * L.TileSize,
                          E = std::min(B + L.TileSize, L.Samples);
      Results[T] = {hcubeOf(B), hcubeOf(E - 1), 0, 0, 1.5 + double(T), B + 1};
      Edges[T * 2 * Stride] = 1;
      Edges[T * 2 * Stride + 1] = 0.25 * double(T);
    }
    for (std::size_t H = 0; H < SamplesPerHcube.size(); ++H) {
      Segs[H * Stride] = double(SamplesPerHcube[H]);
      Segs[H * Stride + 2] = -0.5 * double(H);
    }
    for (std::size_t K = 0; K < Partials.size(); ++K)
      Partials[K] = 0.125 * double(K);
    for (std::size_t K = 0; K < Hists.size(); ++K)
      Hists[K] = -double(K);
  }
};

/// The tests forge group 0, which starts right after the mask.
constexpr std::size_t Group0 = 1;

/// Word of tile 0's edge segment count, of group 0's first inner
/// hypercube's count (hypercube 1, which tiles 0 and 1 cut: the reduction
/// rebuilds it from their edges) and of its training partial.
std::size_t edgeWord(const Iteration &It) {
  return Group0 + (It.L.GroupBegin[1] - It.L.GroupBegin[0]) * ResultWords;
}
std::size_t innerWord(const Iteration &It) {
  return edgeWord(It) + (It.L.GroupBegin[1] - It.L.GroupBegin[0]) * 2 * Stride;
}
std::size_t partialWord(const Iteration &It) {
  const std::uint64_t First = It.hcubeOf(0),
                      Last = It.hcubeOf(It.L.GroupBegin[1] * It.L.TileSize - 1);
  return innerWord(It) + (Last - First - 1) * Stride;
}

std::uint64_t bits(double D) { return std::bit_cast<std::uint64_t>(D); }

class GroupPacketTest : public testing::Test {
protected:
  Iteration Sender, Receiver;
  std::vector<std::uint64_t> Packet;
  void SetUp() override {
    Sender.fill();
    ASSERT_TRUE(checkLayout(Sender.L, Sender.arrays()));
    packGroups(Sender.L, 0b101, Sender.arrays(), Packet); // groups 0 and 2
  }
  /// The error of unpacking \p P into the receiver (empty: accepted).
  std::string refusal(const std::vector<std::uint64_t> &P,
                      std::uint64_t Seen = 0b010) {
    Status S = unpackGroups(Receiver.L, P, Receiver.arrays(), Seen, "part 'x'");
    return S ? "" : S.message();
  }
  /// Expects \p P refused with \p Needle, naming the part, and the
  /// receiver's arrays untouched.
  void expectRefused(const std::vector<std::uint64_t> &P,
                     const std::string &Needle) {
    const std::string Why = refusal(P);
    EXPECT_EQ(Why.rfind("part 'x': ", 0), 0u) << Why;
    EXPECT_NE(Why.find(Needle), std::string::npos) << Why;
    Iteration Fresh;
    EXPECT_EQ(Receiver.Segs, Fresh.Segs);
    EXPECT_EQ(Receiver.Edges, Fresh.Edges);
    EXPECT_EQ(Receiver.Partials, Fresh.Partials);
    for (const vf_tile_result &R : Receiver.Results)
      EXPECT_EQ(R.first_hcube + R.last_hcube + R.max_index, 0u);
  }
};

} // namespace

TEST_F(GroupPacketTest, ValidPacketRoundTripsBitwise) {
  std::uint64_t Seen = 0b010;
  ASSERT_TRUE(unpackGroups(Receiver.L, Packet, Receiver.arrays(), Seen, "p"));
  EXPECT_EQ(Seen, 0b111u);
  for (std::uint64_t T : {0, 1, 4, 5, 6}) // tiles of groups 0 and 2
    EXPECT_EQ(std::memcmp(&Receiver.Results[T], &Sender.Results[T],
                          sizeof(vf_tile_result)),
              0);
  EXPECT_EQ(Receiver.Results[2].max_index, 0u); // group 1 not sent
  EXPECT_EQ(Receiver.Partials[0 * 4 + 1], Sender.Partials[1]);
  EXPECT_EQ(Receiver.Partials[1 * 4 + 1], 0.0);
  EXPECT_EQ(Receiver.Hists[2 * 2 + 1], Sender.Hists[5]);
  // Hypercubes strictly inside group 0's tiles (samples 0..15): 1 and 2.
  EXPECT_EQ(Receiver.Segs[1 * Stride], Sender.Segs[1 * Stride]);
  EXPECT_EQ(Receiver.Segs[2 * Stride + 2], Sender.Segs[2 * Stride + 2]);
  EXPECT_EQ(Receiver.Segs[3 * Stride], 0.0); // an end: built from edges
}

TEST_F(GroupPacketTest, RefusesLengthsThatDoNotFitTheGroups) {
  expectRefused({}, "empty");
  std::vector<std::uint64_t> Cut(Packet.begin(), Packet.end() - 1);
  expectRefused(Cut, "words, its groups need");
  std::vector<std::uint64_t> Padded = Packet;
  Padded.push_back(0);
  expectRefused(Padded, "words, its groups need");
  std::vector<std::uint64_t> Half(Packet.begin(),
                                  Packet.begin() + Packet.size() / 2);
  expectRefused(Half, "words, its groups need");
}

TEST_F(GroupPacketTest, RefusesMasksBeyondOrAlreadySeen) {
  std::vector<std::uint64_t> P = Packet;
  P[0] = std::uint64_t(1) << 63;
  expectRefused(P, "beyond the iteration's 3");
  EXPECT_NE(refusal(Packet, 0b001).find("another part or rank"),
            std::string::npos);
}

TEST_F(GroupPacketTest, RefusesTileFieldsOutsideTheTile) {
  const std::size_t First = Group0, Last = Group0 + 1, NonFinite = Group0 + 2,
                    FirstBad = Group0 + 3, MaxIndex = Group0 + 5;
  const std::uint64_t Huge = std::uint64_t(1) << 63;
  for (std::uint64_t V : {Huge, bits(1e300), bits(NAN), std::uint64_t(5)}) {
    std::vector<std::uint64_t> P = Packet;
    P[First] = V;
    expectRefused(P, "are not those of its samples");
  }
  std::vector<std::uint64_t> P = Packet;
  P[Last] += 1;
  expectRefused(P, "are not those of its samples");
  P = Packet;
  P[NonFinite] = Huge;
  expectRefused(P, "non-finite samples of its 8");
  P = Packet;
  P[NonFinite] = 1;
  P[FirstBad] = 8; // tile 0 holds samples 0..7
  expectRefused(P, "first non-finite sample 8");
  P = Packet;
  P[MaxIndex] = bits(1e300);
  expectRefused(P, "its largest sample");
}

TEST_F(GroupPacketTest, RefusesSegmentCountsThatCannotBe) {
  // Tile 0 holds 3 samples of hypercube 0; hypercube 2, inside tile 1, 1.
  for (double N : {-1.0, 0.5, 4.0, 1e300, double(NAN), double(INFINITY)}) {
    std::vector<std::uint64_t> P = Packet;
    P[edgeWord(Sender)] = bits(N);
    expectRefused(P, "edge segment: a segment counts");
  }
  for (double N : {-1.0, 0.5, 2.0, 1e300, double(NAN), double(INFINITY)}) {
    std::vector<std::uint64_t> P = Packet;
    P[innerWord(Sender) + Stride] = bits(N);
    expectRefused(P, "hypercube 2: a segment counts");
  }
}

TEST_F(GroupPacketTest, SlotsRebuiltFromEdgesAreNotJudged) {
  // Hypercube 1 is tile 0's last and tile 1's first: the sender's slot
  // holds an earlier iteration's sums (MPI ranks keep their arrays), which
  // estimate() zeroes before use. A packet carrying them is valid.
  std::vector<std::uint64_t> P = Packet;
  P[innerWord(Sender)] = bits(9.0); // more than this iteration's 7
  EXPECT_EQ(refusal(P), "");
}

TEST_F(GroupPacketTest, TrainingSumsAreNonNegativeWithoutNonFiniteSamples) {
  std::vector<std::uint64_t> P = Packet;
  P[partialWord(Sender)] = bits(NAN);
  expectRefused(P, "map-training sum 0 is negative or NaN");
  P[partialWord(Sender)] = bits(-1.0);
  expectRefused(P, "map-training sum 0 is negative or NaN");
  // Overflow is an integrand's, left to the iteration's checks.
  P[partialWord(Sender)] = bits(INFINITY);
  EXPECT_EQ(refusal(P), "");
}

TEST_F(GroupPacketTest, NonFiniteSamplesLeaveTheirSumsToTheIteration) {
  // A group with NaN samples may carry NaN sums: the iteration names the
  // sample (one process would), the packet is not blamed.
  std::vector<std::uint64_t> P = Packet;
  P[Group0 + 2] = 2; // nonfinite
  P[Group0 + 3] = 3; // first_bad
  P[partialWord(Sender)] = bits(NAN);
  EXPECT_EQ(refusal(P), "");
}

TEST_F(GroupPacketTest, RefusesALayoutThatDisagreesWithItself) {
  Iteration It;
  It.L.Samples = It.Offsets.back() + 1; // more samples than the allocation
  EXPECT_FALSE(checkLayout(It.L, It.arrays()));
  Iteration Short;
  Short.Results.pop_back();
  EXPECT_FALSE(checkLayout(Short.L, Short.arrays()));
}
