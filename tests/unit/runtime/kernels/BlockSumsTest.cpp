//===- tests/unit/runtime/kernels/BlockSumsTest.cpp - The block tree ------===//
//
// runtime/kernels/BlockSums.h defines the order in which a segment's sums
// are added (blocks of 32 in order, a fixed tree within each run of a
// block); the GPU kernel repeats it with shuffles, and the fake-GPU tests
// check the two agree. These tests pin the definition itself: the host's
// two forms (lane-parallel and run by run) against a plain rendering of
// the documented steps, bit for bit, and exact sums on integer data; in
// double and in single precision, where the sums of the deviations are
// compensated (TwoSum at each step of the tree).
//
//===----------------------------------------------------------------------===//

#include "kernels/SamplerABI.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <random>
#include <type_traits>
#include <vector>

extern "C" {
/// The probes of BlockSumsProbe.c: double, and single precision (float
/// deviations' sizes).
#define VF_DECLARE_BLOCK_PROBE(Name, Real)                                     \
  void Name(unsigned nout, unsigned nblocks, const unsigned *nb,               \
            const vf_u64 *hb, const double *v, vf_u64 first,                   \
            double *hcube_segments, double *edge_segments, Real *dev,          \
            int wide);
VF_DECLARE_BLOCK_PROBE(vf_test_block_tile, double)
VF_DECLARE_BLOCK_PROBE(vf_test_f32_block_tile, float)
}

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

