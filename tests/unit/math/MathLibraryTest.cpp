//===- tests/unit/math/MathLibraryTest.cpp - linkMathLibrary --------------===//
//
// Links the embedded math bitcode into small modules for both targets and
// checks what the compiler relies on: the result verifies; only the
// functions the module uses (and what they need) come in, all internal;
// and nothing is left that a backend would have to resolve, in particular
// no llvm.exp/log/sin/cos/pow intrinsic (NVPTX cannot lower them) and no
// call to an undefined function.
//
//===----------------------------------------------------------------------===//

#include "bitcode/MathLibrary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using vf::BitcodeTarget;

namespace {

struct TargetInfo {
  BitcodeTarget Target;
  const char *Triple;
  const char *DataLayout;
};

const TargetInfo Targets[] = {
    {BitcodeTarget::Host, "x86_64-unknown-linux-gnu",
     "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:"
     "32:64-S128"},
    {BitcodeTarget::NVPTX, "nvptx64-nvidia-cuda",
     "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"},
};

void PrintTo(const TargetInfo &T, std::ostream *OS) { *OS << T.Triple; }

// A module whose function `user` calls each of Names once, all of them
// taking and returning doubles, or floats with F32.
std::unique_ptr<Module> makeUser(LLVMContext &Ctx, const TargetInfo &T,
                                 ArrayRef<const char *> Names,
                                 bool F32 = false) {
  auto M = std::make_unique<Module>("user", Ctx);
  M->setTargetTriple(T.Triple);
  M->setDataLayout(T.DataLayout);
  Type *D = F32 ? Type::getFloatTy(Ctx) : Type::getDoubleTy(Ctx);
  Function *User = Function::Create(FunctionType::get(D, {D}, false),
                                    Function::ExternalLinkage, "user", *M);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", User));
  Value *Acc = User->getArg(0);
  for (const char *N : Names) {
    bool Binary = StringRef(N).starts_with("vf_pow") ||
                  StringRef(N).starts_with("vf_atan2");
    std::vector<Type *> Params(Binary ? 2 : 1, D);
    FunctionCallee F = M->getOrInsertFunction(N, FunctionType::get(D, Params,
                                                                   false));
    std::vector<Value *> Args(Binary ? 2 : 1, User->getArg(0));
    Acc = B.CreateFAdd(Acc, B.CreateCall(F, Args));
  }
  B.CreateRet(Acc);
  return M;
}

// Every problem a backend would have with M, one per line.
std::string unresolved(const Module &M) {
  std::string Problems;
  for (const Function &F : M)
    for (const BasicBlock &BB : F)
      for (const Instruction &I : BB) {
        const auto *Call = dyn_cast<CallBase>(&I);
        if (!Call)
          continue;
        const Function *Callee = Call->getCalledFunction();
        if (!Callee) {
          Problems += "indirect call in " + F.getName().str() + "\n";
          continue;
        }
        StringRef Name = Callee->getName();
        for (StringRef Bad : {"llvm.exp", "llvm.log", "llvm.sin", "llvm.cos",
                              "llvm.pow", "llvm.tan"})
          if (Name.starts_with(Bad))
            Problems += "math intrinsic " + Name.str() + "\n";
        if (Callee->isDeclaration() && !Callee->isIntrinsic())
          Problems += "call to undefined " + Name.str() + "\n";
      }
  return Problems;
}

class MathLibraryLink : public ::testing::TestWithParam<TargetInfo> {};

TEST_P(MathLibraryLink, PullsOnlyWhatIsUsed) {
  LLVMContext Ctx;
  auto M = makeUser(Ctx, GetParam(), {"vf_sin", "vf_pow"});
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, GetParam().Target)));
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(*M, &OS)) << Err;
  EXPECT_EQ(unresolved(*M), "");
  for (const char *Used : {"vf_sin", "vf_pow"}) {
    const Function *F = M->getFunction(Used);
    ASSERT_NE(F, nullptr) << Used;
    EXPECT_FALSE(F->isDeclaration()) << Used;
    EXPECT_TRUE(F->hasInternalLinkage()) << Used;
    EXPECT_FALSE(F->hasFnAttribute("target-cpu")) << Used;
    EXPECT_FALSE(F->hasFnAttribute("target-features")) << Used;
    EXPECT_FALSE(F->hasFnAttribute("no-builtins")) << Used;
    EXPECT_TRUE(F->hasFnAttribute(Attribute::AlwaysInline)) << Used;
  }
  for (const char *Unused : {"vf_exp", "vf_log", "vf_cos", "vf_erf"})
    EXPECT_EQ(M->getFunction(Unused), nullptr) << Unused;
  // The only externally visible definition is the user's own (and, on the
  // host, llvm.compiler.used, which keeps the vector variants alive).
  for (const GlobalValue &GV : M->global_values())
    if (!GV.isDeclaration() && GV.getName() != "user" &&
        GV.getName() != "llvm.compiler.used")
      EXPECT_TRUE(GV.hasLocalLinkage()) << GV.getName().str();
  // sin's big-argument path stays out of line; on the host it names masked
  // vector variants of widths 2, 4 and 8, defined in the module.
  const Function *Big = M->getFunction("vf__sin_big");
  ASSERT_NE(Big, nullptr);
  EXPECT_TRUE(Big->hasFnAttribute(Attribute::NoInline));
  bool Host = GetParam().Target == BitcodeTarget::Host;
  EXPECT_EQ(Big->hasFnAttribute("vector-function-abi-variant"), Host);
  for (unsigned VF : {2, 4, 8}) {
    const Function *V =
        M->getFunction("vf__sin_big_vmask" + std::to_string(VF));
    EXPECT_EQ(V != nullptr, Host) << VF;
    if (V)
      EXPECT_TRUE(V->hasLocalLinkage() && !V->isDeclaration()) << VF;
  }
  if (Host)
    EXPECT_NE(Big->getFnAttribute("vector-function-abi-variant")
                  .getValueAsString()
                  .find("_ZGVdM4v_vf__sin_big(vf__sin_big_vmask4)"),
              StringRef::npos);
  EXPECT_EQ(M->getFunction("vf__cos_big"), nullptr);
}

