//===- tests/unit/runtime/reduction/TrainingSumsTest.cpp - Training sums --===//
//
// The total must not depend on the order tiles are submitted in, and must
// be the group-wise sum defined in TrainingSums.h: tiles folded from zero
// within a group, groups folded in order. Values are chosen so that a
// different association rounds differently.
//
//===----------------------------------------------------------------------===//

#include "reduction/TrainingSums.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <random>

using namespace vf;

namespace {
double tileValue(std::uint64_t T, std::size_t I) {
  // Magnitudes spread over 40 binades: sums in other orders round apart.
  return std::ldexp(1.0 + 0.1 * double((T * 7 + I) % 13), int((T * 11 + I) % 40) - 20);
}
} // namespace

TEST(TrainingSumsTest, GroupCount) {
  EXPECT_EQ(TrainingSums::groupCount(8000, 4096), 64u);
  EXPECT_EQ(TrainingSums::groupCount(8000, 10), 10u);
  EXPECT_EQ(TrainingSums::groupCount(1 << 20, 4096), 2u);
  EXPECT_EQ(TrainingSums::groupCount(1 << 24, 4096), 1u);
}

TEST(TrainingSumsTest, AnySubmissionOrderGivesTheGroupedSum) {
  const std::size_t Bins = 3;
  const std::uint64_t Ntiles = 200;
  std::vector<std::uint64_t> Order(Ntiles);
  for (std::uint64_t T = 0; T < Ntiles; ++T)
    Order[T] = T;
  std::mt19937 Rng(7);
  std::shuffle(Order.begin(), Order.end(), Rng);
  TrainingSums S(Bins, Ntiles);
  for (std::uint64_t T : Order) {
    std::vector<double> B = S.acquire();
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      B[I] = tileValue(T, I);
    S.submit(T, std::move(B));
  }
  S.finish();
  // The definition, spelled out.
  std::vector<double> Total(2 * Bins, 0.0);
  for (std::uint64_t G = 0; G < S.groups(); ++G) {
    std::vector<double> P(2 * Bins, 0.0);
    for (std::uint64_t T = S.groupBegin(G); T < S.groupBegin(G + 1); ++T)
      for (std::size_t I = 0; I < 2 * Bins; ++I)
        P[I] += tileValue(T, I);
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      Total[I] += P[I];
  }
  for (std::size_t I = 0; I < Bins; ++I) {
    EXPECT_EQ(S.sums()[I], Total[2 * I]);
    EXPECT_EQ(S.weights()[I], Total[2 * I + 1]);
  }
  // Groups partition the tiles.
  EXPECT_EQ(S.groupBegin(0), 0u);
  EXPECT_EQ(S.groupBegin(S.groups()), Ntiles);
}

/// A group's partial computed elsewhere (a GPU) in the same order replaces
/// its tiles' submissions and gives the same total.
TEST(TrainingSumsTest, GroupsFoldedElsewhereGiveTheSameTotal) {
  const std::size_t Bins = 2;
  const std::uint64_t Ntiles = 100;
  TrainingSums ByTile(Bins, Ntiles), Mixed(Bins, Ntiles);
  for (std::uint64_t T = 0; T < Ntiles; ++T) {
    std::vector<double> B = ByTile.acquire();
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      B[I] = tileValue(T, I);
    ByTile.submit(T, std::move(B));
  }
  for (std::uint64_t G = 0; G < Mixed.groups(); ++G) {
    if (G % 3 == 1) { // folded "on the device"
      std::vector<double> P(2 * Bins, 0.0);
      for (std::uint64_t T = Mixed.groupBegin(G); T < Mixed.groupBegin(G + 1); ++T)
        for (std::size_t I = 0; I < 2 * Bins; ++I)
          P[I] += tileValue(T, I);
      Mixed.submitGroup(G, P.data());
      continue;
    }
    for (std::uint64_t T = Mixed.groupBegin(G); T < Mixed.groupBegin(G + 1); ++T) {
      std::vector<double> B = Mixed.acquire();
      for (std::size_t I = 0; I < 2 * Bins; ++I)
        B[I] = tileValue(T, I);
      Mixed.submit(T, std::move(B));
    }
  }
  ByTile.finish();
  Mixed.finish();
  for (std::size_t I = 0; I < Bins; ++I) {
    EXPECT_EQ(Mixed.sums()[I], ByTile.sums()[I]);
    EXPECT_EQ(Mixed.weights()[I], ByTile.weights()[I]);
  }
}

