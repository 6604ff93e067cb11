//===- tests/unit/codegen/MathVectorTest.cpp - Slow paths in vector loops -===//
//
// sin, cos and tan take a Cody-Waite reduction inline and call an
// out-of-line Payne-Hanek path (vf__sin_big, ...) only for |x| >= 2^30,
// infinities and NaN; log calls vf__log_special only for zero, negatives,
// subnormals, infinities and NaN. linkMathLibrary gives those paths masked
// vector variants, so a loop `out[i] = vf_sin(in[i])` still vectorizes at
// O2, and the late inliner puts the variant's "any lane set?" test into
// the loop. These tests build that loop for the host, check that the
// optimized loop keeps the slow path behind a branch (the variant's lane
// calls called from the vectorized loop, no variant call in its every
// iteration, no variant left), and run it (JIT) on inputs where only some
// lanes are slow: the results must equal, bit for bit, both the same loop
// kept scalar and the native build of the library. The single-precision
// sinf, cosf and tanf (slow path for |x| >= 2^17) get the same checks with
// float loops, 4, 8 and 16 lanes wide.
//
//===----------------------------------------------------------------------===//

#include "HostJit.h"
#include "backends/Optimizer.h"
#include "bitcode/MathLibrary.h"
#include "vfmath.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace llvm::orc;

namespace {

// Out and In are double or float arrays, as the case's function takes.
using LoopFn = void (*)(void *Out, const void *In, int64_t N);

struct SlowPathCase {
  const char *Name;     // "sin": the loop calls vf_sin
  const char *SlowPath; // its out-of-line path, vf__sin_big
  double (*Native)(double);
  float (*NativeF)(float); // instead of Native for a float function
  double Lo, Hi; // the fast path's arguments are drawn from [Lo, Hi]
};

const SlowPathCase Cases[] = {
    {"sin", "vf__sin_big", vf_sin, nullptr, -100, 100},
    {"cos", "vf__cos_big", vf_cos, nullptr, -100, 100},
    {"tan", "vf__tan_big", vf_tan, nullptr, -100, 100},
    {"log", "vf__log_special", vf_log, nullptr, 0, 100},
    {"sinf", "vf__sinf_big", nullptr, vf_sinf, -100, 100},
    {"cosf", "vf__cosf_big", nullptr, vf_cosf, -100, 100},
    {"tanf", "vf__tanf_big", nullptr, vf_tanf, -100, 100}};

// void Name(T *noalias out, const T *noalias in, i64 n) {
//   for i < n: out[i] = vf_<f>(in[i]) }, T double or float, with the loop
// asked to vectorize (as the sampling loop is) or to stay scalar.
void addLoop(Module &M, Type *D, const std::string &Callee,
             const std::string &Name, bool Vectorize) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee F =
      M.getOrInsertFunction(Callee, FunctionType::get(D, {D}, false));
  Function *L = Function::Create(
      FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, I64}, false),
      Function::ExternalLinkage, Name, M);
  L->addParamAttr(0, Attribute::NoAlias);
  L->addParamAttr(1, Attribute::NoAlias);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", L);
  BasicBlock *Body = BasicBlock::Create(Ctx, "body", L);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", L);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpSGT(L->getArg(2), B.getInt64(0)), Body, Exit);
  B.SetInsertPoint(Body);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *X = B.CreateLoad(D, B.CreateGEP(D, L->getArg(1), I));
  B.CreateStore(B.CreateCall(F, {X}), B.CreateGEP(D, L->getArg(0), I));
  Value *Next = B.CreateAdd(I, B.getInt64(1), "next", true, true);
  I->addIncoming(Next, Body);
  BranchInst *Latch =
      B.CreateCondBr(B.CreateICmpSLT(Next, L->getArg(2)), Body, Exit);
  MDNode *Hint = MDNode::get(
      Ctx, {MDString::get(Ctx, "llvm.loop.vectorize.enable"),
            ConstantAsMetadata::get(Vectorize ? B.getTrue() : B.getFalse())});
  MDNode *NoUnroll =
      MDNode::get(Ctx, {MDString::get(Ctx, "llvm.loop.unroll.disable")});
  MDNode *LoopID = Vectorize ? MDNode::getDistinct(Ctx, {nullptr, Hint})
                             : MDNode::getDistinct(Ctx, {nullptr, Hint,
                                                         NoUnroll});
  LoopID->replaceOperandWith(0, LoopID);
  Latch->setMetadata(LLVMContext::MD_loop, LoopID);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
}

