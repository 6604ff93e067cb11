//===- tests/unit/codegen/MapLoadsTest.cpp - The map's two forms ----------===//
//
// The host kernel loads an increment's two edges in pairs or gathered, as
// the CPU's calibration chose (backends/MapLoadCalibration.h): a module
// forced to either form, and one left to the calibration, integrate a
// d = 8 lepage integrand to the same bits (estimate, error, chi2 and the
// adapted map); the forced gathers are gather instructions on a CPU with
// AVX-512 (else the bits are all the test can see); the form is part of
// the compile cache's key. The calibration's own cache entry is written,
// reused without measuring again, and an entry that cannot be read or
// parsed is measured again and replaced.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/CompileCache.h"
#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "backends/MapLoadCalibration.h"
#include "backends/MapLoadTiming.h"
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

/// What a run computed, bit for bit.
struct Outcome {
  Result R;
  Integrator::Grid G;
};

class MapLoadsTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    P = loadProgram(Lepage8);
    ASSERT_NE(P, nullptr);
  }

  CompileOptions options(MapLoads Form) const {
    CompileOptions O;
    O.CacheDir = Dir.path();
    O.MapForm = Form;
    return O;
  }

  std::unique_ptr<CompiledModule> compile(MapLoads Form) {
    auto CM = TheCompiler->compile(*P, options(Form));
    if (!CM) {
      ADD_FAILURE() << llvm::toString(CM.takeError());
      return nullptr;
    }
    return std::move(*CM);
  }

  /// Three iterations of 20000 samples on \p Threads threads.
  Outcome integrate(MapLoads Form, unsigned Threads = 1) {
    std::unique_ptr<CompiledModule> CM = compile(Form);
    if (!CM)
      return {};
    IntegratorOptions O;
    O.Threads = Threads;
    O.Seed = 7;
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
  std::unique_ptr<Program> P;
};

void expectSameBits(const Outcome &A, const Outcome &B) {
  ASSERT_EQ(A.R.Mean.size(), 1u);
  ASSERT_EQ(B.R.Mean.size(), 1u);
  EXPECT_EQ(A.R.Mean, B.R.Mean);
  EXPECT_EQ(A.R.Error, B.R.Error);
  EXPECT_EQ(A.R.Chi2Dof, B.R.Chi2Dof);
  ASSERT_EQ(A.G.Edges.size(), 8u * (A.G.Ninc + 1));
  EXPECT_EQ(A.G.Edges, B.G.Edges);
  EXPECT_EQ(A.G.Samples, B.G.Samples);
}

TEST_F(MapLoadsTest, EveryFormGivesTheSameBits) {
  const Outcome Pairs = integrate(MapLoads::Pairs);
  const Outcome Gathers = integrate(MapLoads::Gathers);
  const Outcome Chosen = integrate(MapLoads::Auto);
  expectSameBits(Pairs, Gathers);
  expectSameBits(Pairs, Chosen);
  expectSameBits(Pairs, integrate(MapLoads::Gathers, 2));
  // The map has adapted, so the lookups read increments of every width.
  EXPECT_NE(Pairs.G.Edges[1], Pairs.G.Edges[2] - Pairs.G.Edges[1]);
}

TEST_F(MapLoadsTest, ForcedGathersAreGatherInstructions) {
  if (jitGathers() == GatherIsa::None)
    GTEST_SKIP() << "the JIT emits the gathers as scalar loads on this CPU";
  auto asmOf = [&](MapLoads Form) {
    auto Text = TheCompiler->emitText(*P, EmitKind::Asm, options(Form));
    EXPECT_TRUE(static_cast<bool>(Text)) << llvm::toString(Text.takeError());
    return Text ? *Text : std::string();
  };
  auto gathers = [](const std::string &Asm) {
    unsigned N = 0;
    for (size_t At = Asm.find("vgather"); At != std::string::npos;
         At = Asm.find("vgather", At + 1))
      ++N;
    return N;
  };
  // Two per axis and eight-lane vector beyond what the pairs' code has
  // (the vectorizer makes gathers of its own elsewhere).
  const unsigned Gathers = gathers(asmOf(MapLoads::Gathers));
  const unsigned Pairs = gathers(asmOf(MapLoads::Pairs));
  EXPECT_GE(Gathers, Pairs + 2 * 8) << Pairs;
}

