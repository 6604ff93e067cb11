//===- bench/math/math_throughput.cpp - vf_* in a JIT loop vs glibc, SLEEF ===//
//
// Throughput of exp, log, sin, cos and pow over a 10^7-element array, three
// ways in one process:
//   vegasflow  an LLVM IR loop `out[i] = vf_f(in[i])` built here, linked
//              with the math library through linkMathLibrary, optimized at
//              O2 for the host CPU (so the library inlines and the loop
//              vectorizes) and run by ORC LLJIT;
//   glibc      the same loop in C++ calling libm's scalar functions;
//   SLEEF      SLEEF's vectorized 1-ulp functions (d8 on AVX-512, d4 on
//              AVX2).
// Prints ns per element (best of several runs) and the ratios, and checks
// that the JIT results equal the native build of the library bit for bit.
// Then the same loop for every single-precision function vf_*f (floats,
// 16 to a vector on AVX-512) against glibc's float functions.
//
// usage: math_throughput [N] [REPEATS]
//
//===----------------------------------------------------------------------===//

#include "SleefKernels.h"
#include "backends/Optimizer.h"
#include "bitcode/MathLibrary.h"
#include "vfmath.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/TargetParser/Host.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace llvm;
using namespace llvm::orc;

namespace {

ExitOnError ExitOnErr("math_throughput: ");

using LoopFn = void (*)(double *Out, const double *In, const double *In2,
                        size_t N);

struct Case {
  const char *Name;
  bool Binary;
  double (*Glibc)(double);
  double (*Glibc2)(double, double);
  double (*Native)(double);
  double (*Native2)(double, double);
};

const Case Cases[] = {
    {"exp", false, ::exp, nullptr, vf_exp, nullptr},
    {"log", false, ::log, nullptr, vf_log, nullptr},
    {"sin", false, ::sin, nullptr, vf_sin, nullptr},
    {"cos", false, ::cos, nullptr, vf_cos, nullptr},
    {"pow", true, nullptr, ::pow, nullptr, vf_pow},
};

// (1) The IR loop: void loop_f(T *noalias out, const T *noalias in,
// const T *noalias in2, i64 n) { for i < n: out[i] = Callee(in[i]) }, T
// double or float.
void addLoop(Module &M, Type *D, const std::string &Callee, bool Binary) {
  LLVMContext &Ctx = M.getContext();
  Type *I64 = Type::getInt64Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee F =
      M.getOrInsertFunction(Callee, Binary ? FunctionType::get(D, {D, D}, false)
                                           : FunctionType::get(D, {D}, false));
  Function *L =
      Function::Create(FunctionType::get(Type::getVoidTy(Ctx),
                                         {Ptr, Ptr, Ptr, I64}, false),
                       Function::ExternalLinkage, "loop_" + Callee, M);
  for (unsigned I = 0; I < 3; ++I)
    L->addParamAttr(I, Attribute::NoAlias);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", L);
  BasicBlock *Body = BasicBlock::Create(Ctx, "body", L);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", L);
  IRBuilder<> B(Entry);
  B.CreateCondBr(B.CreateICmpSGT(L->getArg(3), B.getInt64(0)), Body, Exit);
  B.SetInsertPoint(Body);
  PHINode *I = B.CreatePHI(I64, 2, "i");
  I->addIncoming(B.getInt64(0), Entry);
  Value *X = B.CreateLoad(D, B.CreateGEP(D, L->getArg(1), I));
  Value *Y;
  if (Binary) {
    Value *X2 = B.CreateLoad(D, B.CreateGEP(D, L->getArg(2), I));
    Y = B.CreateCall(F, {X, X2});
  } else {
    Y = B.CreateCall(F, {X});
  }
  B.CreateStore(Y, B.CreateGEP(D, L->getArg(0), I));
  Value *Next = B.CreateAdd(I, B.getInt64(1), "next", true, true);
  I->addIncoming(Next, Body);
  BranchInst *Latch =
      B.CreateCondBr(B.CreateICmpSLT(Next, L->getArg(3)), Body, Exit);
  // Ask for vectorization as the sampling loop will: on AVX2 the cost
  // model underrates loops with gathers (pow's log table) and would keep
  // them scalar.
  MDNode *Enable = MDNode::get(
      Ctx, {MDString::get(Ctx, "llvm.loop.vectorize.enable"),
            ConstantAsMetadata::get(B.getTrue())});
  MDNode *LoopID = MDNode::getDistinct(Ctx, {nullptr, Enable});
  LoopID->replaceOperandWith(0, LoopID);
  Latch->setMetadata(LLVMContext::MD_loop, LoopID);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
}

// Widest vector of T in the loop after O2 (1 = not vectorized).
unsigned vectorWidth(const Function &F, Type *T) {
  unsigned W = 1;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB)
      if (auto *VT = dyn_cast<FixedVectorType>(I.getType()))
        if (VT->getElementType() == T)
          W = std::max(W, VT->getNumElements());
  return W;
}