TEST(TrainingSumsTest, ATileHandedBackTwiceOrFromBeyondCountsOnce) {
  const std::size_t Bins = 2;
  const std::uint64_t Ntiles = 6;
  TrainingSums Once(Bins, Ntiles), Twice(Bins, Ntiles);
  auto Fill = [&](TrainingSums &S, std::uint64_t T) {
    std::vector<double> B = S.acquire();
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      B[I] = tileValue(T, I);
    S.submit(T, std::move(B));
  };
  for (std::uint64_t T : {5, 3, 1, 4, 0, 2})
    Fill(Once, T);
  // Tile 3 twice while it waits, tile 0 again after it was added, and a
  // tile number past the iteration's: each extra is ignored.
  for (std::uint64_t T : {5, 3, 3, 1, 4, 0, 0, 2, 6})
    Fill(Twice, T);
  Once.finish();
  Twice.finish();
  for (std::size_t I = 0; I < Bins; ++I) {
    EXPECT_EQ(Twice.sums()[I], Once.sums()[I]);
    EXPECT_EQ(Twice.weights()[I], Once.weights()[I]);
  }
}

/// Partials are not cleared between iterations: a group starts from its
/// first tile, and partials() gives zeros for groups no tile reached (what
/// MPI ranks exchange). A second iteration with other values, in another
/// order, must not see the first one's partials.
TEST(TrainingSumsTest, AnIterationStartsFromNothingOfTheLast) {
  const std::size_t Bins = 3;
  const std::uint64_t Ntiles = 40;
  auto Run = [&](TrainingSums &S, std::uint64_t Shift, unsigned Seed) {
    std::vector<std::uint64_t> Order(Ntiles);
    for (std::uint64_t T = 0; T < Ntiles; ++T)
      Order[T] = T;
    std::mt19937 Rng(Seed);
    std::shuffle(Order.begin(), Order.end(), Rng);
    for (std::uint64_t T : Order) {
      std::vector<double> B = S.acquire();
      for (std::size_t I = 0; I < 2 * Bins; ++I)
        B[I] = tileValue(T + Shift, I);
      S.submit(T, std::move(B));
    }
    S.finish();
  };
  TrainingSums Reused(Bins, Ntiles), Fresh(Bins, Ntiles);
  Run(Reused, 0, 1);
  Reused.reset(Bins, Ntiles);
  Run(Reused, 17, 2);
  Run(Fresh, 17, 3);
  for (std::size_t I = 0; I < Bins; ++I) {
    EXPECT_EQ(Reused.sums()[I], Fresh.sums()[I]);
    EXPECT_EQ(Reused.weights()[I], Fresh.weights()[I]);
  }
  // Only group 1's tiles this time: every other partial reads as zero,
  // though the memory held the last iteration's.
  Reused.reset(Bins, Ntiles);
  for (std::uint64_t T = Reused.groupBegin(1); T < Reused.groupBegin(2); ++T) {
    std::vector<double> B = Reused.acquire();
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      B[I] = tileValue(T, I);
    Reused.submit(T, std::move(B));
  }
  std::span<double> P = Reused.partials();
  for (std::uint64_t G = 0; G < Reused.groups(); ++G)
    for (std::size_t I = 0; I < 2 * Bins; ++I)
      if (G != 1)
        ASSERT_EQ(P[G * 2 * Bins + I], 0.0) << "group " << G;
      else
        ASSERT_NE(P[G * 2 * Bins + I], 0.0);
}

