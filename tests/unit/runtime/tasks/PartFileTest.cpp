//===- tests/unit/runtime/tasks/PartFileTest.cpp - Parts of an iteration --===//
//
// The part format round-trips (every pass) and refuses damage and the old
// version; partsByPass checks each pass; checkCoverage accepts
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
  std::string B = encodePart({P});
  Expected<std::vector<Part>> Q = decodePart(B, "p");
  ASSERT_TRUE(Q) << Q.message();
  ASSERT_EQ(Q->size(), 1u);
  EXPECT_EQ(Q->front().Words, P.Words);
  EXPECT_EQ(Q->front().Begin, 2u);
  EXPECT_EQ(Q->front().End, 5u);
  EXPECT_EQ(Q->front().BusySeconds, 0.25);
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

TEST(PartFileTest, HoldsEveryPassAndNamesTheOldVersion) {
  std::string B = encodePart({part(0, 3), part(1, 2, 4), part(5, 8)});
  Expected<std::vector<Part>> Q = decodePart(B, "p");
  ASSERT_TRUE(Q) << Q.message();
  ASSERT_EQ(Q->size(), 3u);
  EXPECT_EQ((*Q)[1].Groups, 4u);
  EXPECT_EQ((*Q)[1].Words, part(1, 2, 4).Words);
  EXPECT_EQ((*Q)[2].End, 8u);
  EXPECT_EQ((*Q)[2].StateHash, 42u);
  // The mask of pass 1 not its range: the pass is named.
  Part Bad = part(1, 2, 4);
  Bad.Words[0] = 1;
  EXPECT_NE(decodePart(encodePart({part(0, 3), Bad}), "p")
                .message()
                .find("pass 1: its packet does not hold"),
            std::string::npos);
  std::string Old = encodePart({part(0, 3)});
  Old[8] = 1;
  EXPECT_NE(decodePart(Old, "p").message().find(
                "version 1, this vegasc reads 2 (written by an older"),
            std::string::npos);
}

TEST(PartFileTest, PartsByPassCheckEachPassAndTheirCount) {
  Expected<std::vector<std::vector<Part>>> ByPass = partsByPass(
      {{part(4, 8), part(2, 4, 4)}, {part(0, 4), part(0, 2, 4)}}, 42, 2);
  ASSERT_TRUE(ByPass) << ByPass.message();
  EXPECT_EQ((*ByPass)[1][0].End, 2u);
  EXPECT_EQ((*ByPass)[1][1].Begin, 2u);
  auto Error = [](std::vector<std::vector<Part>> Files, std::size_t Passes) {
    auto R = partsByPass(std::move(Files), 42, Passes);
    return R ? "" : R.message();
  };
  EXPECT_NE(Error({{part(0, 8)}}, 2)
                .find("holds 1 passes, an iteration of this integrand "
                      "has 2"),
            std::string::npos);
  EXPECT_NE(Error({{part(0, 4), part(0, 2, 4)}, {part(4, 8), part(3, 4, 4)}}, 2)
                .find("pass 1: groups 2:3 are missing"),
            std::string::npos);
  EXPECT_NE(Error({{part(0, 8, 8, 7)}}, 2).find("belongs to another state"),
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