template <typename Fn> double bestNs(Fn &&Run, size_t N, int Repeats) {
  double Best = 1e300;
  for (int R = 0; R < Repeats; ++R) {
    auto T0 = std::chrono::steady_clock::now();
    Run();
    auto T1 = std::chrono::steady_clock::now();
    Best = std::min(
        Best, std::chrono::duration<double, std::nano>(T1 - T0).count() / N);
  }
  return Best;
}

// Scalar libm loops, kept out of line so the compiler calls libm per
// element (no libmvec is enabled): a Case's doubles, a FloatCase's floats.
template <typename CaseT, typename T>
__attribute__((noinline)) void glibcLoop(const CaseT &C, T *Out, const T *In,
                                         const T *In2, size_t N) {
  if (C.Binary)
    for (size_t I = 0; I < N; ++I)
      Out[I] = C.Glibc2(In[I], In2[I]);
  else
    for (size_t I = 0; I < N; ++I)
      Out[I] = C.Glibc(In[I]);
}

// The single-precision functions, each with glibc's float function and the
// range its inputs are drawn from (uniform; pow: y in [Lo2, Hi2]).
struct FloatCase {
  const char *Name;
  bool Binary;
  float (*Glibc)(float);
  float (*Glibc2)(float, float);
  float (*Native)(float);
  float (*Native2)(float, float);
  float Lo, Hi, Lo2 = 0, Hi2 = 0;
};

const FloatCase FloatCases[] = {
    {"exp", false, ::expf, nullptr, vf_expf, nullptr, -80, 80},
    {"expm1", false, ::expm1f, nullptr, vf_expm1f, nullptr, -10, 10},
    {"log", false, ::logf, nullptr, vf_logf, nullptr, 1e-30f, 1e30f},
    {"log1p", false, ::log1pf, nullptr, vf_log1pf, nullptr, -0.9f, 10},
    {"log10", false, ::log10f, nullptr, vf_log10f, nullptr, 1e-30f, 1e30f},
    {"pow", true, nullptr, ::powf, nullptr, vf_powf, 0.1f, 10, -30, 30},
    {"sqrt", false, ::sqrtf, nullptr, vf_sqrtf, nullptr, 0, 100},
    {"cbrt", false, ::cbrtf, nullptr, vf_cbrtf, nullptr, -100, 100},
    {"sin", false, ::sinf, nullptr, vf_sinf, nullptr, -10, 10},
    {"cos", false, ::cosf, nullptr, vf_cosf, nullptr, -10, 10},
    {"tan", false, ::tanf, nullptr, vf_tanf, nullptr, -10, 10},
    {"asin", false, ::asinf, nullptr, vf_asinf, nullptr, -1, 1},
    {"acos", false, ::acosf, nullptr, vf_acosf, nullptr, -1, 1},
    {"atan", false, ::atanf, nullptr, vf_atanf, nullptr, -10, 10},
    {"atan2", true, nullptr, ::atan2f, nullptr, vf_atan2f, -10, 10, -10, 10},
    {"sinh", false, ::sinhf, nullptr, vf_sinhf, nullptr, -20, 20},
    {"cosh", false, ::coshf, nullptr, vf_coshf, nullptr, -20, 20},
    {"tanh", false, ::tanhf, nullptr, vf_tanhf, nullptr, -5, 5},
    {"erf", false, ::erff, nullptr, vf_erff, nullptr, -4, 4},
    {"erfc", false, ::erfcf, nullptr, vf_erfcf, nullptr, -4, 10},
    {"floor", false, ::floorf, nullptr, vf_floorf, nullptr, -100, 100},
    {"ceil", false, ::ceilf, nullptr, vf_ceilf, nullptr, -100, 100},
    {"fabs", false, ::fabsf, nullptr, vf_fabsf, nullptr, -100, 100},
};