TEST_P(MathLibraryLink, WholeLibraryResolves) {
  LLVMContext Ctx;
  auto M = makeUser(Ctx, GetParam(), vf::mathLibraryFunctions());
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, GetParam().Target)));
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(*M, &OS)) << Err;
  EXPECT_EQ(unresolved(*M), "");
  for (const char *Name : vf::mathLibraryFunctions()) {
    const Function *F = M->getFunction(Name);
    ASSERT_NE(F, nullptr) << Name;
    EXPECT_FALSE(F->isDeclaration()) << Name;
  }
}

TEST_P(MathLibraryLink, WholeFloatLibraryResolves) {
  LLVMContext Ctx;
  auto M = makeUser(Ctx, GetParam(), vf::mathLibraryFunctionsF32(),
                    /*F32=*/true);
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, GetParam().Target)));
  std::string Err;
  raw_string_ostream OS(Err);
  EXPECT_FALSE(verifyModule(*M, &OS)) << Err;
  EXPECT_EQ(unresolved(*M), "");
  for (const char *Name : vf::mathLibraryFunctionsF32()) {
    const Function *F = M->getFunction(Name);
    ASSERT_NE(F, nullptr) << Name;
    EXPECT_FALSE(F->isDeclaration()) << Name;
    EXPECT_TRUE(F->getReturnType()->isFloatTy()) << Name;
    EXPECT_TRUE(F->hasFnAttribute(Attribute::AlwaysInline)) << Name;
  }
  // A float module pulls in no double function.
  for (const char *Name : vf::mathLibraryFunctions())
    EXPECT_EQ(M->getFunction(Name), nullptr) << Name;
}

// sinf's big-argument path gets float variants: 4, 8 and 16 lanes fill the
// SSE, AVX2 and AVX-512 registers.
TEST_P(MathLibraryLink, FloatSlowPathHasFloatVariants) {
  LLVMContext Ctx;
  auto M = makeUser(Ctx, GetParam(), {"vf_sinf"}, /*F32=*/true);
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, GetParam().Target)));
  const Function *Big = M->getFunction("vf__sinf_big");
  ASSERT_NE(Big, nullptr);
  EXPECT_TRUE(Big->hasFnAttribute(Attribute::NoInline));
  bool Host = GetParam().Target == BitcodeTarget::Host;
  EXPECT_EQ(Big->hasFnAttribute("vector-function-abi-variant"), Host);
  for (unsigned VF : {4, 8, 16}) {
    const Function *V =
        M->getFunction("vf__sinf_big_vmask" + std::to_string(VF));
    EXPECT_EQ(V != nullptr, Host) << VF;
    if (!V)
      continue;
    auto *VT = dyn_cast<FixedVectorType>(V->getReturnType());
    ASSERT_NE(VT, nullptr);
    EXPECT_TRUE(VT->getElementType()->isFloatTy());
    EXPECT_EQ(VT->getNumElements(), VF);
  }
  if (Host)
    EXPECT_NE(Big->getFnAttribute("vector-function-abi-variant")
                  .getValueAsString()
                  .find("_ZGVeM16v_vf__sinf_big(vf__sinf_big_vmask16)"),
              StringRef::npos);
}

