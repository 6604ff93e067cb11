//===- codegen/IRGen.cpp - Entry points of an integrand module ------------===//
//
// The integrand function takes noalias pointers so LLVM can keep parameter
// loads out of loops; the batch loop is written plainly so the loop
// vectorizer (after the integrand is inlined) widens it across points.
//
//===----------------------------------------------------------------------===//

#include "codegen/IRGen.h"
#include "codegen/ExprGen.h"
#include "codegen/GpuKernelABI.h"
#include "codegen/WeightsGen.h"
#include "frontend/Program.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace vf {

std::string integrandSymbol(StringRef Name) {
  return ("vf_integrand_" + Name).str();
}
std::string channelSymbol(StringRef Name, unsigned Channel) {
  return (integrandSymbol(Name) + ".ch" + Twine(Channel)).str();
}
std::string batchSymbol(StringRef Name) { return ("vf_batch_" + Name).str(); }
std::string gpuEvalSymbol(StringRef Name) { return ("vf_eval_" + Name).str(); }
std::string cellsSymbol(StringRef Name) { return ("vf_cells_" + Name).str(); }
std::string weightsSymbol(StringRef Name) {
  return ("vf_weights_" + Name).str();
}
std::string boundsSymbol(StringRef Name) {
  return ("vf_bounds_" + Name).str();
}
std::string sampleTileSymbol(StringRef Name) {
  return ("vf_sample_tile_" + Name).str();
}
std::string gpuSampleSymbol(StringRef Name) {
  return ("vf_sample_tiles_gpu_" + Name).str();
}
std::string pointsSymbol(StringRef Name) { return ("vf_points_" + Name).str(); }
std::string channelBatchSymbol(StringRef Name, unsigned Channel) {
  return (batchSymbol(Name) + ".ch" + Twine(Channel)).str();
}
std::string channelPointsSymbol(StringRef Name, unsigned Channel) {
  return (pointsSymbol(Name) + ".ch" + Twine(Channel)).str();
}

namespace {

void markNoAlias(Function *F, unsigned NumPtrs) {
  for (unsigned K = 0; K < NumPtrs; ++K)
    F->addParamAttr(K, Attribute::NoAlias);
}

/// \p V as the double the entry points store: a single-precision value
/// widened (exactly).
Value *asStored(IRBuilderBase &B, Value *V) {
  return V->getType()->isFloatTy() ? B.CreateFPExt(V, B.getDoubleTy()) : V;
}

/// \p I's function, or for \p Channel its term alone (ExprGen.h).
Function *emitIntegrand(Module &M, const IntegrandDecl &I, bool Host,
                        SingleCodegen *Single,
                        std::optional<ChannelTerm> Channel = std::nullopt) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, Ptr}, false);
  Function *F = Function::Create(FT, GlobalValue::InternalLinkage,
                                 Channel ? channelSymbol(I.Name, Channel->Index)
                                         : integrandSymbol(I.Name),
                                 M);
  F->addFnAttr(Attribute::AlwaysInline);
  F->addFnAttr(Attribute::NoUnwind);
  markNoAlias(F, 3);
  F->addParamAttr(0, Attribute::ReadOnly);
  F->addParamAttr(1, Attribute::ReadOnly);
  F->addParamAttr(2, Attribute::WriteOnly);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  // The samplers sum the entries after the histograms' cells
  // (runtime/kernels/Sampler.c, GpuSampler.c).
  const unsigned Hists = unsigned(I.Histograms.size());
  const bool Entries = !Channel && I.WeightEntries;
  Value *EntryOut =
      Entries ? B.CreateConstInBoundsGEP1_64(B.getDoubleTy(), F->getArg(2),
                                             I.Outputs + Hists)
              : nullptr;
  auto Sink = [&](Value *Slot, Value *Entry) {
    B.CreateStore(asStored(B, Entry),
                  B.CreateInBoundsGEP(B.getDoubleTy(), EntryOut, Slot));
  };
  SmallVector<Value *, 4> Outs = emitIntegrandBody(
      B, M, I, F->getArg(0), F->getArg(1),
      /*HoistParamCalls=*/Host, Channel,
      Entries ? WeightSink(Sink) : WeightSink(nullptr), Single);
  for (size_t K = 0; K < Outs.size(); ++K)
    B.CreateStore(asStored(B, Outs[K]), B.CreateConstInBoundsGEP1_64(
                                            B.getDoubleTy(), F->getArg(2), K));
  B.CreateRetVoid();
  return F;
}