// How F calls a slow path: the lane calls of a masked variant, with vector
// operands (the variant's mask test inlined into the vectorized loop), and
// the masked variant itself (not inlined: called in every iteration).
struct SlowPathCalls {
  unsigned LaneCalls = 0;
  unsigned VariantCalls = 0;
};

bool isLaneCalls(StringRef Name) { return Name.ends_with(".lanes"); }

SlowPathCalls slowPathCalls(const Function &F, StringRef SlowPath) {
  SlowPathCalls N;
  std::string Variant = (SlowPath + "_vmask").str();
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (const auto *Call = dyn_cast<CallInst>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && Callee->getName().starts_with(Variant)) {
          if (!isLaneCalls(Callee->getName()))
            ++N.VariantCalls;
          else if (Call->getArgOperand(0)->getType()->isVectorTy())
            ++N.LaneCalls;
        }
  return N;
}

class MathVectorCodegen : public ::testing::Test {
protected:
  void SetUp() override {
    auto Host = vf::test::createHostJit();
    ASSERT_TRUE(bool(Host)) << toString(Host.takeError());
    auto Ctx = std::make_unique<LLVMContext>();
    auto M = Host->newModule("trig_vector", *Ctx);
    TM = std::move(Host->TM);
    JIT = std::move(Host->JIT);
    for (const SlowPathCase &C : Cases) {
      std::string Callee = std::string("vf_") + C.Name;
      Type *T = C.NativeF ? Type::getFloatTy(*Ctx) : Type::getDoubleTy(*Ctx);
      addLoop(*M, T, Callee, "vec_" + Callee, /*Vectorize=*/true);
      addLoop(*M, T, Callee, "scalar_" + Callee, /*Vectorize=*/false);
    }
    ASSERT_FALSE(
        errorToBool(vf::linkMathLibrary(*M, vf::BitcodeTarget::Host)));
    vf::optimizeModule(*M, *TM);
    std::string Err;
    raw_string_ostream OS(Err);
    ASSERT_FALSE(verifyModule(*M, &OS)) << Err;
    for (const SlowPathCase &C : Cases) {
      std::string Callee = std::string("vf_") + C.Name;
      VectorCalls.push_back(
          slowPathCalls(*M->getFunction("vec_" + Callee), C.SlowPath));
      ScalarCalls.push_back(
          slowPathCalls(*M->getFunction("scalar_" + Callee), C.SlowPath));
    }
    for (const Function &F : *M)
      if (F.getName().contains("_vmask") && !isLaneCalls(F.getName()))
        VariantsLeft.push_back(F.getName().str());
    ASSERT_FALSE(errorToBool(
        JIT->addIRModule(ThreadSafeModule(std::move(M), std::move(Ctx)))));
  }

  LoopFn lookup(const std::string &Name) {
    auto Addr = JIT->lookup(Name);
    if (!Addr) {
      ADD_FAILURE() << toString(Addr.takeError());
      return nullptr;
    }
    return Addr->toPtr<LoopFn>();
  }

  std::unique_ptr<TargetMachine> TM;
  std::unique_ptr<LLJIT> JIT;
  std::vector<SlowPathCalls> VectorCalls, ScalarCalls;
  std::vector<std::string> VariantsLeft; // masked variants after O2
};

TEST_F(MathVectorCodegen, LoopTestsMaskBeforeSlowPath) {
  for (size_t K = 0; K < std::size(Cases); ++K) {
    EXPECT_GE(VectorCalls[K].LaneCalls, 1u) << Cases[K].Name;
    EXPECT_EQ(VectorCalls[K].VariantCalls, 0u) << Cases[K].Name;
    EXPECT_EQ(ScalarCalls[K].LaneCalls, 0u) << Cases[K].Name;
  }
  // Inlined where used, the variants are not compiled to machine code.
  EXPECT_TRUE(VariantsLeft.empty()) << VariantsLeft.front();
}

