//===- tests/unit/codegen/TileBoxTest.cpp - The box read per batch -------===//
//
// The host tile reads the box's corner and widths once per batch through
// pointers the compiler cannot follow (runtime/kernels/Sampler.c,
// vf_batch_points), so that their broadcasts fold into the map's
// arithmetic; its loops over the axes are unrolled up to 64 axes and kept
// above. On both sides of that limit every axis must keep its own
// interval: an integrand that reads the first and the last axis of boxes
// whose axes differ integrates to its exact value at 64 and at 65 axes.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/IntegrandBinding.h"
#include "vf/Integrator.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

using namespace vf;
using namespace vf::test;

namespace {

/// x[0] x[d - 1] over [0.5, 1.5] x [2, 4]^(d - 1): the first axis's mean
/// is 1, the last's 3, the volume 2^(d - 1), so the integral is 3 2^(d - 1).
std::string source(unsigned D) {
  return "integrand f(x in [0.5, 1.5] * [2, 4]^" + std::to_string(D - 1) +
         ") = x[0] * x[" + std::to_string(D - 1) + "]\n";
}

TEST(TileBoxTest, EveryAxisHasItsIntervalOnBothSidesOfTheUnrollLimit) {
  auto C = Compiler::create();
  ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
  TempDir Dir;
  for (unsigned D : {64u, 65u}) {
    std::unique_ptr<Program> P = loadProgram(source(D));
    ASSERT_TRUE(P);
    CompileOptions O;
    O.CacheDir = Dir.path();
    auto CM = (*C)->compile(*P, O);
    ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
    IntegratorOptions IO;
    IO.Threads = 1;
    IO.Seed = 7;
    auto I = Integrator::create(
        bindIntegrand(*P, **CM, *P->Integrands[0], nullptr, O), IO);
    ASSERT_TRUE(static_cast<bool>(I)) << I.error().Message;
    auto R = (*I)->run(4, 20000, 0);
    ASSERT_TRUE(static_cast<bool>(R)) << R.error().Message;
    const double Scale = std::ldexp(1.0, int(D) - 1);
    // A box read at the wrong axis or not at all is off by a third or
    // more; the statistical error is about 0.1%.
    EXPECT_NEAR(R->Mean[0] / Scale, 3.0, 5 * R->Error[0] / Scale)
        << D << " axes";
    EXPECT_LT(R->Error[0] / Scale, 0.01) << D << " axes";
  }
}

} // namespace
