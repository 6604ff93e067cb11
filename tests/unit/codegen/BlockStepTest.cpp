//===- tests/unit/codegen/BlockStepTest.cpp - The block step's two forms --===//
//
// The host kernel adds a block's samples to their segments lane-parallel
// or run by run, as the CPU's calibration chose
// (backends/BlockStepCalibration.h): a module forced to either form, and
// one left to the calibration, integrate a d = 8 lepage integrand, and a
// two-output one, to the same bits (estimates, errors, chi2 and the
// adapted map); the forced forms are different code; the form is part of
// the compile cache's key, which names it only where it is not the old
// rule's. The calibration's own cache entry is written, reused without
// measuring again, and an entry that cannot be read or parsed is measured
// again and replaced.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/BlockStepCalibration.h"
#include "backends/BlockStepTiming.h"
#include "backends/CompileCache.h"
#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "vf/Integrator.h"

#include <gtest/gtest.h>

#include <fstream>

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

/// What a run computed, bit for bit.
struct Outcome {
  Result R;
  Integrator::Grid G;
};

class BlockStepTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
  }

  /// The map's form is forced, so that the block step's alone varies.
  CompileOptions options(BlockStep Form) const {
    CompileOptions O;
    O.CacheDir = Dir.path();
    O.MapForm = MapLoads::Pairs;
    O.BlockForm = Form;
    return O;
  }

  std::unique_ptr<CompiledModule> compile(const Program &P, BlockStep Form) {
    auto CM = TheCompiler->compile(P, options(Form));
    if (!CM) {
      ADD_FAILURE() << llvm::toString(CM.takeError());
      return nullptr;
    }
    return std::move(*CM);
  }

  /// Three iterations of 20000 samples of \p Source on \p Threads threads.
  Outcome integrate(const char *Source, BlockStep Form, unsigned Threads = 1) {
    std::unique_ptr<Program> P = loadProgram(Source);
    std::unique_ptr<CompiledModule> CM = P ? compile(*P, Form) : nullptr;
    if (!CM)
      return {};
    IntegratorOptions O;
    O.Threads = Threads;
    O.Seed = 11;
    auto I = Integrator::create(
        bindIntegrand(*P, *CM, *P->Integrands[0], nullptr, options(Form)), O);
    EXPECT_TRUE(static_cast<bool>(I)) << I.error().Message;
    if (!I)
      return {};
    auto R = (*I)->run(3, 20000, 0);
    EXPECT_TRUE(static_cast<bool>(R)) << R.error().Message;
    if (!R)
      return {};
    return {*R, (*I)->grid()};
  }

  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
};

void expectSameBits(const Outcome &A, const Outcome &B, size_t Outputs) {
  ASSERT_EQ(A.R.Mean.size(), Outputs);
  ASSERT_EQ(B.R.Mean.size(), Outputs);
  EXPECT_EQ(A.R.Mean, B.R.Mean);
  EXPECT_EQ(A.R.Error, B.R.Error);
  EXPECT_EQ(A.R.Chi2Dof, B.R.Chi2Dof);
  ASSERT_EQ(A.G.Edges.size(), 8u * (A.G.Ninc + 1));
  EXPECT_EQ(A.G.Edges, B.G.Edges);
  EXPECT_EQ(A.G.Samples, B.G.Samples);
}

TEST_F(BlockStepTest, EveryFormGivesTheSameBits) {
  const Outcome Runs = integrate(Lepage8, BlockStep::Runs);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Lanes), 1);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Auto), 1);
  expectSameBits(Runs, integrate(Lepage8, BlockStep::Lanes, 2), 1);
  // The map has adapted, so the hypercubes' runs are of many lengths.
  EXPECT_NE(Runs.G.Edges[1], Runs.G.Edges[2] - Runs.G.Edges[1]);
}

TEST_F(BlockStepTest, EveryFormGivesTheSameBitsWithTwoOutputs) {
  const Outcome Runs = integrate(Moments8, BlockStep::Runs);
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

/// A measurement that counts its calls and chooses the lanes.
struct CountingMeasure {
  unsigned Calls = 0;
  BlockStepChoice operator()() {
    ++Calls;
    BlockStepChoice C;
    C.Form = BlockStep::Lanes;
    C.Isa = VectorIsa::Avx2;
    C.RunsNs = 1.5;
    C.LanesNs = 1.25;
    return C;
  }
};

TEST(BlockStepCalibration, CachedReusedAndMeasuredAgainWhenUnreadable) {
  TempDir Dir;
  CountingMeasure M;
  auto calibrate = [&] {
    return calibrateBlockSteps(Dir.path(), [&] { return M(); });
  };
  const BlockStepChoice First = calibrate();
  EXPECT_EQ(M.Calls, 1u);
  EXPECT_FALSE(First.FromCache);
  const std::vector<std::string> Files = Dir.files(".calibration");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_NE(Files[0].find(blockStepCacheKey()), std::string::npos);

  // Reused: read back, not measured.
  const BlockStepChoice Second = calibrate();
  EXPECT_EQ(M.Calls, 1u);
  EXPECT_TRUE(Second.FromCache);
  EXPECT_EQ(Second.Form, BlockStep::Lanes);
  EXPECT_EQ(Second.Isa, VectorIsa::Avx2);
  EXPECT_EQ(Second.RunsNs, 1.5);
  EXPECT_EQ(Second.LanesNs, 1.25);
  EXPECT_NE(Second.reason().find("(AVX2, cached): runs 1.50 ns, lanes 1.25 ns"),
            std::string::npos)
      << Second.reason();

  // A damaged entry (its hash no longer matches) is measured again and
  // replaced.
  std::ofstream(Files[0], std::ios::binary | std::ios::trunc) << "garbage";
  EXPECT_FALSE(calibrate().FromCache);
  EXPECT_EQ(M.Calls, 2u);
  EXPECT_TRUE(calibrate().FromCache);
  EXPECT_EQ(M.Calls, 2u);

  // So is an intact entry whose payload is no choice.
  for (const char *Bad :
       {"wide avx2 1 2", "lanes avx2 1", "runs avx2 -1 2", "runs avx2 1 x",
        "runs sse 1 2", "runs 1 2", "lanes avx2 inf 2"}) {
    CompileCache(Dir.path()).store(blockStepCacheKey(), "calibration", Bad);
    const unsigned Before = M.Calls;
    EXPECT_FALSE(calibrate().FromCache) << Bad;
    EXPECT_EQ(M.Calls, Before + 1) << Bad;
  }
  EXPECT_TRUE(calibrate().FromCache);
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