/// vf_weights_NAME: the integrand's body with its lists' entries stored;
/// its values are left for the optimiser to remove.
void emitWeights(Module &M, const IntegrandDecl &I, SingleCodegen *Single) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr, Ptr}, false);
  Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                 weightsSymbol(I.Name), M);
  F->addFnAttr(Attribute::NoUnwind);
  markNoAlias(F, 3);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  Value *Out = F->getArg(2);
  emitIntegrandBody(
      B, M, I, F->getArg(0), F->getArg(1),
      /*HoistParamCalls=*/false, std::nullopt,
      [&](Value *Slot, Value *Entry) {
        B.CreateStore(asStored(B, Entry),
                      B.CreateInBoundsGEP(B.getDoubleTy(), Out, Slot));
      },
      Single);
  B.CreateRetVoid();
}

/// Which of the integrand's results a point loop stores: [First, First +
/// Count) of the values followed by the histogram cells.
struct Stored {
  unsigned First, Count;
};

/// Calls \p Integrand for one point and stores \p What of its results at
/// \p OPtr. The rest go to a scratch array, which the optimiser removes
/// with the computations that only it reads.
void emitPointCall(IRBuilder<> &B, Function *Integrand, const IntegrandDecl &I,
                   Value *XPtr, Value *Params, Value *OPtr, Stored What) {
  const unsigned Hists = unsigned(I.Histograms.size());
  const unsigned All = I.Outputs + Hists + I.WeightEntries;
  if (What.First == 0 && What.Count == All) {
    B.CreateCall(Integrand, {XPtr, Params, OPtr});
    return;
  }
  BasicBlock &EntryBB = B.GetInsertBlock()->getParent()->getEntryBlock();
  IRBuilder<> Entry(&EntryBB, EntryBB.begin());
  Value *Tmp = Entry.CreateAlloca(ArrayType::get(B.getDoubleTy(), All));
  B.CreateCall(Integrand, {XPtr, Params, Tmp});
  for (unsigned K = 0; K < What.Count; ++K)
    B.CreateStore(B.CreateLoad(B.getDoubleTy(),
                               B.CreateConstInBoundsGEP1_64(
                                   B.getDoubleTy(), Tmp, What.First + K)),
                  B.CreateConstInBoundsGEP1_64(B.getDoubleTy(), OPtr, K));
}

/// for (i = Begin; i < N; i += Step)
///   integrand(xs + i*dim, params, out + i*What.Count)
void emitPointLoop(IRBuilder<> &B, Function *F, Function *Integrand,
                   const IntegrandDecl &I, Value *Begin, Value *Step,
                   Stored What) {
  LLVMContext &Ctx = F->getContext();
  Value *Xs = F->getArg(0), *N = F->getArg(1), *Params = F->getArg(2),
        *Out = F->getArg(3);
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(Ctx, "loop", F);
  BasicBlock *Exit = BasicBlock::Create(Ctx, "exit", F);
  B.CreateCondBr(B.CreateICmpSLT(Begin, N), Loop, Exit);
  B.SetInsertPoint(Loop);
  PHINode *Idx = B.CreatePHI(B.getInt64Ty(), 2, "i");
  Idx->addIncoming(Begin, Pre);
  Value *XPtr = B.CreateInBoundsGEP(
      B.getDoubleTy(), Xs, B.CreateMul(Idx, B.getInt64(I.Dim), "", true, true));
  Value *OPtr = B.CreateInBoundsGEP(
      B.getDoubleTy(), Out,
      B.CreateMul(Idx, B.getInt64(What.Count), "", true, true));
  emitPointCall(B, Integrand, I, XPtr, Params, OPtr, What);
  Value *Next = B.CreateAdd(Idx, Step, "", true, true);
  Idx->addIncoming(Next, Loop);
  B.CreateCondBr(B.CreateICmpSLT(Next, N), Loop, Exit);
  B.SetInsertPoint(Exit);
  B.CreateRetVoid();
}

FunctionType *batchType(LLVMContext &Ctx) {
  Type *Ptr = PointerType::getUnqual(Ctx);
  return FunctionType::get(Type::getVoidTy(Ctx),
                           {Ptr, Type::getInt64Ty(Ctx), Ptr, Ptr}, false);
}