using FloatLoopFn = void (*)(float *Out, const float *In, const float *In2,
                             size_t N);

// (6) The float table: vf_*f in the JIT loop against glibc, and the JIT's
// bits against the native build's. Returns whether all bits agreed.
bool runFloat(LLJIT &JIT, const std::vector<unsigned> &Widths, size_t N,
              int Repeats) {
  std::mt19937_64 G(43);
  std::vector<float> In(N), In2(N), Out(N);
  std::printf("\nsingle precision\n%-5s %9s %9s %10s %6s %9s\n", "func",
              "vf ns/el", "glibc", "glibc/vf", "width", "mismatch");
  bool Ok = true;
  for (size_t K = 0; K < std::size(FloatCases); ++K) {
    const FloatCase &C = FloatCases[K];
    std::uniform_real_distribution<float> U(C.Lo, C.Hi), U2(C.Lo2, C.Hi2);
    for (size_t I = 0; I < N; ++I) {
      In[I] = U(G);
      In2[I] = C.Binary ? U2(G) : 0.0f;
    }
    auto Fn = ExitOnErr(JIT.lookup(std::string("loop_vf_") + C.Name + "f"))
                  .toPtr<FloatLoopFn>();
    double Vf =
        bestNs([&] { Fn(Out.data(), In.data(), In2.data(), N); }, N, Repeats);
    size_t Mismatch = 0;
    for (size_t I = 0; I < N; ++I) {
      float Ref = C.Binary ? C.Native2(In[I], In2[I]) : C.Native(In[I]);
      Mismatch += std::memcmp(&Ref, &Out[I], sizeof(float)) != 0;
    }
    Ok &= Mismatch == 0;
    double Gl =
        bestNs([&] { glibcLoop(C, Out.data(), In.data(), In2.data(), N); }, N,
               Repeats);
    std::printf("%-5s %9.3f %9.3f %9.2fx %6u %9zu\n", C.Name, Vf, Gl, Gl / Vf,
                Widths[K], Mismatch);
  }
  return Ok;
}

// The module of every loop (the double cases, then the float ones), the
// library linked in, optimized at O2 for TM; Widths and FloatWidths get
// each loop's vector width.
ThreadSafeModule buildLoops(TargetMachine &TM, std::vector<unsigned> &Widths,
                            std::vector<unsigned> &FloatWidths) {
  auto Ctx = std::make_unique<LLVMContext>();
  auto M = std::make_unique<Module>("math_throughput", *Ctx);
  M->setTargetTriple(TM.getTargetTriple().str());
  M->setDataLayout(TM.createDataLayout());
  Type *D = Type::getDoubleTy(*Ctx), *F = Type::getFloatTy(*Ctx);
  for (const Case &C : Cases)
    addLoop(*M, D, std::string("vf_") + C.Name, C.Binary);
  for (const FloatCase &C : FloatCases)
    addLoop(*M, F, std::string("vf_") + C.Name + "f", C.Binary);
  ExitOnErr(vf::linkMathLibrary(*M, vf::BitcodeTarget::Host));
  vf::optimizeModule(*M, TM);
  if (verifyModule(*M, &errs()))
    ExitOnErr(make_error<StringError>("module does not verify",
                                      inconvertibleErrorCode()));
  for (const Case &C : Cases)
    Widths.push_back(
        vectorWidth(*M->getFunction(std::string("loop_vf_") + C.Name), D));
  for (const FloatCase &C : FloatCases)
    FloatWidths.push_back(vectorWidth(
        *M->getFunction(std::string("loop_vf_") + C.Name + "f"), F));
  return ThreadSafeModule(std::move(M), std::move(Ctx));
}

} // namespace

