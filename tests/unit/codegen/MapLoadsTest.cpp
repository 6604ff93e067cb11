//===- tests/unit/codegen/MapLoadsTest.cpp - The map's two forms ----------===//
//
// The host kernel loads an increment's two edges in pairs or gathered, as
// the CPU's calibration chose (backends/MapLoadCalibration.h): a module
// forced to either form, and one left to the calibration, integrate a
// d = 8 lepage integrand to the same bits (estimate, error, chi2 and the
// adapted map); the forced gathers are gather instructions on a CPU with
// AVX-512 (else the bits are all the test can see); the form is part of
// the compile cache's key. The calibration's own cache entry is written,
// reused without measuring again, and an entry that cannot be read is
// measured again (CpuCalibrationTest for the entry's forms).
//
//===----------------------------------------------------------------------===//

#include "EngineForms.h"

#include "backends/CompileCache.h"
#include "backends/MapLoadCalibration.h"
#include "backends/MapLoadTiming.h"

using namespace vf;
using namespace vf::test;

namespace {

const char *const Lepage8 = R"(
param a = 0.1
integrand f(x in [0, 1]^8) =
    prod(i in 0..8: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
)";

class MapLoadsTest : public EngineFormsTest {
protected:
  void SetUp() override {
    EngineFormsTest::SetUp();
    P = loadProgram(Lepage8);
    ASSERT_NE(P, nullptr);
  }

  CompileOptions options(MapLoads Form) const {
    CompileOptions O = cachedOptions();
    O.MapForm = Form;
    return O;
  }

  std::unique_ptr<CompiledModule> compile(MapLoads Form) {
    return EngineFormsTest::compile(*P, options(Form));
  }

  FormOutcome integrate(MapLoads Form, unsigned Threads = 1) {
    return EngineFormsTest::integrate(*P, options(Form), Threads, 7);
  }

  std::unique_ptr<Program> P;
};

TEST_F(MapLoadsTest, EveryFormGivesTheSameBits) {
  const FormOutcome Pairs = integrate(MapLoads::Pairs);
  expectSameBits(Pairs, integrate(MapLoads::Gathers), 1);
  expectSameBits(Pairs, integrate(MapLoads::Auto), 1);
  expectSameBits(Pairs, integrate(MapLoads::Gathers, 2), 1);
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

/// The calibration's entry (CpuCalibration.h, tested there for damaged
/// and unparsable entries) is written once, then read back, not measured;
/// an unreadable one is measured again.
TEST(MapLoadCalibration, CachedReusedAndMeasuredAgainWhenUnreadable) {
  TempDir Dir;
  unsigned Calls = 0;
  auto calibrate = [&] {
    return calibrateMapLoads(Dir.path(), [&] {
      ++Calls;
      return MapLoadChoice{MapLoads::Gathers, GatherIsa::Avx2, 3.5, 2.25};
    });
  };
  EXPECT_FALSE(calibrate().FromCache);
  const MapLoadChoice Again = calibrate();
  EXPECT_EQ(Calls, 1u);
  EXPECT_TRUE(Again.FromCache);
  EXPECT_EQ(Again.Form, MapLoads::Gathers);
  EXPECT_EQ(Again.Isa, GatherIsa::Avx2);
  EXPECT_EQ(Again.PairsNs, 3.5);
  EXPECT_EQ(Again.GathersNs, 2.25);
  EXPECT_NE(Again.reason().find("(AVX2, cached): 16-byte loads 3.50 ns, "
                                "gathers 2.25 ns"),
            std::string::npos)
      << Again.reason();
  CompileCache(Dir.path()).store(mapLoadsCacheKey(), "calibration", "x");
  EXPECT_FALSE(calibrate().FromCache);
  EXPECT_EQ(Calls, 2u);
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
