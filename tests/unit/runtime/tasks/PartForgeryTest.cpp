//===- tests/unit/runtime/tasks/PartForgeryTest.cpp - Forged parts merged -===//
//
// A part whose checksum is recomputed over forged contents (as a script, a
// faulty node or a wrong byte string from an engine would make it) is
// refused with an error naming the part, never read past: its words cut
// with a matching count, set to the bits of 1e300, NaN or inf, a tile's
// counts set to 2^63, a word count of 2^63, a NaN busy time, a mask that
// is not its range. Each goes the driver's way: encoded, decoded,
// checkCoverage, then merged by an integrator whose ranks are a
// TaskCluster. The parts unforged merge to one process's result, bitwise.
// MPI ranks (a two-rank Cluster in one process) check each other's
// packets the same way and stop together when one refuses.
//
//===----------------------------------------------------------------------===//

#include "tasks/PartFile.h"
#include "tasks/TaskCluster.h"

#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

using namespace vf;

namespace {

constexpr std::uint64_t Calls = 20000, Hash = 42;

IntegrandInfo product() {
  auto I = nativeIntegrand(
      "product", 2, 1, {0, 0}, {1, 1},
      [](std::span<const double> X, std::size_t N, std::size_t D,
         std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K)
          Out[K] = X[K * D] * X[K * D + 1];
      });
  EXPECT_TRUE(bool(I));
  return *I;
}

Expected<Result> runWith(std::shared_ptr<Cluster> Ranks) {
  IntegratorOptions O;
  O.Threads = 2;
  O.Ranks = std::move(Ranks);
  auto I = Integrator::create(product(), O);
  if (!I)
    return I.error();
  return (*I)->run(1, Calls, 0);
}

/// The part of groups [Begin, End) of the first iteration, or [Begin,
/// Groups) with End 0.
Part computePart(std::uint64_t Begin, std::uint64_t End) {
  auto C = TaskCluster::forPart(
      [=](std::uint64_t G) -> Expected<Cluster::Range> {
        return Cluster::Range{Begin, End ? End : G};
      },
      Hash, 1);
  Expected<Result> R = runWith(C);
  EXPECT_FALSE(bool(R));
  EXPECT_NE(C->part(), nullptr);
  return C->part() ? C->part()->front() : Part{};
}

/// The driver's way: \p Bytes read as 'forged', with a valid second part.
Expected<Result> merge(const std::string &Bytes, const Part &Other) {
  Expected<std::vector<Part>> P = decodePart(Bytes, "forged");
  if (!P)
    return P.error();
  Expected<std::vector<std::vector<Part>>> ByPass =
      partsByPass({*P, {Other}}, Hash, 1);
  if (!ByPass)
    return ByPass.error();
  return runWith(TaskCluster::forMerge(std::move(*ByPass)));
}

std::uint64_t bits(double D) { return std::bit_cast<std::uint64_t>(D); }

/// Rank 0 of 2 MPI ranks, in one process: it claims groups [0, 2); the
/// other rank's packet is \p Other, and after the exchange the other rank
/// says through orAll whether it refused this one's packet.
class TwoRanks : public Cluster {
public:
  TwoRanks(std::vector<std::uint64_t> Other, bool OtherRefuses)
      : Other(std::move(Other)), OtherRefuses(OtherRefuses) {}
  int rank() const override { return 0; }
  int size() const override { return 2; }
  int localRank() const override { return 0; }
  int localSize() const override { return 1; }
  Status startClaims(std::uint64_t Total) override {
    Groups = Total;
    return Status::ok();
  }
  Expected<Range> claim(std::uint64_t) override {
    if (Claimed)
      return Range{};
    Claimed = true;
    return Range{0, 2};
  }
  Expected<std::uint64_t> claimed() override { return Claimed ? Groups : 0; }
  Status orAll(std::uint64_t *Data, std::size_t) override {
    if (Exchanged)
      Data[0] |= OtherRefuses;
    return Status::ok();
  }
  Status gatherWords(const std::vector<std::uint64_t> &Words,
                     std::vector<std::uint64_t> &All,
                     std::vector<std::size_t> &Counts) override {
    All = Words;
    All.insert(All.end(), Other.begin(), Other.end());
    Counts = {Words.size(), Other.size()};
    Exchanged = true;
    return Status::ok();
  }
  Expected<std::vector<double>>
  gatherAll(const std::vector<double> &Values) override {
    std::vector<double> All = Values;
    All.insert(All.end(), Values.begin(), Values.end());
    return All;
  }
  [[noreturn]] void abort(int) override { std::abort(); }

private:
  std::vector<std::uint64_t> Other;
  bool OtherRefuses;
  std::uint64_t Groups = 0;
  bool Claimed = false, Exchanged = false;
};

