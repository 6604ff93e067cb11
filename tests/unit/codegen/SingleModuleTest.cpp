//===- tests/unit/codegen/SingleModuleTest.cpp - A module in f32 only ----===//
//
// CompileSettings::Single compiles a module's integrands in single
// precision only (vegasc --precision f32 knows before compiling): its
// integrands' code is the one a double module compiles on demand
// (IntegrandInfo::Single), so both give the same bits; an integrator set
// up for double refuses it, naming the option.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "vf/Integrator.h"
#include "vf/Module.h"

#include <gtest/gtest.h>

using namespace vf;
using namespace vf::test;

namespace {

const char *const Source = R"(
param a = 0.2
integrand g(x in [0, 1]^3) = prod(i in 0..3: exp(-(x[i] - 0.5)^2 / a^2))
)";

IntegrandInfo compiled(const TempDir &Dir, bool Single) {
  CompileSettings S;
  S.CacheDir = Dir.path();
  S.Single = Single;
  auto M = Module::compileString(Source, "g.vf", S);
  EXPECT_TRUE(static_cast<bool>(M)) << M.error().Message;
  auto I = (*M)->integrand("g");
  EXPECT_TRUE(static_cast<bool>(I)) << I.error().Message;
  return *I;
}

Result run(IntegrandInfo I, Precision P) {
  IntegratorOptions O;
  O.Threads = 1;
  O.Arithmetic = P;
  auto Int = Integrator::create(std::move(I), O);
  EXPECT_TRUE(static_cast<bool>(Int)) << Int.error().Message;
  auto R = (*Int)->run(2, 4000, 1);
  EXPECT_TRUE(static_cast<bool>(R)) << R.error().Message;
  return *R;
}

TEST(SingleModule, IsTheOnDemandCodeAndRefusesDouble) {
  TempDir Dir;
  IntegrandInfo Only = compiled(Dir, true), Both = compiled(Dir, false);
  EXPECT_TRUE(Only.SingleCode);
  EXPECT_FALSE(Only.Single); // nothing more to compile
  EXPECT_FALSE(Both.SingleCode);
  ASSERT_TRUE(static_cast<bool>(Both.Single));
  const Result A = run(Only, Precision::F32), B = run(Both, Precision::F32);
  EXPECT_EQ(A.Arithmetic, Precision::F32);
  EXPECT_EQ(A.Mean, B.Mean);
  EXPECT_EQ(A.Error, B.Error);
  EXPECT_NE(run(Both, Precision::F64).Mean, A.Mean);
  IntegratorOptions O;
  auto Refused = Integrator::create(Only, O);
  ASSERT_FALSE(static_cast<bool>(Refused));
  EXPECT_EQ(Refused.error().Option, "precision");
  EXPECT_NE(Refused.error().Message.find("single precision only"),
            std::string::npos)
      << Refused.error().Message;
}

} // namespace
