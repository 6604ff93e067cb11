//===- tests/unit/runtime/kernels/BlockSumsTest.cpp - The block tree ------===//
//
// runtime/kernels/BlockSums.h defines the order in which a segment's sums
// are added (blocks of 32 in order, a fixed tree within each run of a
// block); the GPU kernel repeats it with shuffles, and the fake-GPU tests
// check the two agree. These tests pin the definition itself: the host's
// two forms (lane-parallel and run by run) against a plain rendering of
// the documented steps, bit for bit, and exact sums on integer data.
//
//===----------------------------------------------------------------------===//

#include "kernels/SamplerABI.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <vector>

extern "C" void vf_test_block_tile(unsigned nout, unsigned nblocks,
                                   const unsigned *nb, const vf_u64 *hb,
                                   const double *v, vf_u64 first,
                                   double *hcube_segments,
                                   double *edge_segments, double *dev,
                                   int wide);

namespace {

constexpr unsigned Block = 32;

/// A tile: blocks of samples, each sample's hypercube and values.
struct Tile {
  unsigned Nout = 1;
  std::vector<unsigned> Nb;
  std::vector<vf_u64> Hb;  // Block per block; padding repeats the last
  std::vector<double> V;   // Block * Nout per block
  vf_u64 First = 0, Nhcube = 0;
};

Tile randomTile(std::mt19937_64 &Rng, unsigned Nout, bool Integers) {
  Tile T;
  T.Nout = Nout;
  T.First = 3;
  const unsigned Lengths[] = {1, 2, 3, 5, 15, 31, 32, 33, 70};
  std::uniform_int_distribution<unsigned> Pick(0, 8);
  std::uniform_int_distribution<int> Small(-5, 9);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const unsigned Samples = 40 + unsigned(Rng() % 300);
  vf_u64 H = T.First;
  unsigned Left = Lengths[Pick(Rng)];
  std::vector<vf_u64> Hs;
  std::vector<double> Vs;
  for (unsigned J = 0; J < Samples; ++J) {
    if (Left == 0) {
      H += 1 + Rng() % 2;
      Left = Lengths[Pick(Rng)];
    }
    --Left;
    Hs.push_back(H);
    for (unsigned C = 0; C < Nout; ++C)
      Vs.push_back(Integers ? double(Small(Rng))
                            : (1.0 + C) * 1e3 + U(Rng) * std::exp(4 * U(Rng)));
  }
  T.Nhcube = H + 1;
  for (unsigned J0 = 0; J0 < Samples; J0 += Block) {
    const unsigned Nb = std::min(Block, Samples - J0);
    T.Nb.push_back(Nb);
    for (unsigned L = 0; L < Block; ++L) {
      const unsigned J = J0 + std::min(L, Nb - 1);
      T.Hb.push_back(Hs[J]);
      for (unsigned C = 0; C < Nout; ++C)
        T.V.push_back(Vs[J * Nout + C]);
    }
  }
  return T;
}

unsigned stride(unsigned Nout) { return 1 + 2 * Nout + Nout * (Nout + 1) / 2; }

struct Sums {
  std::vector<double> Hcube, Edge, Dev;
};

/// The kernel's block step in its lane-parallel form (wide, the hosts with
/// 512-bit vectors) or run by run.
Sums runKernel(const Tile &T, bool Wide) {
  Sums S;
  S.Hcube.assign(T.Nhcube * stride(T.Nout), -7.0);
  S.Edge.assign(2 * stride(T.Nout), -7.0);
  S.Dev.assign(T.Nb.size() * Block, 0.0);
  vf_test_block_tile(T.Nout, unsigned(T.Nb.size()), T.Nb.data(), T.Hb.data(),
                     T.V.data(), T.First, S.Hcube.data(), S.Edge.data(),
                     S.Dev.data(), Wide);
  return S;
}

/// The documented steps, one lane at a time; Tree = false adds each run's
/// terms in sample order instead (to show the tests tell the two apart).
Sums runReference(const Tile &T, bool Tree = true) {
  const unsigned K = T.Nout, Nt = K + K * (K + 1) / 2, St = stride(K);
  Sums S;
  S.Hcube.assign(T.Nhcube * St, -7.0);
  S.Edge.assign(2 * St, -7.0);
  S.Dev.assign(T.Nb.size() * Block, 0.0);
  std::vector<double> Seg(St);
  vf_u64 SegH = T.First;
  bool Open = false;
  auto Store = [&](double *Dst) { std::copy(Seg.begin(), Seg.end(), Dst); };
  auto Close = [&] {
    Store(SegH == T.First ? S.Edge.data() : S.Hcube.data() + SegH * St);
  };
  for (size_t B = 0; B < T.Nb.size(); ++B) {
    const unsigned Nb = T.Nb[B];
    const vf_u64 *Hb = T.Hb.data() + B * Block;
    const double *V = T.V.data() + B * Block * K;
    std::vector<unsigned> Run(Block);
    for (unsigned L = 0; L < Nb; ++L)
      Run[L] = L > 0 && Hb[L] == Hb[L - 1] ? Run[L - 1] : L;
    const bool Cont = Open && SegH == Hb[0];
    std::vector<std::vector<double>> Q(Nt, std::vector<double>(Block, 0.0));
    for (unsigned L = 0; L < Nb; ++L) {
      std::vector<double> D(K);
      for (unsigned C = 0; C < K; ++C) {
        const double Shift =
            Run[L] == 0 && Cont ? Seg[1 + C] : V[Run[L] * K + C];
        D[C] = V[L * K + C] - Shift;
        Q[C][L] = D[C];
      }
      unsigned I = K;
      for (unsigned C = 0; C < K; ++C)
        for (unsigned E = C; E < K; ++E)
          Q[I++][L] = D[C] * D[E];
      S.Dev[B * Block + L] = std::fabs(D[0]);
    }
    for (unsigned L = 0; L < Nb; ++L) {
      if (Run[L] != L)
        continue;
      unsigned End = L + 1;
      while (End < Nb && Run[End] == L)
        ++End;
      if (!Cont || L > 0) {
        if (Open)
          Close();
        std::fill(Seg.begin(), Seg.end(), 0.0);
        for (unsigned C = 0; C < K; ++C)
          Seg[1 + C] = V[L * K + C];
        SegH = Hb[L];
        Open = true;
      }
      Seg[0] += double(End - L);
      for (unsigned I = 0; I < Nt; ++I) {
        double Sum;
        if (Tree) {
          std::vector<double> Q0(Q[I].begin() + L, Q[I].begin() + End);
          for (unsigned Step = 1; Step < Block; Step *= 2) {
            std::vector<double> Next = Q0;
            for (unsigned M = 0; M + Step < Q0.size(); ++M)
              Next[M] = Q0[M] + Q0[M + Step];
            Q0 = Next;
          }
          Sum = Q0[0];
        } else {
          Sum = 0.0;
          for (unsigned M = L; M < End; ++M)
            Sum += Q[I][M];
        }
        Seg[1 + K + I] += Sum;
      }
    }
  }
  if (Open)
    Store(SegH == T.First ? S.Edge.data() : S.Edge.data() + St);
  return S;
}

bool bitwiseEqual(const std::vector<double> &A, const std::vector<double> &B) {
  return A.size() == B.size() &&
         std::memcmp(A.data(), B.data(), A.size() * sizeof(double)) == 0;
}

class BlockSumsForm : public ::testing::TestWithParam<bool> {};

TEST_P(BlockSumsForm, FollowsTheDocumentedTreeBitForBit) {
  std::mt19937_64 Rng(20261201);
  unsigned Differs = 0;
  for (unsigned Case = 0; Case < 300; ++Case) {
    const unsigned Nout = 1 + Case % 3;
    const Tile T = randomTile(Rng, Nout, false);
    const Sums Got = runKernel(T, GetParam()), Want = runReference(T);
    ASSERT_TRUE(bitwiseEqual(Got.Hcube, Want.Hcube)) << "case " << Case;
    ASSERT_TRUE(bitwiseEqual(Got.Edge, Want.Edge)) << "case " << Case;
    for (size_t B = 0; B < T.Nb.size(); ++B)
      for (unsigned L = 0; L < T.Nb[B]; ++L)
        ASSERT_EQ(Got.Dev[B * Block + L], Want.Dev[B * Block + L])
            << "case " << Case;
    Differs += !bitwiseEqual(runReference(T, false).Hcube, Want.Hcube);
  }
  // The data tell a tree from sample order, so the checks above would
  // catch a kernel that summed in sample order.
  EXPECT_GT(Differs, 100u);
}

TEST_P(BlockSumsForm, CountsEverySampleOnceInItsSegment) {
  std::mt19937_64 Rng(7);
  for (unsigned Case = 0; Case < 200; ++Case) {
    const unsigned Nout = 1 + Case % 2;
    const Tile T = randomTile(Rng, Nout, true);
    const Sums Got = runKernel(T, GetParam());
    // Small integers: every sum is exact in any order, so plain loops
    // over each segment's samples give the very numbers.
    const unsigned St = stride(Nout);
    std::vector<vf_u64> Hs;
    std::vector<double> Vs;
    for (size_t B = 0; B < T.Nb.size(); ++B)
      for (unsigned L = 0; L < T.Nb[B]; ++L) {
        Hs.push_back(T.Hb[B * Block + L]);
        for (unsigned C = 0; C < Nout; ++C)
          Vs.push_back(T.V[(B * Block + L) * Nout + C]);
      }
    for (size_t J0 = 0; J0 < Hs.size();) {
      size_t J1 = J0;
      while (J1 < Hs.size() && Hs[J1] == Hs[J0])
        ++J1;
      const double *Seg = Hs[J0] == T.First ? Got.Edge.data()
                          : J1 == Hs.size() ? Got.Edge.data() + St
                                            : Got.Hcube.data() + Hs[J0] * St;
      ASSERT_EQ(Seg[0], double(J1 - J0)) << "case " << Case;
      unsigned I = 1 + 2 * Nout;
      for (unsigned C = 0; C < Nout; ++C) {
        double Sum = 0, Sq = 0;
        for (size_t J = J0; J < J1; ++J) {
          const double D = Vs[J * Nout + C] - Vs[J0 * Nout + C];
          Sum += D;
          Sq += D * D;
        }
        EXPECT_EQ(Seg[1 + C], Vs[J0 * Nout + C]) << "case " << Case;
        EXPECT_EQ(Seg[1 + Nout + C], Sum) << "case " << Case;
        EXPECT_EQ(Seg[I], Sq) << "case " << Case;
        I += Nout - C;
      }
      J0 = J1;
    }
  }
}

INSTANTIATE_TEST_SUITE_P(BlockSums, BlockSumsForm, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &I) {
                           return I.param ? "Lanes" : "Runs";
                         });

} // namespace
