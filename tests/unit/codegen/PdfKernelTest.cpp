//===- tests/unit/codegen/PdfKernelTest.cpp - PDFs as kernels see them ----===//
//
// The parton-density evaluation a kernel links (compiler/bitcode's
// linkPdfLibrary: runtime/pdf's C sources as embedded bitcode, with the
// math library) gives, JIT-compiled at O2, bit for bit the values the
// host's runtime/pdf computes from the same sources built natively: xf of
// every flavour (and ids the set lacks) on and off the grid (below x_min,
// above Q_max, below Q_min, both, unphysical points), and alpha_s of both
// members of the shipped set (ipol and analytic), and every flavour's
// slot of the all-flavour lookup. The nvptx64 build links
// and lowers to PTX with no call left outside the module.
//
//===----------------------------------------------------------------------===//

#include "HostJit.h"
#include "backends/GpuCodeGen.h"
#include "backends/Optimizer.h"
#include "bitcode/MathLibrary.h"
#include "bitcode/PdfLibrary.h"
#include "pdf/PdfSet.h"
#include "pdf/PdfTable.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ThreadSafeModule.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace llvm;
using namespace llvm::orc;

namespace {

using XfxFn = double (*)(const vf_pdf_grid *, int, double, double);
using AlphasFn = double (*)(const vf_pdf_alphas *, double);
using TableXfxFn = double (*)(const void *, std::uint32_t, int, double, double);
using TableAlphasFn = double (*)(const void *, std::uint32_t, double);
using TableXfxAllFn = void (*)(const void *, std::uint32_t, double, double,
                               double *);

// kernel_xfx(grid, pid, x, q2), kernel_alphas(alphas, q2) and their
// lookups in a block, kernel_table_xfx(table, member, pid, x, q) and
// kernel_table_alphas(table, member, q), kernel_table_xfx_all(table,
// member, x, q, out): external wrappers around the
// library's entry points, which the link internalizes.
void addWrappers(Module &M) {
  LLVMContext &Ctx = M.getContext();
  Type *D = Type::getDoubleTy(Ctx), *I32 = Type::getInt32Ty(Ctx);
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto Wrap = [&](const char *Name, const char *Callee, ArrayRef<Type *> Params,
                  Type *Result) {
    FunctionType *FT = FunctionType::get(Result, Params, false);
    FunctionCallee Target = M.getOrInsertFunction(Callee, FT);
    Function *F = Function::Create(FT, Function::ExternalLinkage, Name, M);
    IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
    std::vector<Value *> Args;
    for (Argument &A : F->args())
      Args.push_back(&A);
    CallInst *Call = B.CreateCall(Target, Args);
    Result->isVoidTy() ? B.CreateRetVoid() : B.CreateRet(Call);
  };
  Wrap("kernel_xfx", "vf_pdf_xfxq2", {Ptr, I32, D, D}, D);
  Wrap("kernel_alphas", "vf_pdf_alphasq2", {Ptr, D}, D);
  Wrap("kernel_table_xfx", "vf_pdf_table_xfx", {Ptr, I32, I32, D, D}, D);
  Wrap("kernel_table_alphas", "vf_pdf_table_alphas", {Ptr, I32, D}, D);
  Wrap("kernel_table_xfx_all", "vf_pdf_table_xfx_all", {Ptr, I32, D, D, Ptr},
       Type::getVoidTy(Ctx));
}

vf::pdf::PdfMember loadToyMember(unsigned Index) {
  vf::Expected<vf::pdf::PdfSet> Set =
      vf::pdf::PdfSet::open(std::string(VF_PDF_TESTDATA) + "/VFToyLO", {});
  EXPECT_TRUE(Set) << Set.message();
  vf::Expected<vf::pdf::PdfMember> M = Set->loadMember(Index);
  EXPECT_TRUE(M) << M.message();
  return std::move(*M);
}

std::uint64_t bitsOf(double V) {
  std::uint64_t B;
  std::memcpy(&B, &V, sizeof B);
  return B;
}

// x from below x_min (1e-5) to 1 and a little past it; Q^2 from below
// Q_min^2 (2) to above Q_max^2 (1e8), knots and shared subgrid edges among
// them, and unphysical values.
std::vector<double> xPoints() {
  std::vector<double> X = {-0.1, 0.0, 1e-9, 1e-5, 0.5, 1.0, 1.0000001};
  for (double L = -7.9; L < 0; L += 0.173)
    X.push_back(std::pow(10.0, L));
  return X;
}

std::vector<double> q2Points() {
  std::vector<double> Q2 = {-1.0, 0.0, 1e-6, 2.0, 4.5, 25.0, 1e8, 3e9};
  for (double L = -1.3; L < 10; L += 0.211)
    Q2.push_back(std::pow(10.0, L));
  return Q2;
}

class PdfKernel : public ::testing::Test {
protected:
  void SetUp() override {
    auto Host = vf::test::createHostJit();
    ASSERT_TRUE(bool(Host)) << toString(Host.takeError());
    JIT = std::move(Host->JIT);

    auto Ctx = std::make_unique<LLVMContext>();
    auto M = Host->newModule("pdf_kernel", *Ctx);
    addWrappers(*M);
    ASSERT_FALSE(errorToBool(vf::linkPdfLibrary(*M, vf::BitcodeTarget::Host)));
    ASSERT_FALSE(errorToBool(vf::linkMathLibrary(*M, vf::BitcodeTarget::Host)));
    vf::optimizeModule(*M, *Host->TM);
    std::string Err;
    raw_string_ostream OS(Err);
    ASSERT_FALSE(verifyModule(*M, &OS)) << Err;
    ASSERT_FALSE(errorToBool(
        JIT->addIRModule(ThreadSafeModule(std::move(M), std::move(Ctx)))));
    auto X = JIT->lookup("kernel_xfx");
    ASSERT_TRUE(bool(X)) << toString(X.takeError());
    Xfx = X->toPtr<XfxFn>();
    auto A = JIT->lookup("kernel_alphas");
    ASSERT_TRUE(bool(A)) << toString(A.takeError());
    Alphas = A->toPtr<AlphasFn>();
    auto TX = JIT->lookup("kernel_table_xfx");
    ASSERT_TRUE(bool(TX)) << toString(TX.takeError());
    TableXfx = TX->toPtr<TableXfxFn>();
    auto TA = JIT->lookup("kernel_table_alphas");
    ASSERT_TRUE(bool(TA)) << toString(TA.takeError());
    TableAlphas = TA->toPtr<TableAlphasFn>();
    auto All = JIT->lookup("kernel_table_xfx_all");
    ASSERT_TRUE(bool(All)) << toString(All.takeError());
    TableXfxAll = All->toPtr<TableXfxAllFn>();
  }

