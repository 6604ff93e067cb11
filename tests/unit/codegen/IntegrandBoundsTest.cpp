//===- tests/unit/codegen/IntegrandBoundsTest.cpp - Compiled bounds -------===//
//
// An integrand's parameter-dependent domain and histogram ranges come from
// compiled code (vf_bounds_NAME) and are checked without the program
// (backends/IntegrandBounds.h): a binding whose Program has been freed
// still finds its box, its ranges and its errors at their source places,
// and integrates, resumes and samples events.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/IntegrandBinding.h"
#include "vf/Integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace vf;
using namespace vf::test;

namespace {

// Line 4 holds the finite interval (column 18) and the infinite one's
// scale (column 36), line 5 the histogram (column 5).
const char *const Source = R"(param a = 0.5
param b = 2
param s = 3
integrand f(x in [a, b] * [0, inf; s + 0]) {
    hist h(x[0], a - 1, b * 2, 10)
    return exp(-x[1]) * x[0]
}
)";

class IntegrandBoundsTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    std::shared_ptr<const Program> P = loadProgram(Source);
    ASSERT_TRUE(P);
    CompileOptions O;
    O.CacheDir = Dir.path();
    O.Evaluate = false; // as vf::Module compiles for integrating
    auto CM = TheCompiler->compile(*P, O);
    ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
    Code = std::move(*CM);
    // Bound as vf::Module binds, with a compiler for the GPU code it may
    // need later: the binding keeps nothing of the program.
    Info =
        bindIntegrand(*P, *Code, *P->findIntegrand("f"), TheCompiler.get(), O);
    std::weak_ptr<const Program> Weak = P;
    P.reset();
    ASSERT_TRUE(Weak.expired()) << "the binding holds the Program";
  }

  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
  std::unique_ptr<CompiledModule> Code;
  IntegrandInfo Info;
};

TEST_F(IntegrandBoundsTest, BoxAndRangesComeFromCompiledCode) {
  std::vector<double> Lo, Hi, Ranges;
  const std::vector<double> Params{0.25, 4.0, 1.5};
  ASSERT_TRUE(Info.Domain(Params, Lo, Hi));
  EXPECT_EQ(Lo, (std::vector<double>{0.25, 0.0}));
  EXPECT_EQ(Hi, (std::vector<double>{4.0, 1.0}));
  ASSERT_TRUE(Info.HistRanges(Params, Ranges));
  EXPECT_EQ(Ranges, (std::vector<double>{0.25 - 1, 8.0}));
}

TEST_F(IntegrandBoundsTest, ErrorsNameTheSourcePlace) {
  std::vector<double> Lo, Hi, Ranges;
  Status Inverted = Info.Domain(std::vector<double>{3, 2, 1}, Lo, Hi);
  ASSERT_FALSE(Inverted);
  EXPECT_NE(Inverted.message().find("test.vf:4:18: the interval [3, 2] of "
                                    "integrand 'f' is empty"),
            std::string::npos)
      << Inverted.message();
  Status Scale = Info.Domain(std::vector<double>{0.5, 2, -3}, Lo, Hi);
  ASSERT_FALSE(Scale);
  EXPECT_NE(Scale.message().find("test.vf:4:36: the scale -3 of an "
                                 "infinite interval"),
            std::string::npos)
      << Scale.message();
  const double Huge = std::numeric_limits<double>::max();
  Status Wide =
      Info.HistRanges(std::vector<double>{-Huge, Huge / 2, 1}, Ranges);
  ASSERT_FALSE(Wide);
  EXPECT_NE(Wide.message().find("test.vf:5:5: the range"), std::string::npos)
      << Wide.message();
  EXPECT_NE(Wide.message().find("hi - lo overflows"), std::string::npos);
}

TEST_F(IntegrandBoundsTest, IntegratesResumesAndSamplesWithoutTheProgram) {
  IntegratorOptions O;
  O.Threads = 2;
  auto First = Integrator::create(Info, O);
  ASSERT_TRUE(static_cast<bool>(First)) << First.error().Message;
  ASSERT_TRUE((*First)->run(2, 20000));
  const std::string State = Dir.path() + "/state.vfstate";
  ASSERT_TRUE((*First)->saveState(State));
  auto Whole = (*First)->extend(4);
  ASSERT_TRUE(static_cast<bool>(Whole)) << Whole.error().Message;

  auto Again = Integrator::create(Info, O);
  ASSERT_TRUE(static_cast<bool>(Again));
  ASSERT_TRUE((*Again)->loadState(State));
  auto Resumed = (*Again)->run(4, 20000);
  ASSERT_TRUE(static_cast<bool>(Resumed)) << Resumed.error().Message;
  // exp(-y) x over [0.5, 2] x [0, inf): 1.875.
  EXPECT_EQ(Resumed->Mean[0], Whole->Mean[0]);
  EXPECT_NEAR(Whole->Mean[0], 1.875, 5 * Whole->Error[0]);

  (*Again)->freeze();
  std::uint64_t Events = 0;
  double Sum = 0;
  ASSERT_TRUE((*Again)->sample(1000, [&](const EventBatch &B) {
    Events += B.N;
    for (std::size_t K = 0; K < B.N; ++K)
      Sum += B.Weight[K];
  }));
  EXPECT_EQ(Events, 1000u);
  EXPECT_TRUE(std::isfinite(Sum) && Sum > 0);
}

} // namespace