int main(int Argc, char **Argv) {
  size_t N = Argc > 1 ? std::strtoull(Argv[1], nullptr, 10) : 10000000;
  N = (N + 7) / 8 * 8;
  int Repeats = Argc > 2 ? std::atoi(Argv[2]) : 5;

  // (3) LLJIT for the host, and a TargetMachine for the optimizer.
  InitializeNativeTarget();
  InitializeNativeTargetAsmPrinter();
  auto JTMB = ExitOnErr(JITTargetMachineBuilder::detectHost());
  JTMB.setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  std::unique_ptr<TargetMachine> TM = ExitOnErr(JTMB.createTargetMachine());
  auto JIT = ExitOnErr(LLJITBuilder().setJITTargetMachineBuilder(JTMB).create());

  // (4) One module with all the loops, the library linked in, O2.
  std::vector<unsigned> Widths, FloatWidths;
  ExitOnErr(JIT->addIRModule(buildLoops(*TM, Widths, FloatWidths)));

  // (5) Inputs: exp on [-700, 700], log on [1e-300, 1e300] (exponent-
  // uniform), sin and cos on [-10, 10] (the sampling-loop case), pow with
  // x in [0.1, 10] and y in [-30, 30].
  std::mt19937_64 G(42);
  std::vector<double> In(N), In2(N), Out(N), Ref(N);
  std::uniform_real_distribution<double> U(0, 1);
  auto Fill = [&](const Case &C) {
    for (size_t I = 0; I < N; ++I) {
      double R = U(G);
      if (!std::strcmp(C.Name, "exp"))
        In[I] = -700 + 1400 * R;
      else if (!std::strcmp(C.Name, "log"))
        In[I] = std::exp((-1 + 2 * R) * 690.0);
      else if (!std::strcmp(C.Name, "sin") || !std::strcmp(C.Name, "cos"))
        In[I] = -10 + 20 * R;
      else {
        In[I] = 0.1 + 9.9 * R;
        In2[I] = -30 + 60 * U(G);
      }
    }
  };

  bool Avx512 = __builtin_cpu_supports("avx512f");
  vf::bench::SleefKernels Sleef =
      Avx512 ? vf::bench::sleefAVX512() : vf::bench::sleefAVX2();
  vf::bench::SleefLoop SleefLoops[] = {Sleef.Exp, Sleef.Log, Sleef.Sin,
                                       Sleef.Cos, Sleef.Pow};

  std::printf("host CPU: %s, N = %zu, best of %d; SLEEF %s u10\n",
              sys::getHostCPUName().str().c_str(), N, Repeats,
              Avx512 ? "d8 (AVX-512)" : "d4 (AVX2)");
  std::printf("%-5s %9s %9s %9s %10s %10s %6s %9s\n", "func", "vf ns/el",
              "glibc", "SLEEF", "glibc/vf", "vf/SLEEF", "width",
              "mismatch");
  for (size_t K = 0; K < std::size(Cases); ++K) {
    const Case &C = Cases[K];
    Fill(C);
    auto Fn = ExitOnErr(JIT->lookup(std::string("loop_vf_") + C.Name))
                  .toPtr<LoopFn>();
    double Vf = bestNs([&] { Fn(Out.data(), In.data(), In2.data(), N); }, N,
                       Repeats);
    // The JIT-compiled library must agree bit for bit with the native build.
    size_t Mismatch = 0;
    for (size_t I = 0; I < N; ++I) {
      Ref[I] = C.Binary ? C.Native2(In[I], In2[I]) : C.Native(In[I]);
      Mismatch += std::memcmp(&Ref[I], &Out[I], sizeof(double)) != 0;
    }
    double Gl = bestNs(
        [&] { glibcLoop(C, Out.data(), In.data(), In2.data(), N); }, N,
        Repeats);
    double Sl = bestNs(
        [&] { SleefLoops[K](Out.data(), In.data(), In2.data(), N); }, N,
        Repeats);
    std::printf("%-5s %9.3f %9.3f %9.3f %9.2fx %9.2fx %6u %9zu\n", C.Name, Vf,
                Gl, Sl, Gl / Vf, Vf / Sl, Widths[K], Mismatch);
  }
  return runFloat(*JIT, FloatWidths, N, Repeats) ? 0 : 1;
}