TEST_F(MapLoadsTest, FormIsPartOfTheCacheKey) {
  EXPECT_FALSE(compile(MapLoads::Pairs)->HostFromCache);
  EXPECT_FALSE(compile(MapLoads::Gathers)->HostFromCache);
  EXPECT_TRUE(compile(MapLoads::Gathers)->HostFromCache);
  EXPECT_TRUE(compile(MapLoads::Pairs)->HostFromCache);
}

/// A measurement that counts its calls and chooses the gathers.
struct CountingMeasure {
  unsigned Calls = 0;
  MapLoadChoice operator()() {
    ++Calls;
    MapLoadChoice C;
    C.Form = MapLoads::Gathers;
    C.Isa = GatherIsa::Avx2;
    C.PairsNs = 3.5;
    C.GathersNs = 2.25;
    return C;
  }
};

TEST(MapLoadCalibration, CachedReusedAndMeasuredAgainWhenUnreadable) {
  TempDir Dir;
  CountingMeasure M;
  auto calibrate = [&] {
    return calibrateMapLoads(Dir.path(), [&] { return M(); });
  };
  const MapLoadChoice First = calibrate();
  EXPECT_EQ(M.Calls, 1u);
  EXPECT_FALSE(First.FromCache);
  const std::vector<std::string> Files = Dir.files(".calibration");
  ASSERT_EQ(Files.size(), 1u);
  EXPECT_NE(Files[0].find(mapLoadsCacheKey()), std::string::npos);

  // Reused: read back, not measured.
  const MapLoadChoice Second = calibrate();
  EXPECT_EQ(M.Calls, 1u);
  EXPECT_TRUE(Second.FromCache);
  EXPECT_EQ(Second.Form, MapLoads::Gathers);
  EXPECT_EQ(Second.Isa, GatherIsa::Avx2);
  EXPECT_EQ(Second.PairsNs, 3.5);
  EXPECT_EQ(Second.GathersNs, 2.25);
  EXPECT_NE(Second.reason().find("(AVX2, cached): 16-byte loads 3.50 ns, "
                                 "gathers 2.25 ns"),
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
  for (const char *Bad : {"fast avx2 1 2", "gathers avx2 1", "pairs avx2 -1 2",
                          "pairs avx2 1 x", "pairs sse 1 2", "pairs 1 2"}) {
    CompileCache(Dir.path()).store(mapLoadsCacheKey(), "calibration", Bad);
    const unsigned Before = M.Calls;
    EXPECT_FALSE(calibrate().FromCache) << Bad;
    EXPECT_EQ(M.Calls, Before + 1) << Bad;
  }
  EXPECT_TRUE(calibrate().FromCache);
}

TEST(MapLoadCalibration, MeasuresThisCpuOrSaysWhyNot) {
  const MapLoadChoice C = measureMapLoads();
  EXPECT_FALSE(C.FromCache);
  EXPECT_EQ(C.Isa, jitGathers());
  if (C.Isa == GatherIsa::None) {
    EXPECT_EQ(C.Form, MapLoads::Pairs);
    EXPECT_NE(C.reason().find("not measured"), std::string::npos);
    return;
  }
  EXPECT_GT(C.PairsNs, 0);
  EXPECT_GT(C.GathersNs, 0);
  // The rule: gathers only where they beat the pairs by 3%.
  EXPECT_EQ(C.Form == MapLoads::Gathers, C.GathersNs < 0.97 * C.PairsNs);
  EXPECT_NE(C.reason().find("measured on this CPU"), std::string::npos)
      << C.reason();
}

// Both instruction sets' passes run where the CPU has them (an AVX-512
// CPU measures in AVX-512 only, so AVX2's would otherwise never run here).
TEST(MapLoadCalibration, EachInstructionSetTimesBothForms) {
  for (vf_timing_isa Isa : {VF_TIMING_AVX2, VF_TIMING_AVX512}) {
    const bool Has = Isa == VF_TIMING_AVX512 ? __builtin_cpu_supports("avx512f")
                                             : __builtin_cpu_supports("avx2");
    double Pairs = 0, Gathers = 0;
    EXPECT_EQ(vf_time_map_loads(Isa, &Pairs, &Gathers), Has ? 1 : 0);
    EXPECT_EQ(Pairs > 0, Has);
    EXPECT_EQ(Gathers > 0, Has);
  }
}

} // namespace
