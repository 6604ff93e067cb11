//===- codegen/PdfGen.cpp - xfx and alphas in generated code --------------===//
//
// The block's address is loaded as invariant: nothing a kernel does
// changes it, so LICM takes the load out of the sampling loop although
// the loop stores its results.
//
//===----------------------------------------------------------------------===//

#include "codegen/PdfGen.h"

#include "frontend/AST.h"

#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cmath>

using namespace llvm;

namespace vf {

GlobalVariable *pdfTableGlobal(Module &M) {
  if (GlobalVariable *G = M.getGlobalVariable(PdfTableSymbol))
    return G;
  auto *Ptr = PointerType::getUnqual(M.getContext());
  return new GlobalVariable(M, Ptr, /*isConstant=*/false,
                            GlobalValue::ExternalLinkage,
                            ConstantPointerNull::get(Ptr), PdfTableSymbol);
}

/// The lookup itself, in double.
static Value *emitDoublePdfCall(IRBuilderBase &B, Module &M, const CallExpr &E,
                                ArrayRef<Value *> Args, Value *MemberOffset) {
  GlobalVariable *G = pdfTableGlobal(M);
  LoadInst *Table = B.CreateLoad(G->getValueType(), G, "pdf.table");
  Table->setMetadata(LLVMContext::MD_invariant_load,
                     MDNode::get(M.getContext(), {}));
  Type *F64 = B.getDoubleTy(), *I32 = B.getInt32Ty(), *Ptr = G->getType();
  Value *Member = B.getInt32(E.TableIndex);
  if (MemberOffset)
    Member = B.CreateAdd(Member, B.CreateTrunc(MemberOffset, I32));
  if (E.Query == PdfQuery::AlphaS) {
    FunctionCallee F = M.getOrInsertFunction(
        "vf_pdf_table_alphas", FunctionType::get(F64, {Ptr, I32, F64}, false));
    return B.CreateCall(F, {Table, Member, Args[0]});
  }
  FunctionCallee F = M.getOrInsertFunction(
      "vf_pdf_table_xfx",
      FunctionType::get(F64, {Ptr, I32, I32, F64, F64}, false));
  return B.CreateCall(F,
                      {Table, Member, B.getInt32(E.Flavour), Args[0], Args[1]});
}

Value *emitPdfCall(IRBuilderBase &B, Module &M, const CallExpr &E,
                   ArrayRef<Value *> Args, Value *MemberOffset) {
  SmallVector<Value *, 2> Wide;
  for (Value *A : Args)
    Wide.push_back(B.CreateFPCast(A, B.getDoubleTy()));
  return B.CreateFPCast(emitDoublePdfCall(B, M, E, Wide, MemberOffset),
                        Args.back()->getType());
}

Value *emitCheckedPdfCall(IRBuilderBase &B, Module &M, const CallExpr &E,
                          ArrayRef<Value *> Args, Value *V) {
  Type *Real = V->getType();
  auto Fp = [&](double D) { return ConstantFP::get(Real, D); };
  Value *Whole =
      B.CreateFCmpOEQ(V, B.CreateUnaryIntrinsic(Intrinsic::floor, V));
  Value *Ok = B.CreateAnd(
      Whole, B.CreateAnd(B.CreateFCmpOGE(V, Fp(0.0)),
                         B.CreateFCmpOLT(V, Fp(double(E.MemberCount)))));
  Value *K = B.CreateFPToSI(B.CreateSelect(Ok, V, Fp(0.0)), B.getInt64Ty());
  return B.CreateSelect(Ok, emitPdfCall(B, M, E, Args, K), Fp(NAN));
}

} // namespace vf
