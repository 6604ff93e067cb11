//===- tests/unit/runtime/kernels/SamplerTileTest.cpp - The tile walk -----===//
//
// Sampler.c's step (1) gives each sample its hypercube and 1/n_h without a
// branch per sample (the hypercubes starting in a batch mark their lanes).
// These tests run the tile function (its native build, which shares the
// step) over hypercubes of awkward sizes: one sample, a batch's or a
// block's exact end, empty ones, one spanning several batches; and check
// each hypercube's sample count and the training weights, which add each
// sample's 1/n_h in sample order.
//
//===----------------------------------------------------------------------===//

#include "kernels/NativeSampler.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

constexpr unsigned Stride = VF_SEGMENT_STRIDE(1);

void ones(const void *, const double *, vf_u64 N, unsigned, const double *,
          double *Out) {
  for (vf_u64 I = 0; I < N; ++I)
    Out[I] = 1.0;
}

struct Walk {
  std::vector<vf_u64> Sizes;
  std::vector<vf_u64> Offsets;
  std::vector<double> Edges{0.0, 1.0};
  std::vector<double> Lo{0.0}, Width{1.0}, Params{0.0};
  std::vector<double> Segments, Train{0.0, 0.0};
  std::vector<double> Counted; // per hypercube, over all tiles
  vf_sampler_args A{};

  explicit Walk(std::vector<vf_u64> S) : Sizes(std::move(S)) {
    Offsets.push_back(0);
    for (vf_u64 N : Sizes)
      Offsets.push_back(Offsets.back() + N);
    Segments.assign(Sizes.size() * Stride, 0.0);
    Counted.assign(Sizes.size(), 0.0);
    A.seed = 7;
    A.dim = 1;
    A.nout = 1;
    A.ninc = 1; // one increment: the training pair sums every sample
    A.nstrat = (vf_u32)Sizes.size();
    A.train = 1;
    A.nhcube = Sizes.size();
    A.nsamples = Offsets.back();
    A.edges = Edges.data();
    A.hcube_offsets = Offsets.data();
    A.box_lo = Lo.data();
    A.box_width = Width.data();
    A.box_volume = 1.0;
    A.params = Params.data();
  }

  /// Runs every tile of TileSize samples and counts each hypercube's
  /// samples from the segments the tiles leave (SamplerABI.h). Returns
  /// the samples' common value J f (the segments' shift K).
  double run(vf_u64 TileSize) {
    A.tile_size = TileSize;
    const vf_native_integrand Native{ones, nullptr};
    double K = 0.0;
    for (vf_u64 T = 0; T * TileSize < A.nsamples; ++T) {
      std::vector<double> Edge(2 * Stride, 0.0);
      vf_tile_result R{};
      vf_tile_outputs Out{Segments.data(), Edge.data(), Train.data(), &R,
                          nullptr,         nullptr,     nullptr};
      vf_native_sample_tile(&A, T, &Out, &Native);
      Counted[R.first_hcube] += Edge[0];
      K = Edge[1];
      if (R.last_hcube != R.first_hcube)
        Counted[R.last_hcube] += Edge[Stride];
    }
    for (size_t H = 0; H < Sizes.size(); ++H)
      Counted[H] += Segments[H * Stride];
    return K;
  }
};

// Sizes crossing the native batch (64) and block (32) boundaries:
// hypercube 4 ends exactly at sample 64, hypercube 5 is empty there, the
// next spans a whole batch.
const std::vector<vf_u64> Awkward{3, 1, 2, 26, 32, 0, 5, 1, 64, 7, 1, 0, 2};

TEST(SamplerTile, EachHypercubeGetsItsOwnSamples) {
  for (vf_u64 TileSize : {vf_u64(144), vf_u64(64), vf_u64(40), vf_u64(7)}) {
    Walk W(Awkward);
    W.run(TileSize);
    for (size_t H = 0; H < Awkward.size(); ++H)
      EXPECT_EQ(W.Counted[H], double(Awkward[H]))
          << "hypercube " << H << ", tiles of " << TileSize;
  }
}

TEST(SamplerTile, TrainingAddsEachSamplesOwnWeightInOrder) {
  Walk W(Awkward);
  const double K = W.run(144);
  ASSERT_GT(K, 0.0);
  double T2 = 0.0, Weight = 0.0;
  for (vf_u64 N : Awkward)
    for (vf_u64 I = 0; I < N; ++I) {
      const double Inv = 1.0 / double(N);
      T2 += K * K * Inv;
      Weight += Inv;
    }
  EXPECT_EQ(W.Train[0], T2);
  EXPECT_EQ(W.Train[1], Weight);
}

} // namespace
