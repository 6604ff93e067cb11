//===- tests/unit/codegen/DifferentialTest.h - JIT vs tree walk -*- C++ -*-===//
//
// The fixture of the differential test (DifferentialTest.cpp, whose
// header comment says what is compared and within what bounds), shared by
// DifferentialTest.cpp (version 1 and 2 sources) and DifferentialV3Test.cpp
// (parton densities and weight lists).
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_CODEGEN_DIFFERENTIALTEST_H
#define VF_TESTS_UNIT_CODEGEN_DIFFERENTIALTEST_H

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "frontend/Evaluator.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace vf::test {

constexpr unsigned RandomPoints = 333; // not a multiple of the vector width
constexpr uint64_t Seed = 20240917;

class DifferentialTest : public ::testing::Test {
protected:
  static void SetUpTestSuite() {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C).release();
  }
  static void TearDownTestSuite() {
    delete TheCompiler;
    TheCompiler = nullptr;
  }

  /// Compiles \p Source for the host (no cache) and compares every
  /// integrand with the evaluator; \p Params overrides the defaults.
  void checkSource(const std::string &Name, const std::string &Source,
                   std::vector<double> Params = {});

  /// Compares every entry of \p I's weight lists (vf_weights_NAME of
  /// \p CI) with the evaluator's at the points \p Xs.
  void checkWeightEntries(const IntegrandDecl &I, const CompiledIntegrand &CI,
                          Evaluator &Ev, const std::vector<double> &Xs,
                          const std::vector<double> &Params);

  static Compiler *TheCompiler;
  /// Points where the evaluator gave NaN (and so did the JIT).
  unsigned NaNsSeen = 0;
  /// Histograms whose cells were compared.
  unsigned HistogramsSeen = 0;
  /// Weight list entries compared (over all points).
  unsigned WeightEntriesSeen = 0;
};

/// Uniform in [Lo, Hi] from 53 random bits; written out so that the points
/// do not depend on the standard library's distributions.
inline double uniform(std::mt19937_64 &Rng, double Lo, double Hi) {
  double U = static_cast<double>(Rng() >> 11) * 0x1p-53;
  return Lo + (Hi - Lo) * U;
}

} // namespace vf::test

#endif // VF_TESTS_UNIT_CODEGEN_DIFFERENTIALTEST_H
