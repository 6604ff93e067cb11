//===- codegen/ExternCallGen.cpp - Calls of C and C++ functions -----------===//
//
// A pdf handle carries the block's address loaded from the module's
// PdfTableSymbol, the global the .vf xfx calls read (PdfGen.h): the C code
// is linked into the same module, so it reads the block of the device it
// runs on.
//
//===----------------------------------------------------------------------===//

#include "codegen/ExternCallGen.h"
#include "codegen/PdfGen.h"

#include "frontend/AST.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace vf {

namespace {

/// \p Ty in the function's entry block (where SROA finds it).
Value *stackSlot(IRBuilderBase &B, Type *Ty) {
  BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
  IRBuilder<> EB(&Entry, Entry.getFirstInsertionPt());
  return EB.CreateAlloca(Ty);
}

/// vf/integrand.h's vf_pdf_handle: { const void *table; int member; }.
Value *pdfHandle(IRBuilderBase &B, Module &M, const NameExpr &N) {
  GlobalVariable *G = pdfTableGlobal(M);
  LoadInst *Table = B.CreateLoad(G->getValueType(), G, "pdf.table");
  Table->setMetadata(LLVMContext::MD_invariant_load,
                     MDNode::get(M.getContext(), {}));
  auto *Ty = StructType::get(B.getContext(), {B.getPtrTy(), B.getInt32Ty()});
  Value *H = stackSlot(B, Ty);
  B.CreateStore(Table, B.CreateStructGEP(Ty, H, 0));
  B.CreateStore(B.getInt32(N.PdfTableIndex), B.CreateStructGEP(Ty, H, 1));
  return H;
}

} // namespace

ExternValues emitExternCall(IRBuilderBase &B, Module &M, const CallExpr &E,
                            Type *Real,
                            function_ref<ExternValues(const Expr &)> Values) {
  const FnDecl &F = *E.Fn;
  SmallVector<Type *, 4> Types;
  SmallVector<Value *, 4> Actuals;
  for (size_t K = 0; K < E.Args.size(); ++K) {
    const Expr &A = *E.Args[K];
    if (F.Args[K].IsPdf) {
      Types.push_back(B.getPtrTy());
      Actuals.push_back(pdfHandle(B, M, static_cast<const NameExpr &>(A)));
      continue;
    }
    ExternValues V = Values(A);
    for (Value *&X : V)
      X = B.CreateFPCast(X, Real);
    if (!F.Args[K].Size) {
      Types.push_back(Real);
      Actuals.push_back(V.front());
      continue;
    }
    Value *Buf = stackSlot(B, ArrayType::get(Real, F.Args[K].Size));
    for (unsigned J = 0; J < V.size(); ++J)
      B.CreateStore(V[J], B.CreateConstInBoundsGEP1_64(Real, Buf, J));
    Types.push_back(B.getPtrTy());
    Actuals.push_back(Buf);
  }
  Value *Out =
      F.ResultSize ? stackSlot(B, ArrayType::get(Real, F.ResultSize)) : nullptr;
  if (Out) {
    Types.push_back(B.getPtrTy());
    Actuals.push_back(Out);
  }
  FunctionCallee Callee = M.getOrInsertFunction(
      F.Name, FunctionType::get(Out ? B.getVoidTy() : Real, Types, false));
  Value *R = B.CreateCall(Callee, Actuals);
  if (!Out)
    return {R};
  ExternValues Result;
  for (unsigned J = 0; J < F.ResultSize; ++J)
    Result.push_back(
        B.CreateLoad(Real, B.CreateConstInBoundsGEP1_64(Real, Out, J)));
  return Result;
}

} // namespace vf
