//===- tests/unit/codegen/LazyBatchTest.cpp - Batch entry points later ----===//
//
// A module compiled for integrating (CompileOptions::Evaluate off) has no
// batch entry point; LazyBatch (compiler/backends/LazyBatch.h) compiles
// them on first use, once for all callers, and reports a failure as an
// error rather than values.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/LazyBatch.h"

#include <gtest/gtest.h>

#include <cmath>
#include <fstream>
#include <thread>
#include <vector>

using namespace vf;
using namespace vf::test;

namespace {

const char *const Peak = R"(
param a = 0.1
integrand peak(x in [0, 1]^4) =
    prod(i in 0..4: exp(-(x[i] - 0.5)^2 / a^2) / (a * sqrt(pi)))
integrand twice(x in [0, 1]^4) = 2 * x[0] + x[3]
)";

class LazyBatchTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    Opts.CacheDir = Dir.path();
  }

  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
  CompileOptions Opts;
};

TEST_F(LazyBatchTest, IntegratingCompilesNoBatchEntryPoint) {
  std::shared_ptr<const Program> P = loadProgram(Peak);
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.Evaluate = false;
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  const CompiledIntegrand *I = (*CM)->find("peak");
  ASSERT_NE(I, nullptr);
  EXPECT_EQ(I->Batch, nullptr);
  EXPECT_EQ(I->Cells, nullptr);
  EXPECT_TRUE(I->GpuEvalKernel.empty());
  EXPECT_NE(I->SampleTile, nullptr);
  // Neither the sampler alone nor the batch entry alone asked: an error.
  O.Sampler = false;
  auto None = TheCompiler->compile(*P, O);
  ASSERT_FALSE(static_cast<bool>(None));
  llvm::consumeError(None.takeError());
}

TEST_F(LazyBatchTest, CompilesOnceForAllCallersAndIntegrands) {
  std::shared_ptr<const Program> P = loadProgram(Peak);
  ASSERT_TRUE(P);
  CompileOptions Eager = Opts; // what --eval compiles
  Eager.Sampler = false;
  auto CM = TheCompiler->compile(*P, Eager);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  const CacheStats Before = TheCompiler->cacheStats();

  CompileOptions O = Opts;
  O.Evaluate = false;
  LazyBatch Lazy(*TheCompiler, P, O);
  std::vector<BatchEntry> Seen(8);
  std::vector<std::thread> Threads;
  for (unsigned T = 0; T < Seen.size(); ++T)
    Threads.emplace_back([&, T] { Seen[T] = Lazy.entry("peak"); });
  for (std::thread &T : Threads)
    T.join();
  ASSERT_NE(Seen[0], nullptr);
  for (BatchEntry E : Seen)
    EXPECT_EQ(E, Seen[0]);
  // One compile for the whole program (the other integrand is there too),
  // and it is --eval's, which is in the cache: a hit, no new entry.
  EXPECT_NE(Lazy.entry("twice"), nullptr);
  EXPECT_EQ(Lazy.entry("nosuch"), nullptr);
  const CacheStats After = TheCompiler->cacheStats();
  EXPECT_EQ(After.Hits, Before.Hits + 1);
  EXPECT_EQ(After.Misses, Before.Misses);

  std::vector<double> X = {0.45, 0.52, 0.61, 0.5}, A = P->defaultParams();
  double Lazily = NAN, Eagerly = NAN;
  Seen[0](X.data(), 1, A.data(), &Lazily);
  (*CM)->find("peak")->Batch(X.data(), 1, A.data(), &Eagerly);
  EXPECT_EQ(Lazily, Eagerly);
  EXPECT_TRUE(static_cast<bool>(Lazy.prepare()));
}

TEST_F(LazyBatchTest, AFailedCompileIsAnErrorEveryTime) {
  // C code the program reads when it is compiled: gone by the time the
  // batch entry point is wanted.
  const std::string C = Dir.path() + "/g.c";
  std::ofstream(C) << "double g(double x) { return 2 * x; }\n";
  std::shared_ptr<const Program> P = loadProgram(
      "extern \"" + C + "\" fn g(x)\n"
      "integrand f(x in [0, 1]) = g(x[0])\n");
  ASSERT_TRUE(P);
  CompileOptions O = Opts;
  O.UseCache = false;
  O.Evaluate = false;
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  std::remove(C.c_str());
  LazyBatch Lazy(*TheCompiler, P, O);
  for (int Try = 0; Try < 2; ++Try) {
    Status S = Lazy.prepare();
    ASSERT_FALSE(static_cast<bool>(S));
    EXPECT_NE(S.message().find("cannot compile the batch entry points"),
              std::string::npos)
        << S.message();
    EXPECT_NE(S.message().find("g.c"), std::string::npos) << S.message();
    EXPECT_EQ(Lazy.entry("f"), nullptr);
  }
}

} // namespace
