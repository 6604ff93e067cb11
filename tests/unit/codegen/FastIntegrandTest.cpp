//===- tests/unit/codegen/FastIntegrandTest.cpp - Slow paths as a flag ----===//
//
// fastIntegrand (compiler/bitcode/FastIntegrand.h) copies an integrand for
// the GPU kernel with every call to a math slow path, also those inside
// the functions it calls, turned into a store of 1 to a flag; the kernel
// then calls an out-of-line exact copy for that sample. Whether the values
// match the CPU's is checked end to end under the warp emulator
// (tests/integration/fakegpu.py, slow_paths); this checks the copies.
//
//===----------------------------------------------------------------------===//

#include "bitcode/FastIntegrand.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

using namespace llvm;

namespace {

// A slow path and a math entry point shaped like the library's, a helper
// that calls the entry point, and an integrand calling both.
const char *const Library = R"(
define internal double @vf__exp_special(double %x) noinline {
  %r = fmul double %x, 3.0
  ret double %r
}
define internal double @vf_exp(double %x) alwaysinline {
entry:
  %fast = fadd double %x, 1.0
  %rare = fcmp oge double %x, 708.0
  br i1 %rare, label %slow, label %done
slow:
  %s = call double @vf__exp_special(double %x)
  br label %done
done:
  %r = phi double [ %fast, %entry ], [ %s, %slow ]
  ret double %r
}
define internal double @g(double %x) alwaysinline {
  %e = call double @vf_exp(double %x)
  %r = fmul double %e, 2.0
  ret double %r
}
)";

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Body) {
  SMDiagnostic Err;
  std::string Text = std::string(Library) +
                     "define internal void @f(ptr %x, ptr %p, ptr %out) "
                     "alwaysinline {\n" +
                     Body + "\n}\n";
  auto M = parseAssemblyString(Text, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

unsigned callsTo(Function &F, StringRef Callee) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    if (auto *C = dyn_cast<CallInst>(&I))
      if (C->getCalledFunction() &&
          C->getCalledFunction()->getName() == Callee)
        ++N;
  return N;
}

/// The stores of the constant 1 to \p F's flag parameter.
unsigned flagStores(Function &F) {
  unsigned N = 0;
  for (Instruction &I : instructions(F))
    if (auto *S = dyn_cast<StoreInst>(&I))
      if (S->getPointerOperand() == F.getArg(3))
        if (auto *C = dyn_cast<ConstantInt>(S->getValueOperand());
            C && C->isOne())
          ++N;
  return N;
}

const char *const TwoSlowPaths = R"(
  %x0 = load double, ptr %x
  %a = call double @vf_exp(double %x0)
  %b = call double @g(double %a)
  store double %b, ptr %out
  ret void)";

TEST(FastIntegrand, EverySlowPathCallRaisesTheFlagInstead) {
  LLVMContext Ctx;
  auto M = parse(Ctx, TwoSlowPaths);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  Function *Fast = vf::fastIntegrand(F, 1000);
  ASSERT_NE(Fast, nullptr);
  EXPECT_FALSE(verifyFunction(*Fast, &errs()));
  ASSERT_EQ(Fast->arg_size(), 4u);
  // Both calls, the one through g too, are in the copy and are flags now.
  EXPECT_EQ(callsTo(*Fast, "vf__exp_special"), 0u);
  EXPECT_EQ(callsTo(*Fast, "vf_exp") + callsTo(*Fast, "g"), 0u);
  EXPECT_EQ(flagStores(*Fast), 2u);
  // The original is untouched.
  EXPECT_EQ(callsTo(F, "vf_exp"), 1u);
  EXPECT_EQ(callsTo(F, "g"), 1u);
}

TEST(FastIntegrand, WithoutSlowPathsTheFlagIsUnused) {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
    %x0 = load double, ptr %x
    %y = fmul double %x0, %x0
    store double %y, ptr %out
    ret void)");
  ASSERT_TRUE(M);
  Function *Fast = vf::fastIntegrand(*M->getFunction("f"), 1000);
  ASSERT_NE(Fast, nullptr);
  EXPECT_FALSE(verifyFunction(*Fast, &errs()));
  EXPECT_TRUE(Fast->getArg(3)->use_empty());
}

TEST(FastIntegrand, ABodyTooLargeKeepsItsSlowPathsAndNoFlag) {
  LLVMContext Ctx;
  auto M = parse(Ctx, TwoSlowPaths);
  ASSERT_TRUE(M);
  // Past the limit the copy only calls the integrand, slow paths and all.
  Function *Fast = vf::fastIntegrand(*M->getFunction("f"), 3);
  ASSERT_NE(Fast, nullptr);
  EXPECT_FALSE(verifyFunction(*Fast, &errs()));
  EXPECT_TRUE(Fast->getArg(3)->use_empty());
  EXPECT_EQ(callsTo(*Fast, "f"), 1u);
  EXPECT_TRUE(Fast->hasLocalLinkage());
}

TEST(FastIntegrand, TheExactCopyIsOutOfLine) {
  LLVMContext Ctx;
  auto M = parse(Ctx, TwoSlowPaths);
  ASSERT_TRUE(M);
  Function &F = *M->getFunction("f");
  Function *Exact = vf::outOfLineIntegrand(F);
  EXPECT_FALSE(verifyFunction(*Exact, &errs()));
  EXPECT_TRUE(Exact->hasFnAttribute(Attribute::NoInline));
  EXPECT_FALSE(Exact->hasFnAttribute(Attribute::AlwaysInline));
  EXPECT_EQ(callsTo(*Exact, "vf_exp"), 1u);
  EXPECT_TRUE(F.hasFnAttribute(Attribute::AlwaysInline));
}

} // namespace
