//===- tests/unit/codegen/UnitBoxTest.cpp - The unit cube's form ----------===//
//
// Where an integrand's box is the unit cube whatever its parameters (each
// interval [0, 1] in constants, or infinite, which is sampled as [0, 1]),
// the host kernel takes the map's points as they are, without the box's
// scaling (runtime/kernels/ChannelX8.h, the vf_user_unit_box hole). The
// compiler reads that from the domain; the box the runtime then gets is
// the unit cube, and an integrator refuses to run the kernel on another;
// the kernel is smaller; and an integrand gives the same bits in that
// form as in the general one, which the same integrand over [0, 1 + z]^8
// at z = 0 takes (in double and in single precision).
//
//===----------------------------------------------------------------------===//

#include "EngineForms.h"

#include "backends/ProgramImage.h"

using namespace vf;
using namespace vf::test;

namespace {

/// lepage8 over \p Box (the domain after `x in`), with \p Params declared
/// before it.
std::string lepage8(const std::string &Params, const std::string &Box) {
  return Params + "param a = 0.1\nintegrand f(x in " + Box +
         ") =\n    prod(i in 0..8: exp(-(x[i] - 0.5)^2 / a^2) / (a * "
         "sqrt(pi)))\n";
}

class UnitBoxTest : public EngineFormsTest {};

TEST_F(UnitBoxTest, TheCompilerReadsItFromTheDomain) {
  const struct {
    const char *Params, *Box;
    bool Unit;
  } Cases[] = {
      {"", "[0, 1]^8", true},
      {"", "[0, 1]^4 * [0, inf]^2 * [-inf, inf] * [-inf, 0]", true},
      {"", "[2 - 2, 3 - 2]^8", true},
      {"", "[-0, 1]^8", true},
      {"param s = 2\n", "[0, 1]^7 * [0, inf; s]", true},
      {"", "[0, 1]^7 * [0, 2]", false},
      {"", "[0, 1]^7 * [1, 2]", false},
      {"", "[0.5, 1.5] * [0, 1]^7", false},
      {"param z = 0\n", "[0, 1 + z]^8", false},
      {"param z = 0\n", "[z, 1]^8", false},
  };
  for (const auto &C : Cases) {
    std::unique_ptr<Program> P = loadProgram(lepage8(C.Params, C.Box));
    ASSERT_NE(P, nullptr) << C.Box;
    EXPECT_EQ(imageOf(*P).Integrands[0].UnitBox, C.Unit) << C.Box;
    if (!C.Unit)
      continue;
    // The runtime's box, at the defaults and at other values, is the unit
    // cube the kernel assumes.
    std::unique_ptr<CompiledModule> CM = compile(*P, cachedOptions());
    ASSERT_NE(CM, nullptr) << C.Box;
    const IntegrandInfo Info =
        bindIntegrand(*P, *CM, *P->Integrands[0], nullptr, cachedOptions());
    for (double S : {0.25, 2.0, 7.0}) {
      std::vector<double> Params = Info.ParamDefaults, Lo, Hi;
      Params.front() = S;
      ASSERT_TRUE(static_cast<bool>(Info.Domain(Params, Lo, Hi))) << C.Box;
      ASSERT_EQ(Lo.size(), 8u);
      EXPECT_EQ(Lo, std::vector<double>(8, 0.0)) << C.Box;
      EXPECT_EQ(Hi, std::vector<double>(8, 1.0)) << C.Box;
    }
  }
}

TEST_F(UnitBoxTest, ItsFormGivesTheGeneralFormsBits) {
  std::unique_ptr<Program> Unit = loadProgram(lepage8("", "[0, 1]^8"));
  std::unique_ptr<Program> General =
      loadProgram(lepage8("param z = 0\n", "[0, 1 + z]^8"));
  ASSERT_TRUE(Unit && General);
  for (bool Single : {false, true}) {
    CompileOptions O = cachedOptions();
    O.Single = Single;
    const FormOutcome U = integrate(*Unit, O, 1, 7);
    expectSameBits(U, integrate(*General, O, 1, 7), 1);
    expectSameBits(U, integrate(*General, O, 2, 7), 1);
    // The map has adapted, so x lies all over the box.
    EXPECT_NE(U.G.Edges[1], U.G.Edges[2] - U.G.Edges[1]);
  }
}

// The kernel would ignore a box other than the one it was compiled for:
// an integrator refuses to run it on one (a Domain replaced by hand).
TEST_F(UnitBoxTest, AnotherBoxIsRefused) {
  std::unique_ptr<Program> P = loadProgram(lepage8("", "[0, 1]^8"));
  ASSERT_NE(P, nullptr);
  std::unique_ptr<CompiledModule> CM = compile(*P, cachedOptions());
  ASSERT_NE(CM, nullptr);
  IntegrandInfo Info =
      bindIntegrand(*P, *CM, *P->Integrands[0], nullptr, cachedOptions());
  Info.Domain = [](std::span<const double>, std::vector<double> &Lo,
                   std::vector<double> &Hi) {
    Lo.assign(8, 0.0);
    Hi.assign(8, 1.0);
    Hi[3] = 2.0;
    return Status::ok();
  };
  IntegratorOptions IO;
  IO.Threads = 1;
  auto I = Integrator::create(Info, IO);
  ASSERT_TRUE(static_cast<bool>(I)) << I.error().Message;
  auto R = (*I)->run(1, 10000, 0);
  ASSERT_FALSE(static_cast<bool>(R));
  EXPECT_NE(R.error().Message.find("[0, 2] for x[3]"), std::string::npos)
      << R.error().Message;
  EXPECT_NE(R.error().Message.find("unit cube"), std::string::npos);
}

TEST_F(UnitBoxTest, ItsKernelLeavesTheScalingOut) {
  const auto instructions = [&](const std::string &Source) {
    std::unique_ptr<Program> P = loadProgram(Source);
    EXPECT_NE(P, nullptr);
    if (!P)
      return std::size_t(0);
    auto Asm = TheCompiler->emitText(*P, EmitKind::Asm, cachedOptions());
    EXPECT_TRUE(static_cast<bool>(Asm)) << llvm::toString(Asm.takeError());
    return Asm ? std::size_t(std::count(Asm->begin(), Asm->end(), '\n'))
               : std::size_t(0);
  };
  // Two operations per axis and eight lanes, 32 for the step's sixteen
  // samples of eight axes (16 instructions where each folds its broadcast
  // and AVX-512 holds eight lanes); the boxes differ in a constant only.
  EXPECT_LE(instructions(lepage8("", "[0, 1]^8")) + 16,
            instructions(lepage8("", "[0, 2]^8")));
}

} // namespace
