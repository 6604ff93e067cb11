//===- tests/unit/codegen/StridedIntegrandTest.cpp - x read with a stride -===//
//
// stridedIntegrand (compiler/bitcode/StridedIntegrand.h) copies an
// integrand so that it reads x[d] at x + d * Stride, which lets the host's
// tile loop keep a batch's x axis-major. The copy must scale every address
// derived from x, and must be refused where scaling could not be exact:
// then the kernel keeps x contiguous.
//
//===----------------------------------------------------------------------===//

#include "bitcode/StridedIntegrand.h"

#include "llvm/AsmParser/Parser.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/SourceMgr.h"

#include <gtest/gtest.h>

#include <vector>

using namespace llvm;

namespace {

std::unique_ptr<Module> parse(LLVMContext &Ctx, const char *Body) {
  SMDiagnostic Err;
  std::string Text =
      std::string("target datalayout = \"e-m:e-i64:64-n32:64-S128\"\n"
                  "declare void @use(ptr)\n"
                  "define void @f(ptr %x, ptr %p, ptr %out) {\n") +
      Body + "\n}\n";
  auto M = parseAssemblyString(Text, Err, Ctx);
  EXPECT_TRUE(M) << Err.getMessage().str();
  return M;
}

/// The constant offsets, in bytes, of the loads from x in \p F.
std::vector<int64_t> loadOffsets(Function &F) {
  std::vector<int64_t> Offsets;
  const DataLayout &DL = F.getParent()->getDataLayout();
  for (BasicBlock &BB : F)
    for (Instruction &I : BB)
      if (auto *L = dyn_cast<LoadInst>(&I)) {
        APInt Off(64, 0);
        Value *Base = L->getPointerOperand()->stripAndAccumulateConstantOffsets(
            DL, Off, /*AllowNonInbounds=*/true);
        if (Base == F.getArg(0))
          Offsets.push_back(Off.getSExtValue());
      }
  return Offsets;
}

TEST(StridedIntegrand, ScalesEveryAddressDerivedFromX) {
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
    %a = getelementptr inbounds double, ptr %x, i64 0
    %x0 = load double, ptr %a
    %b = getelementptr inbounds double, ptr %x, i64 3
    %x3 = load double, ptr %b
    %c = getelementptr inbounds i8, ptr %x, i64 16
    %x2 = load double, ptr %c
    %d = getelementptr inbounds double, ptr %c, i64 2
    %x4 = load i64, ptr %d
    %s = fadd double %x0, %x3
    %t = fadd double %s, %x2
    store double %t, ptr %out
    ret void)");
  ASSERT_TRUE(M);
  Function *S = vf::stridedIntegrand(*M->getFunction("f"), 32);
  ASSERT_NE(S, nullptr);
  EXPECT_FALSE(verifyFunction(*S, &errs()));
  EXPECT_EQ(loadOffsets(*S),
            (std::vector<int64_t>{0, 3 * 8 * 32, 2 * 8 * 32, 4 * 8 * 32}));
  // The original is untouched.
  EXPECT_EQ(loadOffsets(*M->getFunction("f")),
            (std::vector<int64_t>{0, 3 * 8, 2 * 8, 4 * 8}));
}

TEST(StridedIntegrand, KeepsAnIntegrandWithALoopContiguous) {
  // A sum over terms: a second, strided copy would double the time its
  // optimisation takes, so the kernel keeps x contiguous for it.
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
  entry:
    br label %loop
  loop:
    %i = phi i64 [ 0, %entry ], [ %n, %loop ]
    %acc = phi double [ 0.0, %entry ], [ %sum, %loop ]
    %a = getelementptr inbounds double, ptr %x, i64 %i
    %v = load double, ptr %a
    %sum = fadd double %acc, %v
    %n = add i64 %i, 1
    %done = icmp eq i64 %n, 8
    br i1 %done, label %exit, label %loop
  exit:
    store double %sum, ptr %out
    ret void)");
  ASSERT_TRUE(M);
  EXPECT_EQ(vf::stridedIntegrand(*M->getFunction("f"), 32), nullptr);
}

TEST(StridedIntegrand, ScalesAVariableIndex) {
  // An index computed from the parameters (no loop): multiplied by the
  // stride.
  LLVMContext Ctx;
  auto M = parse(Ctx, R"(
    %k = load i64, ptr %p
    %a = getelementptr inbounds double, ptr %x, i64 %k
    %v = load double, ptr %a
    store double %v, ptr %out
    ret void)");
  ASSERT_TRUE(M);
  Function *S = vf::stridedIntegrand(*M->getFunction("f"), 32);
  ASSERT_NE(S, nullptr);
  EXPECT_FALSE(verifyFunction(*S, &errs()));
  bool Scaled = false;
  for (BasicBlock &BB : *S)
    for (Instruction &I : BB)
      if (auto *G = dyn_cast<GetElementPtrInst>(&I)) {
        auto *Mul = dyn_cast<BinaryOperator>(G->getOperand(1));
        ASSERT_TRUE(Mul && Mul->getOpcode() == Instruction::Mul);
        auto *C = dyn_cast<ConstantInt>(Mul->getOperand(1));
        Scaled = C && C->getZExtValue() == 32;
      }
  EXPECT_TRUE(Scaled);
}

TEST(StridedIntegrand, RefusesUsesItCannotScale) {
  const char *Bodies[] = {
      // x escapes into a call.
      "call void @use(ptr %x)\n ret void",
      // A 4-byte offset: not a whole word.
      "%a = getelementptr i8, ptr %x, i64 4\n %v = load double, ptr %a\n"
      " ret void",
      // A variable byte index.
      "%a = getelementptr i8, ptr %x, i64 %i\n %v = load double, ptr %a\n"
      " ret void",
      // Two words at once.
      "%v = load <2 x double>, ptr %x\n ret void",
      // A 4-byte load.
      "%a = getelementptr double, ptr %x, i64 1\n %v = load float, ptr %a\n"
      " ret void",
      // x compared or selected.
      "%c = icmp eq ptr %x, %p\n ret void",
      "%s = select i1 true, ptr %x, ptr %p\n %v = load double, ptr %s\n"
      " ret void",
      // Written through.
      "store double 1.0, ptr %x\n ret void",
  };
  for (const char *Body : Bodies) {
    LLVMContext Ctx;
    std::string B = Body;
    // The variable-index case needs its index.
    if (B.find("%i") != std::string::npos)
      B = "%i = ptrtoint ptr %p to i64\n " + B;
    auto M = parse(Ctx, B.c_str());
    ASSERT_TRUE(M) << Body;
    EXPECT_EQ(vf::stridedIntegrand(*M->getFunction("f"), 32), nullptr) << Body;
  }
}

} // namespace