void emitHostBatch(Module &M, const IntegrandDecl &I, Function *Integrand,
                   const std::string &Name, Stored What, size_t NumParams) {
  Function *F = Function::Create(batchType(M.getContext()),
                                 GlobalValue::ExternalLinkage, Name, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addParamAttr(0, Attribute::NoAlias);
  F->addParamAttr(2, Attribute::NoAlias);
  F->addParamAttr(3, Attribute::NoAlias);
  // The whole parameter block is there (every caller passes it): loads
  // from it may be speculated, so that a math call on parameters alone
  // leaves the loop over points even from a branch (InvariantCalls.h).
  if (NumParams) {
    F->addDereferenceableParamAttr(2, 8 * NumParams);
    F->addParamAttr(2, Attribute::getWithAlignment(M.getContext(), Align(8)));
  }
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  emitPointLoop(B, F, Integrand, I, B.getInt64(0), B.getInt64(1), What);
}

void emitGpuEval(Module &M, const IntegrandDecl &I, Function *Integrand,
                 const GpuKernelABI &Gpu) {
  Function *F =
      Function::Create(batchType(M.getContext()), GlobalValue::ExternalLinkage,
                       gpuEvalSymbol(I.Name), M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addParamAttr(0, Attribute::NoAlias);
  F->addParamAttr(2, Attribute::NoAlias);
  F->addParamAttr(3, Attribute::NoAlias);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  // A grid-stride loop, so any launch geometry covers all n points.
  GridStride G = Gpu.gridStride(B);
  emitPointLoop(B, F, Integrand, I, G.Begin, G.Step, {0, I.Outputs});
  Gpu.markKernel(*F);
}

void emitBounds(Module &M, const IntegrandDecl &I) {
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  auto *FT = FunctionType::get(Type::getVoidTy(Ctx), {Ptr, Ptr}, false);
  Function *F = Function::Create(FT, GlobalValue::ExternalLinkage,
                                 boundsSymbol(I.Name), M);
  F->addFnAttr(Attribute::NoUnwind);
  markNoAlias(F, 2);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  SmallVector<Value *, 4> Vals = emitBoundValues(B, M, I, F->getArg(0));
  for (unsigned K = 0; K < Vals.size(); ++K)
    B.CreateStore(Vals[K], B.CreateConstInBoundsGEP1_64(B.getDoubleTy(),
                                                        F->getArg(1), K));
  B.CreateRetVoid();
}

} // namespace

std::unique_ptr<Module> generateModule(const Program &P, LLVMContext &Ctx,
                                       const GpuKernelABI *Gpu,
                                       bool BatchEntries,
                                       SingleCodegen *Single) {
  auto M = std::make_unique<Module>("vegasflow", Ctx);
  const unsigned AlphaSlot = unsigned(P.Params.size());
  for (const IntegrandDecl *I : P.Integrands) {
    Function *F = emitIntegrand(*M, *I, /*Host=*/!Gpu, Single);
    SmallVector<Function *, 4> Terms;
    for (unsigned C = 0; C < I->Channels.size(); ++C)
      Terms.push_back(emitIntegrand(*M, *I, /*Host=*/!Gpu, Single,
                                    ChannelTerm{C, AlphaSlot}));
    if (!Gpu)
      emitBounds(*M, *I);
    // Events weigh their entries with it (vf::IntegrandInfo::
    // EvaluateWeights), in a run that integrates too.
    if (!Gpu && I->WeightEntries)
      emitWeights(*M, *I, Single);
    if (!BatchEntries)
      continue;
    if (Gpu) {
      emitGpuEval(*M, *I, F, *Gpu);
    } else {
      emitHostBatch(*M, *I, F, batchSymbol(I->Name), {0, I->Outputs},
                    P.Params.size());
      if (!I->Histograms.empty())
        emitHostBatch(*M, *I, F, cellsSymbol(I->Name),
                      {I->Outputs, unsigned(I->Histograms.size())},
                      P.Params.size());
      for (unsigned C = 0; C < Terms.size(); ++C)
        emitHostBatch(*M, *I, Terms[C], channelBatchSymbol(I->Name, C),
                      {0, I->Outputs}, AlphaSlot + Terms.size());
    }
  }
  assert(!verifyModule(*M, &errs()) && "codegen produced invalid IR");
  return M;
}

} // namespace vf