class PartForgeryTest : public testing::Test {
protected:
  Part First, Second;
  void SetUp() override {
    First = computePart(0, 2);
    Second = computePart(2, 0);
    ASSERT_GT(Second.End, 2u) << "the iteration needs 3 groups or more";
    ASSERT_GT(First.Words.size(), 8u);
  }
  /// Expects \p Forged, encoded with a valid checksum, refused naming it.
  void expectRefused(const Part &Forged, const std::string &Needle) {
    expectRefusedBytes(encodePart({Forged}), Needle);
  }
  void expectRefusedBytes(const std::string &Bytes,
                          const std::string &Needle) {
    Expected<Result> R = merge(Bytes, Second);
    ASSERT_FALSE(bool(R)) << "accepted a forged part (" << Needle << ")";
    EXPECT_NE(R.message().find("part 'forged'"), std::string::npos)
        << R.message();
    EXPECT_NE(R.message().find(Needle), std::string::npos) << R.message();
  }
};

} // namespace

TEST_F(PartForgeryTest, UnforgedPartsMergeToOneProcessBitwise) {
  Expected<Result> Alone = runWith(nullptr);
  Expected<Result> Merged = merge(encodePart({First}), Second);
  ASSERT_TRUE(bool(Alone)) << Alone.message();
  ASSERT_TRUE(bool(Merged)) << Merged.message();
  EXPECT_EQ(bits(Merged->Mean[0]), bits(Alone->Mean[0]));
  EXPECT_EQ(bits(Merged->Error[0]), bits(Alone->Error[0]));
}

TEST_F(PartForgeryTest, WordsCutWithAMatchingCount) {
  Part P = First;
  P.Words.resize(std::min<std::size_t>(1000, P.Words.size() / 2));
  expectRefused(P, "words, its groups need");
  P = First;
  P.Words.push_back(0);
  expectRefused(P, "words, its groups need");
}

TEST_F(PartForgeryTest, WordsSetToTheBitsOfHugeAndNonFiniteDoubles) {
  for (double V : {1e300, double(INFINITY), double(NAN), -1.0}) {
    Part P = First;
    std::fill(P.Words.begin() + 1, P.Words.end(), bits(V));
    expectRefused(P, "are not those of its samples");
  }
}

TEST_F(PartForgeryTest, CountsOfTwoToThe63) {
  const std::uint64_t Huge = std::uint64_t(1) << 63;
  Part P = First;
  P.Words[3] = Huge; // tile 0's non-finite count
  expectRefused(P, "non-finite samples");
  P = First;
  P.Words[6] = Huge; // tile 0's largest sample
  expectRefused(P, "its largest sample");
  // The header's word count, checksum recomputed: refused before a read.
  std::string B = encodePart({First});
  const std::size_t CountAt = 8 + 4 + 6 * 8;
  for (int K = 0; K < 8; ++K)
    B[CountAt + K] = char((Huge >> (8 * K)) & 0xff);
  const std::uint64_t Sum =
      fnv1a64(std::string_view(B).substr(0, B.size() - 8));
  for (int K = 0; K < 8; ++K)
    B[B.size() - 8 + K] = char((Sum >> (8 * K)) & 0xff);
  expectRefusedBytes(B, "does not match its contents");
}

TEST_F(PartForgeryTest, BusyTimeThatIsNoDuration) {
  for (double V : {double(NAN), double(INFINITY), -1.0}) {
    Part P = First;
    P.BusySeconds = V;
    expectRefused(P, "busy time");
  }
}

TEST_F(PartForgeryTest, MaskThatIsNotItsRange) {
  Part P = First;
  P.Words[0] = 0b111;
  expectRefused(P, "does not hold its group range");
  P.Words[0] = 0;
  expectRefused(P, "does not hold its group range");
}

TEST_F(PartForgeryTest, RanksCheckEachOthersPacketsAndAgree) {
  // The other rank's packet is the part of groups [2, G): one process's
  // result, bitwise.
  Expected<Result> Alone = runWith(nullptr);
  Expected<Result> Ranks =
      runWith(std::make_shared<TwoRanks>(Second.Words, false));
  ASSERT_TRUE(bool(Alone) && bool(Ranks)) << Ranks.message();
  EXPECT_EQ(bits(Ranks->Mean[0]), bits(Alone->Mean[0]));
  // Its packet cut: this rank says why, as its own error.
  std::vector<std::uint64_t> Cut(Second.Words.begin(),
                                 Second.Words.end() - 1);
  auto Refusing = std::make_shared<TwoRanks>(Cut, false);
  Ranks = runWith(Refusing);
  ASSERT_FALSE(bool(Ranks));
  EXPECT_NE(Ranks.message().find("rank 1's packet: holds"), std::string::npos)
      << Ranks.message();
  EXPECT_EQ(Refusing->errorScope(), ErrorScope::Rank);
  // The other rank refused this one's: this one stops too, not waiting,
  // with the error every rank returns.
  auto Refused = std::make_shared<TwoRanks>(Second.Words, true);
  Ranks = runWith(Refused);
  ASSERT_FALSE(bool(Ranks));
  EXPECT_NE(Ranks.message().find("another rank refused"), std::string::npos)
      << Ranks.message();
  EXPECT_EQ(Refused->errorScope(), ErrorScope::Shared);
}
