//===- tests/unit/codegen/ChannelKernelTest.cpp - A tile per channel ------===//
//
// A multi-channel integrand's host tile runs the channel its arguments
// name (vf_sampler_args::channel): the segment sums show that channel's
// term, with alpha read after the user's parameters; channel 0 draws the
// uniforms an integrand without channels draws, bit for bit, and channel 1
// draws others (UniformSource.h's blocks per channel), which the map's
// training sums show (each increment's share of the samples).
//
//===----------------------------------------------------------------------===//

#include "../runtime/kernels/MappedArgs.h"
#include "CodegenTestUtil.h"

#include "backends/Compiler.h"

#include <gtest/gtest.h>

#include <vector>

using namespace vf;
using namespace vf::test;

namespace {

// Channel a's term is 1; channel b's is 2 at alpha_b = 1/2 (a parameter p
// comes first in the block); `one` is channel a written without channels.
const char *const Source = R"(
param p = 4
integrand two(x in [0, 1]^2) {
    channel a { return 1 }
    channel b { return p * alpha(b) }
}
integrand one(x in [0, 1]^2) = 1
)";

constexpr unsigned Dim = 2, Ninc = 4, Nstrat = 2, PerCube = 8;
constexpr unsigned Cubes = Nstrat * Nstrat, Samples = Cubes * PerCube;
constexpr unsigned Stride = VF_SEGMENT_STRIDE(1);

/// What one tile of every sample wrote.
struct TileRun {
  std::vector<double> Segments = std::vector<double>(Cubes * Stride);
  std::vector<double> Edge = std::vector<double>(2 * Stride);
  std::vector<double> Train = std::vector<double>(2 * Dim * Ninc);
  vf_tile_result Result{};
  /// Hypercube H's segment: the tile's first and last are its edge
  /// segments, the others lie inside it.
  const double *segment(unsigned H) const {
    return H == 0           ? Edge.data()
           : H == Cubes - 1 ? Edge.data() + Stride
                            : Segments.data() + H * Stride;
  }
};

/// \p Tile over the unit square's uniform map, one tile, channel \p Channel.
TileRun runTile(vf_sample_tile_fn Tile, unsigned Channel) {
  static const std::vector<double> Edges = {0, 0.25, 0.5, 0.75, 1,
                                            0, 0.25, 0.5, 0.75, 1};
  static const std::vector<double> Lo = {0, 0}, Width = {1, 1};
  static const std::vector<double> Params = {4, 0.5, 0.5};
  static const std::vector<vf_u64> Offsets = {0, 8, 16, 24, 32};
  vf_sampler_args A =
      mappedArgs(0x5eed, 3, Dim, Ninc, Nstrat, Edges, Lo, Width);
  A.train = 1;
  A.nhcube = Cubes;
  A.nsamples = Samples;
  A.tile_size = Samples;
  A.hcube_offsets = Offsets.data();
  A.params = Params.data();
  A.channel = Channel;
  TileRun R;
  vf_tile_outputs Out{
      R.Segments.data(), R.Edge.data(), R.Train.data(), &R.Result,
      nullptr,           nullptr,       nullptr};
  Tile(&A, 0, &Out);
  return R;
}

TEST(ChannelKernelTest, TheTileRunsTheChannelItsArgumentsName) {
  std::unique_ptr<Program> P = loadProgram(Source);
  ASSERT_TRUE(P);
  auto C = Compiler::create();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  CompileOptions O;
  O.UseCache = false;
  auto CM = (*C)->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  const CompiledIntegrand *Two = (*CM)->find("two"), *One = (*CM)->find("one");
  ASSERT_TRUE(Two && One && Two->SampleTile && One->SampleTile);

  const TileRun A = runTile(Two->SampleTile, 0),
                B = runTile(Two->SampleTile, 1);
  const TileRun Plain = runTile(One->SampleTile, 0);
  // Segment {n, shift, sum of deviations, sum of squares}: a constant term
  // is its own shift.
  for (unsigned H = 0; H < Cubes; ++H) {
    EXPECT_EQ(A.segment(H)[0], PerCube) << H;
    EXPECT_EQ(A.segment(H)[1], 1.0) << H;
    EXPECT_EQ(B.segment(H)[1], 2.0) << H;
    EXPECT_EQ(B.segment(H)[2], 0.0) << H;
  }
  // Channel 0's samples are those of the integrand without channels.
  EXPECT_EQ(A.Segments, Plain.Segments);
  EXPECT_EQ(A.Edge, Plain.Edge);
  EXPECT_EQ(A.Train, Plain.Train);
  // Channel 1's land in other increments: the weights 1/n_h per increment
  // (the odd slots) differ, though each axis's still add up to 32/8.
  std::vector<double> WeightsA, WeightsB;
  for (unsigned K = 1; K < A.Train.size(); K += 2) {
    WeightsA.push_back(A.Train[K]);
    WeightsB.push_back(B.Train[K]);
  }
  EXPECT_NE(WeightsA, WeightsB);
  double SumB = 0;
  for (unsigned K = 0; K < Ninc; ++K)
    SumB += WeightsB[K];
  EXPECT_EQ(SumB, double(Samples) / PerCube);
  // A channel the integrand does not have: the tile does nothing.
  const TileRun None = runTile(Two->SampleTile, 2);
  EXPECT_EQ(None.Edge, std::vector<double>(2 * Stride));
}

} // namespace