/// With \p Single the values are floats, as the single-precision kernels'
/// weights are.
Tile randomTile(std::mt19937_64 &Rng, unsigned Nout, bool Integers,
                bool Single = false) {
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
    if (Single)
      Vs.back() = float(Vs.back());
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
/// 512-bit vectors) or run by run; in single precision for \p Single.
Sums runKernel(const Tile &T, bool Wide, bool Single = false) {
  Sums S;
  S.Hcube.assign(T.Nhcube * stride(T.Nout), -7.0);
  S.Edge.assign(2 * stride(T.Nout), -7.0);
  S.Dev.assign(T.Nb.size() * Block, 0.0);
  if (!Single) {
    vf_test_block_tile(T.Nout, unsigned(T.Nb.size()), T.Nb.data(), T.Hb.data(),
                       T.V.data(), T.First, S.Hcube.data(), S.Edge.data(),
                       S.Dev.data(), Wide);
    return S;
  }
  std::vector<float> Dev(S.Dev.size());
  vf_test_f32_block_tile(T.Nout, unsigned(T.Nb.size()), T.Nb.data(),
                         T.Hb.data(), T.V.data(), T.First, S.Hcube.data(),
                         S.Edge.data(), Dev.data(), Wide);
  std::copy(Dev.begin(), Dev.end(), S.Dev.begin());
  return S;
}

/// A run's terms summed by the documented tree in R's arithmetic; in
/// float the deviations' sums (\p Compensated) by TwoSum, the low parts as
/// lo <- (lo + lo') + e, and the total the double hi + lo.
template <typename R> double treeSum(std::vector<R> Q0, bool Compensated) {
  std::vector<R> Lo(Q0.size(), R(0));
  for (unsigned Step = 1; Step < Block; Step *= 2) {
    std::vector<R> Next = Q0, NextLo = Lo;
    for (unsigned M = 0; M + Step < Q0.size(); ++M) {
      const R A = Q0[M], B = Q0[M + Step], Sum = A + B, Bp = Sum - A;
      Next[M] = Sum;
      if (Compensated)
        NextLo[M] = (Lo[M] + Lo[M + Step]) + ((A - (Sum - Bp)) + (B - Bp));
    }
    Q0 = Next;
    Lo = NextLo;
  }
  return Compensated ? double(Q0[0]) + double(Lo[0]) : double(Q0[0]);
}

/// The documented steps, one lane at a time, in R's arithmetic (float:
/// single precision's compensated sums); Tree = false adds each run's
/// terms in sample order instead (to show the tests tell the two apart).
template <typename R = double>
Sums runReference(const Tile &T, bool Tree = true) {
  constexpr bool Single = std::is_same_v<R, float>;
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
    std::vector<std::vector<R>> Q(Nt, std::vector<R>(Block, R(0)));
    for (unsigned L = 0; L < Nb; ++L) {
      std::vector<R> D(K);
      for (unsigned C = 0; C < K; ++C) {
        const R Shift = R(Run[L] == 0 && Cont ? Seg[1 + C] : V[Run[L] * K + C]);
        D[C] = R(V[L * K + C]) - Shift;
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
          Sum = treeSum(std::vector<R>(Q[I].begin() + L, Q[I].begin() + End),
                        Single && I < K);
        } else {
          R Plain = 0;
          for (unsigned M = L; M < End; ++M)
            Plain += Q[I][M];
          Sum = Plain;
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

/// The segments bit for bit, and the deviations of the valid lanes.
bool sameSums(const Sums &Got, const Sums &Want, const Tile &T) {
  if (!bitwiseEqual(Got.Hcube, Want.Hcube) ||
      !bitwiseEqual(Got.Edge, Want.Edge))
    return false;
  for (size_t B = 0; B < T.Nb.size(); ++B)
    for (unsigned L = 0; L < T.Nb[B]; ++L)
      if (Got.Dev[B * Block + L] != Want.Dev[B * Block + L])
        return false;
  return true;
}

class BlockSumsForm : public ::testing::TestWithParam<bool> {};

TEST_P(BlockSumsForm, FollowsTheDocumentedTreeBitForBit) {
  std::mt19937_64 Rng(20261201);
  unsigned Differs = 0;
  for (unsigned Case = 0; Case < 300; ++Case) {
    const unsigned Nout = 1 + Case % 3;
    const Tile T = randomTile(Rng, Nout, false);
    const Sums Got = runKernel(T, GetParam()), Want = runReference(T);
    ASSERT_TRUE(sameSums(Got, Want, T)) << "case " << Case;
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

TEST_P(BlockSumsForm, FollowsTheCompensatedTreeInSinglePrecision) {
  std::mt19937_64 Rng(20261205);
  unsigned Differs = 0;
  for (unsigned Case = 0; Case < 300; ++Case) {
    const unsigned Nout = 1 + Case % 3;
    const Tile T = randomTile(Rng, Nout, false, true);
    const Sums Got = runKernel(T, GetParam(), true);
    const Sums Want = runReference<float>(T);
    ASSERT_TRUE(sameSums(Got, Want, T)) << "case " << Case;
    // Against the same steps in plain float: the compensation shows.
    Differs += !bitwiseEqual(runReference<float>(T, false).Hcube, Want.Hcube);
  }
  EXPECT_GT(Differs, 100u);
}

/// The compensated tree gives a run's sum of float deviations to about
/// 2^-48 of their magnitudes, where a plain float sum loses 2^-24 of its
/// partial sums at each step: deviations of both signs from 1e-3 to 1e3.
TEST_P(BlockSumsForm, SinglePrecisionSumsAreCompensated) {
  Tile T;
  T.First = 0;
  T.Nhcube = 1;
  T.Nb = {32};
  std::mt19937_64 Rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  long double Exact = 0, Scale = 0;
  float Plain = 0;
  for (unsigned L = 0; L < Block; ++L) {
    T.Hb.push_back(0);
    T.V.push_back(float(1 + std::copysign(std::pow(10.0, 3 * U(Rng)), U(Rng))));
    // The float deviation the kernel computes, and its exact sums.
    const float D = float(T.V[L]) - float(T.V[0]);
    Exact += D;
    Scale += std::fabs(D);
    Plain += D;
  }
  const Sums Got = runKernel(T, GetParam(), true);
  const double S = Got.Edge[2];
  EXPECT_LE(std::fabs(S - double(Exact)), 0x1p-40 * double(Scale))
      << S << " vs " << double(Exact);
  EXPECT_GT(std::fabs(double(Plain) - double(Exact)), 0x1p-40 * double(Scale))
      << "the data should defeat a plain float sum";
}

INSTANTIATE_TEST_SUITE_P(BlockSums, BlockSumsForm, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &I) {
                           return I.param ? "Lanes" : "Runs";
                         });

} // namespace