  std::unique_ptr<LLJIT> JIT;
  XfxFn Xfx = nullptr;
  AlphasFn Alphas = nullptr;
  TableXfxFn TableXfx = nullptr;
  TableAlphasFn TableAlphas = nullptr;
  TableXfxAllFn TableXfxAll = nullptr;
};

TEST_F(PdfKernel, XfxHasTheHostsBitsOnAndOffTheGrid) {
  const vf::pdf::PdfMember M = loadToyMember(0);
  const vf_pdf_grid G = M.Grid.view();
  const int Ids[] = {-6, -5, -2, -1, 0, 1, 2, 3, 5, 6, 21, 22, 11};
  std::size_t Compared = 0, Mismatched = 0;
  for (int Pid : Ids)
    for (double X : xPoints())
      for (double Q2 : q2Points()) {
        const double Host = M.xfxQ2(Pid, X, Q2);
        const double Kernel = Xfx(&G, Pid, X, Q2);
        ++Compared;
        if (bitsOf(Host) != bitsOf(Kernel) && ++Mismatched <= 5)
          ADD_FAILURE() << "pid " << Pid << " x " << X << " Q2 " << Q2
                        << ": host " << Host << ", kernel " << Kernel;
      }
  EXPECT_EQ(Mismatched, 0u) << "of " << Compared;
  EXPECT_GT(Compared, 20000u);
}

TEST_F(PdfKernel, AlphasHasTheHostsBitsForBothTypes) {
  for (unsigned Member : {0u, 1u}) {
    const vf::pdf::PdfMember M = loadToyMember(Member);
    const vf_pdf_alphas A = M.Alpha.view();
    for (double Q2 : q2Points()) {
      if (Q2 <= 0)
        continue;
      EXPECT_EQ(bitsOf(M.Alpha.alphasQ2(Q2)), bitsOf(Alphas(&A, Q2)))
          << "member " << Member << " Q2 " << Q2;
    }
  }
}

TEST_F(PdfKernel, ABlockElsewhereHasTheHostsBitsByMemberIndex) {
  const vf::pdf::PdfMember M0 = loadToyMember(0), M1 = loadToyMember(1);
  const vf::pdf::PdfTable T = vf::pdf::PdfTable::build({&M1, &M0});
  std::vector<std::uint64_t> Device(T.bytes() / 8);
  std::memcpy(Device.data(), T.data(), T.bytes());
  const vf::pdf::PdfMember *ByIndex[] = {&M1, &M0};
  std::size_t Mismatched = 0;
  for (std::uint32_t K = 0; K < 2; ++K)
    for (int Pid : {-5, -2, 0, 1, 2, 21, 6})
      for (double X : xPoints())
        for (double Q2 : q2Points()) {
          const double Q = Q2 > 0 ? std::sqrt(Q2) : Q2;
          const double Host = ByIndex[K]->xfx(Pid, X, Q);
          const double Kernel = TableXfx(Device.data(), K, Pid, X, Q);
          if (bitsOf(Host) != bitsOf(Kernel) && ++Mismatched <= 5)
            ADD_FAILURE() << "member " << K << " pid " << Pid << " x " << X
                          << " Q " << Q;
          if (Q > 0 && Pid == 0 && X == 0.5)
            EXPECT_EQ(bitsOf(ByIndex[K]->alphasQ(Q)),
                      bitsOf(TableAlphas(Device.data(), K, Q)));
        }
  EXPECT_EQ(Mismatched, 0u);
  EXPECT_TRUE(std::isnan(TableXfx(Device.data(), 2, 2, 0.1, 10)));
}

TEST_F(PdfKernel, AllFlavoursHaveTheHostsBitsInEachSlot) {
  const vf::pdf::PdfMember M0 = loadToyMember(0), M1 = loadToyMember(1);
  const vf::pdf::PdfTable T = vf::pdf::PdfTable::build({&M0, &M1});
  const vf::pdf::PdfMember *ByIndex[] = {&M0, &M1};
  std::size_t Mismatched = 0;
  for (std::uint32_t K = 0; K < 2; ++K)
    for (double X : xPoints())
      for (double Q2 : q2Points()) {
        const double Q = Q2 > 0 ? std::sqrt(Q2) : Q2;
        double All[VF_PDF_NUM_SLOTS];
        TableXfxAll(T.data(), K, X, Q, All);
        for (int Pid : {-6, -5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 6, 21, 22})
          if (bitsOf(ByIndex[K]->xfx(Pid, X, Q)) !=
                  bitsOf(All[vf_pdf_pid_slot(Pid)]) &&
              ++Mismatched <= 5)
            ADD_FAILURE() << "member " << K << " pid " << Pid << " x " << X
                          << " Q " << Q;
      }
  EXPECT_EQ(Mismatched, 0u);
}

// The GPU build: linked for nvptx64 and lowered to PTX, every function it
// needs is in the module (no .extern .func left to resolve).
TEST(PdfKernelPtx, LowersWithNothingExternal) {
  const vf::GpuCodeGen &Cuda = vf::cudaCodeGen();
  auto TMOrErr = Cuda.createTargetMachine("sm_80");
  ASSERT_TRUE(bool(TMOrErr)) << toString(TMOrErr.takeError());
  std::unique_ptr<TargetMachine> TM = std::move(*TMOrErr);
  LLVMContext Ctx;
  Module M("pdf_kernel_ptx", Ctx);
  M.setTargetTriple(TM->getTargetTriple().str());
  M.setDataLayout(TM->createDataLayout());
  addWrappers(M);
  ASSERT_FALSE(errorToBool(vf::linkPdfLibrary(M, vf::BitcodeTarget::NVPTX)));
  ASSERT_FALSE(errorToBool(vf::linkMathLibrary(M, vf::BitcodeTarget::NVPTX)));
  vf::optimizeModule(M, *TM);
  SmallString<0> Ptx;
  raw_svector_ostream OS(Ptx);
  legacy::PassManager PM;
  ASSERT_FALSE(
      TM->addPassesToEmitFile(PM, OS, nullptr, CodeGenFileType::AssemblyFile));
  PM.run(M);
  const std::string Text(Ptx.str());
  EXPECT_NE(Text.find(".func  (.param .b64 func_retval0) kernel_xfx"),
            std::string::npos)
      << Text.substr(0, 2000);
  EXPECT_EQ(Text.find(".extern .func"), std::string::npos);
}

} // namespace
