//===- tests/unit/codegen/EngineForms.h - Forced forms' runs ----*- C++ -*-===//
//
// The host kernel's phases with two forms chosen per CPU (the map's edge
// loads, MapLoadsTest; the block step, BlockStepTest) must give the same
// bits in every form: a fixture that compiles a program with the forms
// forced in its options, runs it, and compares what two runs computed.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_CODEGEN_ENGINEFORMS_H
#define VF_TESTS_UNIT_CODEGEN_ENGINEFORMS_H

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "vf/Integrator.h"

#include <gtest/gtest.h>

namespace vf::test {

/// What a run computed, bit for bit.
struct FormOutcome {
  Result R;
  Integrator::Grid G;
};

class EngineFormsTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
  }

  /// Options caching in the test's folder; the caller forces the forms.
  CompileOptions cachedOptions() const {
    CompileOptions O;
    O.CacheDir = Dir.path();
    return O;
  }

  std::unique_ptr<CompiledModule> compile(const Program &P,
                                          const CompileOptions &O) {
    auto CM = TheCompiler->compile(P, O);
    if (!CM) {
      ADD_FAILURE() << llvm::toString(CM.takeError());
      return nullptr;
    }
    return std::move(*CM);
  }

  /// Three iterations of 20000 samples of \p P compiled with \p O, on
  /// \p Threads threads.
  FormOutcome integrate(const Program &P, const CompileOptions &O,
                        unsigned Threads, std::uint64_t Seed) {
    std::unique_ptr<CompiledModule> CM = compile(P, O);
    if (!CM)
      return {};
    IntegratorOptions IO;
    IO.Threads = Threads;
    IO.Seed = Seed;
    IO.Arithmetic = O.Single ? Precision::F32 : Precision::F64;
    auto I = Integrator::create(
        bindIntegrand(P, *CM, *P.Integrands[0], nullptr, O), IO);
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

/// The same estimates, errors, chi2 and map (of a d = 8 integrand with
/// \p Outputs outputs), bit for bit.
inline void expectSameBits(const FormOutcome &A, const FormOutcome &B,
                           size_t Outputs) {
  ASSERT_EQ(A.R.Mean.size(), Outputs);
  ASSERT_EQ(B.R.Mean.size(), Outputs);
  EXPECT_EQ(A.R.Mean, B.R.Mean);
  EXPECT_EQ(A.R.Error, B.R.Error);
  EXPECT_EQ(A.R.Chi2Dof, B.R.Chi2Dof);
  ASSERT_EQ(A.G.Edges.size(), 8u * (A.G.Ninc + 1));
  EXPECT_EQ(A.G.Edges, B.G.Edges);
  EXPECT_EQ(A.G.Samples, B.G.Samples);
}

} // namespace vf::test

#endif // VF_TESTS_UNIT_CODEGEN_ENGINEFORMS_H
