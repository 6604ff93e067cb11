//===- tests/unit/runtime/kernels/ChannelTest.cpp - The sampling stages ---===//
//
// The sampling core's stages (runtime/kernels/UniformSource.h, Channel.h):
// a point is the channel applied to the source's uniforms, the event
// choice draw is Philox's choice block, and the channel's inverse takes a
// point back to y = (k + u)/M with the Jacobian the point reported, on a
// map with uneven increments and a box that is not the unit cube; each
// channel draws from its own blocks.
//
//===----------------------------------------------------------------------===//
#include "SamplePoint.h"

#include "MappedArgs.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace {

constexpr unsigned Dim = 5, Ninc = 7;
constexpr vf_u32 Nstrat = 3;

/// Edges x_k = (k / ninc)^(1 + d / 2) per axis: every increment a
/// different width, each axis another map.
std::vector<double> unevenEdges() {
  std::vector<double> E;
  for (unsigned D = 0; D < Dim; ++D)
    for (unsigned K = 0; K <= Ninc; ++K)
      E.push_back(std::pow(double(K) / Ninc, 1.0 + 0.5 * D));
  return E;
}

struct UnevenBox {
  std::vector<double> Edges = unevenEdges();
  std::vector<double> Lo = {-1, 0, 2, -3, 0.5}, Width = {2, 1, 0.5, 6, 3};
  vf_sampler_args A =
      mappedArgs(0x1234567890abcdefull, 3, Dim, Ninc, Nstrat, Edges, Lo, Width);
};

TEST(SamplingStagesTest, APointIsTheChannelOfTheSourcesUniforms) {
  UnevenBox S;
  for (vf_u64 J : {0ull, 1ull, 77ull, 1ull << 40}) {
    double K[Dim], U[Dim], X[Dim], X2[Dim];
    vf_u32 Bin[Dim], Bin2[Dim];
    vf_hcube_coords(J % 243, Dim, Nstrat, K);
    const double Jac = vf_sample_point(&S.A, Dim, J, K, X, Bin);
    vf_uniforms_point(&S.A, J, Dim, U);
    const vf_channel_scales Sc = vf_channel_scales_of(&S.A);
    EXPECT_EQ(Jac, vf_channel_point(&S.A, &Sc, Dim, K, U, X2, Bin2));
    for (unsigned D = 0; D < Dim; ++D) {
      EXPECT_EQ(X[D], X2[D]);
      EXPECT_EQ(Bin[D], Bin2[D]);
      vf_u32 W[4];
      vf_philox_block(S.A.seed, S.A.iteration, J, D / 4, W);
      EXPECT_EQ(U[D], vf_philox_u01(W[D % 4]));
    }
  }
}

// Channel c of a multi-channel integrand draws from block c
// VF_CHANNEL_BLOCKS on; channel 0 from block 0, as above.
TEST(SamplingStagesTest, AChannelDrawsFromItsOwnBlocks) {
  UnevenBox S;
  for (vf_u32 C : {1u, 2u, 7u}) {
    S.A.channel = C;
    double U[Dim];
    vf_uniforms_point(&S.A, 77, Dim, U);
    for (unsigned D = 0; D < Dim; ++D) {
      vf_u32 W[4];
      vf_philox_block(S.A.seed, S.A.iteration, 77,
                      C * VF_CHANNEL_BLOCKS + D / 4, W);
      EXPECT_EQ(U[D], vf_philox_u01(W[D % 4])) << "channel " << C;
    }
  }
}

TEST(SamplingStagesTest, TheChoiceDrawIsItsOwnBlock) {
  double Pick, Accept;
  vf_uniforms_choice(9, 0xffffffffu, 12345, &Pick, &Accept);
  vf_u32 W[4];
  vf_philox_block(9, 0xffffffffu, 12345, VF_UNIFORM_CHOICE_BLOCK, W);
  EXPECT_EQ(Pick, vf_philox_u01_52(W[0], W[1]));
  EXPECT_EQ(Accept, vf_philox_u01(W[2]));
}

TEST(SamplingStagesTest, TheInverseTakesAPointBackToItsY) {
  UnevenBox S;
  for (vf_u64 J = 0; J < 200; ++J) {
    double K[Dim], U[Dim], X[Dim], Y[Dim];
    vf_u32 Bin[Dim];
    vf_hcube_coords(J % 243, Dim, Nstrat, K);
    vf_uniforms_point(&S.A, J, Dim, U);
    const vf_channel_scales Sc = vf_channel_scales_of(&S.A);
    const double Jac = vf_channel_point(&S.A, &Sc, Dim, K, U, X, Bin);
    const double Back = vf_channel_invert(&S.A, Dim, X, Y);
    EXPECT_NEAR(Back, Jac, 1e-12 * Jac) << "sample " << J;
    for (unsigned D = 0; D < Dim; ++D)
      EXPECT_NEAR(Y[D], (K[D] + U[D]) / Nstrat, 1e-13)
          << "sample " << J << ", axis " << D;
  }
}

/// Below the first edge, past the last, and on a run of zero-width
/// increments: the inverse stays on the map, as AdaptiveMap's did.
TEST(SamplingStagesTest, TheInverseClampsToTheMap) {
  const double E[] = {0, 0.25, 0.25, 0.25, 1};
  double Y;
  EXPECT_EQ(vf_map_invert_axis(E, 4, -0.5, &Y), 4 * 0.25);
  EXPECT_EQ(Y, -0.5);
  EXPECT_EQ(vf_map_invert_axis(E, 4, 0.25, &Y), 4 * 0.75);
  EXPECT_EQ(Y, 0.75);
  EXPECT_EQ(vf_map_invert_axis(E, 4, 1.0, &Y), 4 * 0.75);
  EXPECT_EQ(Y, 1.0);
}

} // namespace
