//===- tests/unit/codegen/BackendErrorTest.cpp - Failures are values ------===//
//
// A backend failure (here: PTX for an architecture the table does not know)
// comes back as an llvm::Error whose message names the problem and the
// supported architectures; nothing aborts, nothing is cached, and the same
// Compiler keeps working afterwards.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/Compiler.h"
#include "backends/Targets.h"

#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

using namespace vf;
using namespace vf::test;

namespace {

const char *const Source = "integrand f(x in [0, 1]^2) = exp(x[0]) * x[1]\n";

class BackendErrorTest : public ::testing::Test {
protected:
  void SetUp() override {
    auto C = Compiler::create();
    ASSERT_TRUE(static_cast<bool>(C)) << llvm::toString(C.takeError());
    TheCompiler = std::move(*C);
    P = loadProgram(Source);
    ASSERT_TRUE(P);
    Opts.CacheDir = Dir.path();
  }
  TempDir Dir;
  std::unique_ptr<Compiler> TheCompiler;
  std::unique_ptr<Program> P;
  CompileOptions Opts;
};

TEST_F(BackendErrorTest, UnknownArchFromCompile) {
  for (const char *Arch : {"sm_1000", "sm_9", "compute_90", "", "SM_90"}) {
    SCOPED_TRACE(Arch);
    CompileOptions O = Opts;
    O.PTX = true;
    O.GpuArch = Arch;
    auto CM = TheCompiler->compile(*P, O);
    ASSERT_FALSE(static_cast<bool>(CM));
    std::string Msg = llvm::toString(CM.takeError());
    EXPECT_NE(Msg.find("unknown GPU architecture '" + std::string(Arch) + "'"),
              std::string::npos)
        << Msg;
    EXPECT_NE(Msg.find("sm_90"), std::string::npos) << Msg;
    EXPECT_NE(Msg.find("sm_80"), std::string::npos) << Msg;
  }
  // Nothing was stored, and the compiler still works.
  EXPECT_EQ(Dir.files("").size(), 0u);
  CompileOptions O = Opts;
  O.PTX = true;
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  EXPECT_NE((*CM)->PTX.find(".entry vf_eval_f"), std::string::npos);
  ASSERT_NE((*CM)->find("f")->Batch, nullptr);
}

TEST_F(BackendErrorTest, UnknownArchFromEmitText) {
  CompileOptions O = Opts;
  O.GpuArch = "sm_1000";
  auto Text = TheCompiler->emitText(*P, EmitKind::PTX, O);
  ASSERT_FALSE(static_cast<bool>(Text));
  EXPECT_NE(llvm::toString(Text.takeError()).find("supported: sm_50"),
            std::string::npos);
  // Host output does not look at the GPU architecture.
  auto Host = TheCompiler->emitText(*P, EmitKind::LLVM, O);
  ASSERT_TRUE(static_cast<bool>(Host)) << llvm::toString(Host.takeError());
  EXPECT_NE(Host->find("define void @vf_batch_f("), std::string::npos);
}

TEST(TargetsTest, PtxVersionPerArch) {
  struct {
    const char *Arch, *Feature;
  } Table[] = {{"sm_50", "+ptx60"}, {"sm_80", "+ptx70"},
               {"sm_86", "+ptx71"}, {"sm_89", "+ptx78"},
               {"sm_90", "+ptx78"}, {"sm_90a", "+ptx80"}};
  for (const auto &Row : Table) {
    auto F = ptxFeatureFor(Row.Arch);
    ASSERT_TRUE(static_cast<bool>(F)) << llvm::toString(F.takeError());
    EXPECT_EQ(*F, Row.Feature) << Row.Arch;
    auto TM = createNVPTXTargetMachine(Row.Arch);
    ASSERT_TRUE(static_cast<bool>(TM)) << llvm::toString(TM.takeError());
    EXPECT_EQ((*TM)->getTargetCPU(), Row.Arch);
  }
  EXPECT_EQ(std::string(DefaultGpuArch), "sm_90");
  auto Bad = createNVPTXTargetMachine("sm_1000");
  ASSERT_FALSE(static_cast<bool>(Bad));
  llvm::consumeError(Bad.takeError());
}

} // namespace
