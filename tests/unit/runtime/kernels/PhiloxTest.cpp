//===- tests/unit/runtime/kernels/PhiloxTest.cpp - Philox4x32-10 ----------===//
//
// The project's portable Philox4x32-10 (runtime/kernels/Philox.h) against
// Random123's reference implementation and the published known-answer
// vectors, and its conversion to uniforms in the open interval (0,1).
//
//===----------------------------------------------------------------------===//
#include "Philox.h"

#include <Random123/philox.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>

namespace {

using Words = std::array<vf_u32, 4>;

Words ours(Words Ctr, std::array<vf_u32, 2> Key) {
  Words Out;
  vf_philox4x32_10(Ctr.data(), Key.data(), Out.data());
  return Out;
}

Words random123(Words Ctr, std::array<vf_u32, 2> Key) {
  r123::Philox4x32_R<10> Rng; // r123::Philox4x32 is this alias.
  r123::Philox4x32_R<10>::ctr_type C = {{Ctr[0], Ctr[1], Ctr[2], Ctr[3]}};
  r123::Philox4x32_R<10>::key_type K = {{Key[0], Key[1]}};
  r123::Philox4x32_R<10>::ctr_type R = Rng(C, K);
  return {R[0], R[1], R[2], R[3]};
}

struct KnownAnswer {
  Words Ctr;
  std::array<vf_u32, 2> Key;
  Words Expected;
};

// Random123's kat_vectors, "philox4x32 10" lines (also in the SC'11 paper).
const KnownAnswer KnownAnswers[] = {
    {{0, 0, 0, 0}, {0, 0}, {0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8}},
    {{0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff},
     {0xffffffff, 0xffffffff},
     {0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd}},
    {{0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344},
     {0xa4093822, 0x299f31d0},
     {0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1}},
};

/// vf_philox4x32_10(ctr, key) gives the published known answers, and so
/// does Random123 (so the vectors themselves are checked too).
TEST(PhiloxTest, KnownAnswerVectors) {
  for (const KnownAnswer &K : KnownAnswers) {
    EXPECT_EQ(ours(K.Ctr, K.Key), K.Expected);
    EXPECT_EQ(random123(K.Ctr, K.Key), K.Expected);
  }
}

/// vf_philox4x32_10 is bitwise equal to r123::Philox4x32 (10 rounds) on 10^6
/// random counters and keys.
TEST(PhiloxTest, MatchesRandom123) {
  std::mt19937 Gen(20240517);
  auto Word = [&Gen] { return vf_u32(Gen()); };
  unsigned Mismatches = 0;
  for (int I = 0; I < 1000000; ++I) {
    Words Ctr = {Word(), Word(), Word(), Word()};
    std::array<vf_u32, 2> Key = {Word(), Word()};
    if (ours(Ctr, Key) != random123(Ctr, Key))
      ++Mismatches;
  }
  EXPECT_EQ(Mismatches, 0u);
}

/// vf_philox4x32_10(ctr, key, out) may write over its counter.
TEST(PhiloxTest, OutputMayAliasCounter) {
  const KnownAnswer &K = KnownAnswers[2];
  Words C = K.Ctr;
  vf_philox4x32_10(C.data(), K.Key.data(), C.data());
  EXPECT_EQ(C, K.Expected);
}

/// vf_philox_block(seed, iteration, index, block) is Philox of
/// ctr = {block, iteration, index_lo, index_hi}, key = {seed_lo, seed_hi}.
TEST(PhiloxTest, CounterLayout) {
  vf_u64 Seed = 0x0123456789abcdefULL, Index = 0xfedcba9876543210ULL;
  vf_u32 Iteration = 7, Block = 3;
  Words Out;
  vf_philox_block(Seed, Iteration, Index, Block, Out.data());
  Words Ctr = {Block, Iteration, vf_u32(Index), vf_u32(Index >> 32)};
  EXPECT_EQ(Out, random123(Ctr, {vf_u32(Seed), vf_u32(Seed >> 32)}));

  // Every field of the counter and both halves of the key matter.
  auto Draw = [](vf_u64 S, vf_u32 It, vf_u64 J, vf_u32 B) {
    Words W;
    vf_philox_block(S, It, J, B, W.data());
    return W;
  };
  Words Base = Draw(Seed, Iteration, Index, Block);
  EXPECT_NE(Base, Draw(Seed ^ 1, Iteration, Index, Block));
  EXPECT_NE(Base, Draw(Seed ^ (1ULL << 32), Iteration, Index, Block));
  EXPECT_NE(Base, Draw(Seed, Iteration + 1, Index, Block));
  EXPECT_NE(Base, Draw(Seed, Iteration, Index ^ 1, Block));
  EXPECT_NE(Base, Draw(Seed, Iteration, Index ^ (1ULL << 32), Block));
  EXPECT_NE(Base, Draw(Seed, Iteration, Index, Block + 1));
}

/// vf_philox_u01 maps the extreme words 0 and 0xffffffff strictly inside
/// (0,1), to 2^-33 and 1 - 2^-33, and is strictly increasing.
TEST(PhiloxTest, Uniform32OpenInterval) {
  EXPECT_EQ(vf_philox_u01(0), std::ldexp(1.0, -33));
  EXPECT_EQ(vf_philox_u01(0xffffffffu), 1.0 - std::ldexp(1.0, -33));
  EXPECT_GT(vf_philox_u01(0), 0.0);
  EXPECT_LT(vf_philox_u01(0xffffffffu), 1.0);
  EXPECT_LT(vf_philox_u01(0x7fffffffu), 0.5);
  EXPECT_GT(vf_philox_u01(0x80000000u), 0.5);
  EXPECT_LT(vf_philox_u01(0xfffffffeu), vf_philox_u01(0xffffffffu));
}

/// vf_philox_u01_52 maps extreme word pairs strictly inside (0,1).
TEST(PhiloxTest, Uniform52OpenInterval) {
  EXPECT_EQ(vf_philox_u01_52(0, 0), std::ldexp(1.0, -53));
  EXPECT_EQ(vf_philox_u01_52(0xffffffffu, 0xffffffffu),
            1.0 - std::ldexp(1.0, -53));
  EXPECT_LT(vf_philox_u01_52(0xffffffffu, 0xffffffffu), 1.0);
  EXPECT_LT(vf_philox_u01_52(0, 0xfff), vf_philox_u01_52(0, 0x1000));
}

/// vf_philox_u01 over 10^6 draws has mean 1/2 and variance 1/12 (within 5
/// sigma), and stays in (0,1).
TEST(PhiloxTest, UniformMoments) {
  const int N = 250000; // Four uniforms per block: 10^6 draws.
  double Sum = 0, SumSq = 0;
  bool InRange = true;
  for (int J = 0; J < N; ++J) {
    Words W;
    vf_philox_block(42, 1, vf_u64(J), 0, W.data());
    for (vf_u32 U : W) {
      double X = vf_philox_u01(U);
      InRange &= X > 0 && X < 1;
      Sum += X;
      SumSq += X * X;
    }
  }
  double Count = 4.0 * N;
  double Mean = Sum / Count, Var = SumSq / Count - Mean * Mean;
  EXPECT_TRUE(InRange);
  EXPECT_NEAR(Mean, 0.5, 5 * std::sqrt(1.0 / 12 / Count));
  // Var of U^2 is 4/45; the sample variance's sigma is about sqrt(1/180/n).
  EXPECT_NEAR(Var, 1.0 / 12, 5 * std::sqrt(1.0 / 180 / Count));
}

} // namespace
