//===- tests/unit/codegen/PipelineTest.cpp - What the pipeline skips -------===//
//
// optimizeModule runs LLVM's O2 but skips, for the host, the late
// LoopUnrollPass (partial and runtime unrolling), which grew the code
// instruction selection and register allocation pay for without a gain at
// run time (docs/sampling-engine-compile.md, eighth round). A loop with a
// run-time trip count that the vectorizer is told to leave alone is what
// that pass unrolls on a Zen 4 (eight copies of its body and a remainder):
// on the host it must keep one copy, for NVPTX, whose unrolling is its
// own, it must still be unrolled.
//
//===----------------------------------------------------------------------===//

#include "backends/Optimizer.h"
#include "backends/Targets.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>

using namespace llvm;

namespace {

const char *const LoopIR = R"(
define void @f(ptr noalias %a, i64 %n) {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [0, %entry], [%next, %loop]
  %p = getelementptr double, ptr %a, i64 %i
  %v = load double, ptr %p
  %w = fadd double %v, 1.0
  store double %w, ptr %p
  %next = add i64 %i, 1
  %more = icmp ult i64 %next, %n
  br i1 %more, label %loop, label %exit, !llvm.loop !0
exit:
  ret void
}
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.vectorize.enable", i1 false}
)";

/// The copies of the loop's body after optimizeModule for \p TM.
size_t bodyCopiesAfterOptimizing(TargetMachine &TM) {
  LLVMContext Ctx;
  SMDiagnostic Err;
  std::unique_ptr<Module> M = parseAssemblyString(LoopIR, Err, Ctx);
  if (!M) {
    ADD_FAILURE() << "the test's IR does not parse: " << Err.getMessage().str();
    return 0;
  }
  M->setTargetTriple(TM.getTargetTriple().str());
  M->setDataLayout(TM.createDataLayout());
  vf::optimizeModule(*M, TM);
  std::string Text;
  raw_string_ostream(Text) << *M;
  size_t Copies = 0;
  for (size_t At = Text.find("fadd double"); At != std::string::npos;
       At = Text.find("fadd double", At + 1))
    ++Copies;
  return Copies;
}

TEST(PipelineTest, HostKeepsLoopsTheVectorizerLeftRolled) {
  if (!sys::getProcessTriple().starts_with("x86_64"))
    GTEST_SKIP() << "the host check names an x86-64 CPU";
  // A Zen 4 whatever this machine is: its scheduling model is one that the
  // late unroller acts on.
  const char *Old = std::getenv("VF_HOST_CPU");
  std::string Saved = Old ? Old : "";
  setenv("VF_HOST_CPU", "znver4", 1);
  auto TM = vf::createHostTargetMachine();
  if (Old)
    setenv("VF_HOST_CPU", Saved.c_str(), 1);
  else
    unsetenv("VF_HOST_CPU");
  ASSERT_TRUE(static_cast<bool>(TM)) << toString(TM.takeError());
  EXPECT_EQ(bodyCopiesAfterOptimizing(**TM), 1u);
}

TEST(PipelineTest, NVPTXStillUnrolls) {
  auto TM = vf::createNVPTXTargetMachine("sm_90");
  ASSERT_TRUE(static_cast<bool>(TM)) << toString(TM.takeError());
  EXPECT_GT(bodyCopiesAfterOptimizing(**TM), 1u);
}

} // namespace