/// Folding each group into the total as soon as it and the groups before
/// it are complete (a process that runs every tile) gives the bits of
/// keeping the partials and adding them at the end, whatever the order
/// tiles and device-folded groups arrive in, iteration after iteration.
TEST(TrainingSumsTest, FoldingGroupsAsTheyCompleteGivesTheKeptTotal) {
  const std::size_t Bins = 4;
  const std::uint64_t Ntiles = 150;
  TrainingSums Kept(Bins, Ntiles), Folding(Bins, Ntiles);
  for (unsigned Round = 0; Round < 3; ++Round) {
    Kept.reset(Bins, Ntiles);
    Folding.reset(Bins, Ntiles, 0, {}, /*KeepPartials=*/false);
    std::vector<std::uint64_t> Order(Ntiles);
    for (std::uint64_t T = 0; T < Ntiles; ++T)
      Order[T] = T;
    std::mt19937 Rng(Round);
    std::shuffle(Order.begin(), Order.end(), Rng);
    for (TrainingSums *S : {&Kept, &Folding}) {
      for (std::uint64_t T : Order) {
        const std::uint64_t G = [&] {
          std::uint64_t G = 0;
          while (S->groupBegin(G + 1) <= T)
            ++G;
          return G;
        }();
        if (G % 5 == 2) { // this group folded "on a device"
          if (T != S->groupBegin(G))
            continue;
          std::vector<double> P(2 * Bins, 0.0);
          for (std::uint64_t U = T; U < S->groupBegin(G + 1); ++U)
            for (std::size_t I = 0; I < 2 * Bins; ++I)
              P[I] += tileValue(U + Round, I);
          S->submitGroup(G, P.data());
          continue;
        }
        std::vector<double> B = S->acquire();
        for (std::size_t I = 0; I < 2 * Bins; ++I)
          B[I] = tileValue(T + Round, I);
        S->submit(T, std::move(B));
      }
      S->finish();
    }
    for (std::size_t I = 0; I < Bins; ++I) {
      ASSERT_EQ(Folding.sums()[I], Kept.sums()[I]) << "round " << Round;
      ASSERT_EQ(Folding.weights()[I], Kept.weights()[I]);
    }
  }
}

/// An iteration cut short (cancelled, or its devices failed) leaves groups
/// half added; the next, with a larger histogram (a map of more
/// increments), must start from nothing of it and write within its own
/// buffers (this test under AddressSanitizer is the check of the latter).
TEST(TrainingSumsTest, AnUnfinishedIterationLeavesNothingBehind) {
  const std::uint64_t Ntiles = 60;
  TrainingSums S(2, Ntiles);
  S.reset(2, Ntiles, 0, {}, /*KeepPartials=*/false);
  for (std::uint64_t T : {0, 1, 2, 7, 30, 31}) { // no group completes
    std::vector<double> B = S.acquire();
    for (std::size_t I = 0; I < 4; ++I)
      B[I] = tileValue(T, I);
    S.submit(T, std::move(B));
  }
  const std::size_t Bins = 50;
  S.reset(Bins, Ntiles, 0, {}, false);
  TrainingSums Fresh(Bins, Ntiles);
  for (TrainingSums *X : {&S, &Fresh}) {
    for (std::uint64_t T = Ntiles; T-- > 0;) {
      std::vector<double> B = X->acquire();
      ASSERT_EQ(B.size(), 2 * Bins);
      for (std::size_t I = 0; I < 2 * Bins; ++I)
        B[I] = tileValue(T + 3, I);
      X->submit(T, std::move(B));
    }
    X->finish();
  }
  for (std::size_t I = 0; I < Bins; ++I) {
    ASSERT_EQ(S.sums()[I], Fresh.sums()[I]);
    ASSERT_EQ(S.weights()[I], Fresh.weights()[I]);
  }
}

/// A single-precision tile's buffer (its floats in the first half) widens
/// in place to those floats as doubles, whatever its size against the
/// widening's chunks.
TEST(TrainingSumsWiden, FloatsInTheFirstHalfBecomeTheDoubles) {
  std::mt19937 Rng(5);
  std::uniform_real_distribution<float> U(-1e3f, 1e3f);
  for (std::size_t N : {1u, 2u, 63u, 64u, 65u, 128u, 1000u, 16001u}) {
    std::vector<float> Want(N);
    for (float &F : Want)
      F = U(Rng);
    std::vector<double> Buffer(N, -7.0);
    std::memcpy(Buffer.data(), Want.data(), N * sizeof(float));
    TrainingSums::widenFloats(Buffer);
    for (std::size_t I = 0; I < N; ++I)
      ASSERT_EQ(Buffer[I], double(Want[I])) << "N = " << N << ", entry " << I;
  }
}
