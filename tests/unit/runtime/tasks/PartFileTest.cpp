//===- tests/unit/runtime/tasks/PartFileTest.cpp - Parts of an iteration --===//
//
// The part format round-trips and refuses damage; checkCoverage accepts
// any order and identical duplicates, and names the ranges of gaps,
// overlaps, differing duplicates and parts of another state.
//
//===----------------------------------------------------------------------===//

#include "tasks/PartFile.h"

#include <gtest/gtest.h>

using namespace vf;

namespace {
Part part(std::uint64_t Begin, std::uint64_t End, std::uint64_t Groups = 8,
          std::uint64_t Hash = 42) {
  Part P;
  P.StateHash = Hash;
  P.Groups = Groups;
  P.Begin = Begin;
  P.End = End;
  std::uint64_t Mask = 0;
  for (std::uint64_t G = Begin; G < End; ++G)
    Mask |= std::uint64_t(1) << G;
  P.Words = {Mask, Begin * 1000 + End};
  P.Origin = std::to_string(Begin) + ":" + std::to_string(End);
  return P;
}

std::string coverageError(std::vector<Part> Parts) {
  Status S = checkCoverage(Parts, 42);
  return S ? "" : S.message();
}
} // namespace

TEST(PartFileTest, RoundTripsAndRefusesDamage) {
  Part P = part(2, 5);
  P.BusySeconds = 0.25;
  std::string B = encodePart(P);
  Expected<Part> Q = decodePart(B, "p");
  ASSERT_TRUE(Q) << Q.message();
  EXPECT_EQ(Q->Words, P.Words);
  EXPECT_EQ(Q->Begin, 2u);
  EXPECT_EQ(Q->End, 5u);
  EXPECT_EQ(Q->BusySeconds, 0.25);
  EXPECT_NE(decodePart(B.substr(0, B.size() - 1), "p").message().find(
                "truncated"),
            std::string::npos);
  std::string Flipped = B;
  Flipped[B.size() - 12] ^= 1;
  EXPECT_NE(decodePart(Flipped, "p").message().find("checksum"),
            std::string::npos);
  EXPECT_NE(decodePart("hello", "p").message().find("not a vegasflow part"),
            std::string::npos);
}

TEST(PartFileTest, AnyOrderAndIdenticalDuplicates) {
  std::vector<Part> Parts = {part(5, 8), part(0, 2), part(2, 5), part(0, 2),
                             part(4, 4)};
  ASSERT_TRUE(checkCoverage(Parts, 42));
  ASSERT_EQ(Parts.size(), 4u); // the empty range is kept, harmless
  EXPECT_EQ(Parts[0].Begin, 0u);
  EXPECT_EQ(Parts.back().End, 8u);
}

TEST(PartFileTest, NamesGapsOverlapsAndStrangers) {
  EXPECT_NE(coverageError({part(0, 2), part(3, 8)}).find("groups 2:3 are "
                                                         "missing"),
            std::string::npos);
  EXPECT_NE(coverageError({part(0, 2), part(2, 6)}).find("groups 6:8 are "
                                                         "missing"),
            std::string::npos);
  EXPECT_NE(coverageError({part(0, 3), part(2, 8)}).find("parts overlap: "
                                                         "groups 2:8"),
            std::string::npos);
  Part Other = part(0, 4);
  Other.Words[1] ^= 1;
  EXPECT_NE(coverageError({part(0, 4), Other, part(4, 8)})
                .find("two parts of the same range differ"),
            std::string::npos);
  EXPECT_NE(coverageError({part(0, 4), part(4, 8, 8, 7)})
                .find("belongs to another state"),
            std::string::npos);
  EXPECT_NE(coverageError({part(0, 4), part(4, 9, 9)}).find("disagree"),
            std::string::npos);
  EXPECT_NE(coverageError({}).find("no parts"), std::string::npos);
}

TEST(PartFileTest, StateHashCoversThePlan) {
  EXPECT_NE(stateHash("s", 1000, 3, 1), stateHash("s", 1000, 3, 2));
  EXPECT_NE(stateHash("s", 1000, 3, 1), stateHash("t", 1000, 3, 1));
  EXPECT_EQ(stateHash("s", 1000, 3, 1), stateHash("s", 1000, 3, 1));
}
