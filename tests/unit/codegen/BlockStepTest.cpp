//===- tests/unit/codegen/BlockStepTest.cpp - The block step's two forms --===//
//
// The host kernel adds a block's samples to their segments lane-parallel
// or run by run, as the CPU's calibration chose
// (backends/BlockStepCalibration.h): a module forced to either form, and
// one left to the calibration, integrate a d = 8 lepage integrand, and a
// two-output one, to the same bits (estimates, errors, chi2 and the
// adapted map); the forced forms are different code; the form is part of
// the compile cache's key, which names it only where it is not the old
// rule's. The calibration's own cache entry is written and reused without
// measuring again.
//
//===----------------------------------------------------------------------===//

#include "EngineForms.h"

#include "backends/BlockStepCalibration.h"
#include "backends/BlockStepTiming.h"

using namespace vf;
using namespace vf::test;

namespace {

const char *const Lepage8 = R"(
param a = 0.1
integrand f(x in [0, 1]^8) =
    prod(i in 0..8: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
)";

/// Two outputs: the block step's terms are then S_0, S_1 and three
/// products.
const char *const Moments8 = R"(
param a = 0.1
integrand f(x in [0, 1]^8) -> [2] {
    let w = prod(i in 0..8: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
    return [w, w * x[0]]
}
)";

class BlockStepTest : public EngineFormsTest {
protected:
  /// The map's form is forced, so that the block step's alone varies.
  CompileOptions options(BlockStep Form) const {
    CompileOptions O = cachedOptions();
    O.MapForm = MapLoads::Pairs;
    O.BlockForm = Form;
    return O;
  }

  std::unique_ptr<CompiledModule> compile(const Program &P, BlockStep Form) {
    return EngineFormsTest::compile(P, options(Form));
  }

  /// Three iterations of 20000 samples of \p Source on \p Threads threads.
  FormOutcome integrate(const char *Source, BlockStep Form,
                        unsigned Threads = 1) {
    std::unique_ptr<Program> P = loadProgram(Source);
    if (!P)
      return {};
    return EngineFormsTest::integrate(*P, options(Form), Threads, 11);
  }
};

TEST_F(BlockStepTest, EveryFormGivesTheSameBits) {
  const FormOutcome Runs = integrate(Lepage8, BlockStep::Runs);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Lanes), 1);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Auto), 1);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Lanes, 2), 1);
  // The map has adapted, so the hypercubes' runs are of many lengths.
  EXPECT_NE(Runs.G.Edges[1], Runs.G.Edges[2] - Runs.G.Edges[1]);
}

TEST_F(BlockStepTest, EveryFormGivesTheSameBitsWithTwoOutputs) {
  const FormOutcome Runs = integrate(Moments8, BlockStep::Runs);
  expectSameBits(Runs, integrate(Moments8, BlockStep::Lanes), 2);
  expectSameBits(Runs, integrate(Moments8, BlockStep::Auto), 2);
  EXPECT_NE(Runs.R.Mean[0], Runs.R.Mean[1]);
}

TEST_F(BlockStepTest, ForcedFormsAreDifferentCode) {
  std::unique_ptr<Program> P = loadProgram(Lepage8);
  ASSERT_NE(P, nullptr);
  auto asmOf = [&](BlockStep Form) {
    auto Text = TheCompiler->emitText(*P, EmitKind::Asm, options(Form));
    EXPECT_TRUE(static_cast<bool>(Text)) << llvm::toString(Text.takeError());
    return Text ? *Text : std::string();
  };
  const std::string Runs = asmOf(BlockStep::Runs);
  EXPECT_FALSE(Runs.empty());
  EXPECT_NE(Runs, asmOf(BlockStep::Lanes));
}

TEST_F(BlockStepTest, FormIsPartOfTheCacheKey) {
  std::unique_ptr<Program> P = loadProgram(Lepage8);
  ASSERT_NE(P, nullptr);
  EXPECT_FALSE(compile(*P, BlockStep::Runs)->HostFromCache);
  EXPECT_FALSE(compile(*P, BlockStep::Lanes)->HostFromCache);
  EXPECT_TRUE(compile(*P, BlockStep::Lanes)->HostFromCache);
  EXPECT_TRUE(compile(*P, BlockStep::Runs)->HostFromCache);
  // The calibrated form shares its entry with the same form forced.
  EXPECT_TRUE(compile(*P, BlockStep::Auto)->HostFromCache);
}

/// The calibration's entry is written once, then read back, not measured
/// (CpuCalibration.h; MapLoadsTest for an unreadable one).
TEST(BlockStepCalibration, CachedAndReused) {
  TempDir Dir;
  unsigned Calls = 0;
  auto calibrate = [&] {
    return calibrateBlockSteps(Dir.path(), [&] {
      ++Calls;
      return BlockStepChoice{BlockStep::Lanes, VectorIsa::Avx2, 1.5, 1.25};
    });
  };
  EXPECT_FALSE(calibrate().FromCache);
  const BlockStepChoice Again = calibrate();
  EXPECT_EQ(Calls, 1u);
  EXPECT_TRUE(Again.FromCache);
  EXPECT_EQ(Again.Form, BlockStep::Lanes);
  EXPECT_EQ(Again.Isa, VectorIsa::Avx2);
  EXPECT_NE(Again.reason().find("(AVX2, cached): runs 1.50 ns, lanes 1.25 ns"),
            std::string::npos)
      << Again.reason();
  EXPECT_NE(Dir.files(".calibration")[0].find(blockStepCacheKey()),
            std::string::npos);
}

TEST(BlockStepCalibration, MeasuresThisCpuOrSaysWhyNot) {
  const BlockStepChoice C = measureBlockSteps();
  EXPECT_FALSE(C.FromCache);
  if (C.Isa == VectorIsa::None) {
    EXPECT_EQ(C.Form, BlockStep::Runs);
    EXPECT_NE(C.reason().find("not measured"), std::string::npos);
    return;
  }
  EXPECT_EQ(C.Isa, jitVectors());
  EXPECT_GT(C.RunsNs, 0);
  EXPECT_GT(C.LanesNs, 0);
  // The rule: lanes only where they beat the runs by 3%.
  EXPECT_EQ(C.Form == BlockStep::Lanes, C.LanesNs < 0.97 * C.RunsNs);
  EXPECT_NE(C.reason().find("measured on this CPU"), std::string::npos)
      << C.reason();
}

// Both instruction sets' passes run where the CPU has them (an AVX-512
// CPU measures in AVX-512 only, so AVX2's would otherwise never run here).
TEST(BlockStepCalibration, EachInstructionSetTimesBothForms) {
  for (vf_timing_isa Isa : {VF_TIMING_AVX2, VF_TIMING_AVX512}) {
    const bool Has = Isa == VF_TIMING_AVX512
                         ? __builtin_cpu_supports("avx512f") &&
                               __builtin_cpu_supports("avx512bw")
                         : __builtin_cpu_supports("avx2");
    double Runs = 0, Lanes = 0;
    EXPECT_EQ(vf_time_block_steps(Isa, &Runs, &Lanes), Has ? 1 : 0);
    EXPECT_EQ(Runs > 0, Has);
    EXPECT_EQ(Lanes > 0, Has);
  }
}

} // namespace