// Whether T is double or a vector of doubles.
bool isDoubleish(const Type *T) { return T->getScalarType()->isDoubleTy(); }

// The functions reachable from Root through direct calls.
std::vector<const Function *> reachable(const Function *Root) {
  std::vector<const Function *> Seen{Root};
  for (size_t I = 0; I < Seen.size(); ++I)
    for (const BasicBlock &BB : *Seen[I])
      for (const Instruction &Inst : BB)
        if (const auto *Call = dyn_cast<CallBase>(&Inst))
          if (const Function *C = Call->getCalledFunction();
              C && !C->isDeclaration() && !is_contained(Seen, C))
            Seen.push_back(C);
  return Seen;
}

// The float library is for GPUs with slow FP64: no instruction reachable
// from a vf_*f entry point may produce or take a double (scalar or
// vector), and none may convert to or from one.
TEST_P(MathLibraryLink, FloatLibraryHasNoDoubleArithmetic) {
  LLVMContext Ctx;
  auto M = makeUser(Ctx, GetParam(), vf::mathLibraryFunctionsF32(),
                    /*F32=*/true);
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, GetParam().Target)));
  size_t Checked = 0;
  for (const char *Name : vf::mathLibraryFunctionsF32()) {
    const Function *Entry = M->getFunction(Name);
    ASSERT_NE(Entry, nullptr) << Name;
    for (const Function *F : reachable(Entry))
      for (const BasicBlock &BB : *F)
        for (const Instruction &I : BB) {
          ++Checked;
          bool Bad = isDoubleish(I.getType()) || isa<FPExtInst>(I) ||
                     isa<FPTruncInst>(I) ||
                     any_of(I.operands(), [](const Use &U) {
                       return isDoubleish(U->getType());
                     });
          std::string Text;
          raw_string_ostream OS(Text);
          if (Bad)
            OS << I;
          EXPECT_FALSE(Bad)
              << Name << " reaches " << F->getName().str() << ": " << Text;
        }
  }
  EXPECT_GT(Checked, 1000u); // the walk did look at the library
}

TEST_P(MathLibraryLink, EmptyModuleStaysEmpty) {
  LLVMContext Ctx;
  Module M("empty", Ctx);
  M.setTargetTriple(GetParam().Triple);
  M.setDataLayout(GetParam().DataLayout);
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(M, GetParam().Target)));
  EXPECT_TRUE(M.empty());
  EXPECT_TRUE(M.global_empty());
}

INSTANTIATE_TEST_SUITE_P(BothTargets, MathLibraryLink,
                         ::testing::ValuesIn(Targets),
                         [](const ::testing::TestParamInfo<TargetInfo> &I) {
                           return I.param.Target == BitcodeTarget::Host
                                      ? std::string("Host")
                                      : std::string("NVPTX");
                         });

TEST(MathLibraryNames, MapsBuiltins) {
  EXPECT_EQ(vf::mathLibraryFunctions().size(), 23u);
  // The float names are the double ones with "f" appended, in order.
  ASSERT_EQ(vf::mathLibraryFunctionsF32().size(), 23u);
  for (size_t I = 0; I < 23; ++I)
    EXPECT_EQ(std::string(vf::mathLibraryFunctions()[I]) + "f",
              vf::mathLibraryFunctionsF32()[I]);
  EXPECT_STREQ(vf::mathLibraryFunctionFor("exp"), "vf_exp");
  EXPECT_STREQ(vf::mathLibraryFunctionFor("atan2"), "vf_atan2");
  EXPECT_EQ(vf::mathLibraryFunctionFor("gamma"), nullptr);
}

TEST(MathLibraryNames, BadBitcodeIsAnError) {
  LLVMContext Ctx;
  Module M("m", Ctx);
  const unsigned char Junk[] = {'n', 'o', 't', ' ', 'b', 'c'};
  Error E = vf::linkEmbeddedBitcode(M, Junk, "junk.bc");
  ASSERT_TRUE(bool(E));
  EXPECT_NE(toString(std::move(E)).find("junk.bc"), std::string::npos);
}

} // namespace