// Runs case C's vector and scalar loops on In and compares both with the
// native build, bit for bit.
template <typename T>
void expectSameBits(const SlowPathCase &C, T (*Native)(T), LoopFn VecFn,
                    LoopFn ScalarFn, const std::vector<T> &In) {
  int64_t N = In.size();
  std::vector<T> Vec(N), Scalar(N);
  VecFn(Vec.data(), In.data(), N);
  ScalarFn(Scalar.data(), In.data(), N);
  unsigned Bad = 0;
  for (int64_t I = 0; I < N && Bad < 10; ++I) {
    T Ref = Native(In[I]);
    bool Same = std::memcmp(&Vec[I], &Ref, sizeof Ref) == 0 &&
                std::memcmp(&Scalar[I], &Ref, sizeof Ref) == 0;
    if (!Same) {
      ++Bad;
      ADD_FAILURE() << C.Name << "(" << std::hexfloat << In[I] << "): vector "
                    << Vec[I] << ", scalar " << Scalar[I] << ", native " << Ref;
    }
  }
}

TEST_F(MathVectorCodegen, BigLanesMatchScalarAndNative) {
  // Mostly fast-path arguments, with big ones, the edges of the fast
  // ranges (2^30 for trig, 2^17 for float trig, the normal range for log),
  // zeros, negatives, subnormals, infinities and NaN scattered so that
  // vectors of 2 to 16 lanes see none, one or several of them.
  const double Inf = std::numeric_limits<double>::infinity();
  const double Special[] = {1e300,
                            -1e22,
                            0x1p30,
                            -0x1.fffffffffffffp+29,
                            0x1.0000000000001p+30,
                            0x1.6ac5b262ca1ffp849,
                            0x1.6c6cbc45dc8dep+5,
                            Inf,
                            -Inf,
                            std::numeric_limits<double>::quiet_NaN(),
                            -0.0,
                            0.0,
                            -1.0,
                            0x1p-1074,
                            0x1.8p-1060,
                            0x0.fffffffffffffp-1022,
                            0x1p-1022,
                            0x1.fffffffffffffp+1023};
  const float SpecialF[] = {
      1e30f,          -1e22f,
      0x1p17f,        -0x1.fffffep16f,
      0x1.000002p17f, 0x1.5fdbbep119f,
      3e38f,          (float)Inf,
      -(float)Inf,    std::numeric_limits<float>::quiet_NaN(),
      -0.0f,          0.0f,
      -1.0f,          0x1p-149f,
      0x1p-126f,      1e5f};
  std::mt19937_64 G(11);
  std::uniform_int_distribution<int> Pick(0, 6);
  const int64_t N = 4099; // not a multiple of any width: the tail runs too
  for (const SlowPathCase &C : Cases) {
    std::uniform_real_distribution<double> U(C.Lo, C.Hi);
    std::string Callee = std::string("vf_") + C.Name;
    LoopFn VecFn = lookup("vec_" + Callee);
    LoopFn ScalarFn = lookup("scalar_" + Callee);
    ASSERT_NE(VecFn, nullptr);
    ASSERT_NE(ScalarFn, nullptr);
    size_t S = 0;
    if (C.NativeF) {
      std::vector<float> In(N);
      for (int64_t I = 0; I < N; ++I)
        In[I] =
            Pick(G) == 0 ? SpecialF[S++ % std::size(SpecialF)] : (float)U(G);
      expectSameBits(C, C.NativeF, VecFn, ScalarFn, In);
    } else {
      std::vector<double> In(N);
      for (int64_t I = 0; I < N; ++I)
        In[I] = Pick(G) == 0 ? Special[S++ % std::size(Special)] : U(G);
      expectSameBits(C, C.Native, VecFn, ScalarFn, In);
    }
  }
}

} // namespace
