//===- codegen/ReduceGen.cpp - Reductions and min/max in IR ---------------===//

#include "codegen/ReduceGen.h"
#include "codegen/ComplexGen.h"

#include "llvm/IR/IRBuilder.h"

using namespace llvm;

namespace vf {

Value *emitMinMax(IRBuilderBase &B, bool IsMin, Value *L, Value *R) {
  Value *Pick = IsMin ? B.CreateFCmpOLT(L, R) : B.CreateFCmpOGT(L, R);
  Value *Sel = B.CreateSelect(Pick, L, R);
  return B.CreateSelect(B.CreateFCmpUNO(L, R), B.CreateFAdd(L, R), Sel);
}

Value *emitReduceStep(IRBuilderBase &B, ReduceOp Op, Value *Acc, Value *V) {
  switch (Op) {
  case ReduceOp::Sum:
    return B.CreateFAdd(Acc, V);
  case ReduceOp::Prod:
    return Acc->getType()->isVectorTy()
               ? emitComplexBinary(B, BinaryOp::Mul, Acc, V)
               : B.CreateFMul(Acc, V);
  case ReduceOp::Min:
    return emitMinMax(B, true, Acc, V);
  case ReduceOp::Max:
    return emitMinMax(B, false, Acc, V);
  }
  return Acc;
}

Value *emitReduceLoop(IRBuilderBase &B, ReduceOp Op, long long Lo, long long Hi,
                      Value *Init, function_ref<Value *(Value *Index)> Body) {
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Loop = BasicBlock::Create(B.getContext(), "reduce", Fn);
  BasicBlock *Exit = BasicBlock::Create(B.getContext(), "reduce.end", Fn);
  B.CreateBr(Loop);
  B.SetInsertPoint(Loop);
  PHINode *I = B.CreatePHI(B.getInt64Ty(), 2, "i");
  PHINode *Acc = B.CreatePHI(Init->getType(), 2, "acc");
  I->addIncoming(B.getInt64(Lo), Pre);
  Acc->addIncoming(Init, Pre);
  Value *Next = emitReduceStep(B, Op, Acc, Body(I));
  Value *INext = B.CreateAdd(I, B.getInt64(1));
  BasicBlock *Latch = B.GetInsertBlock();
  I->addIncoming(INext, Latch);
  Acc->addIncoming(Next, Latch);
  B.CreateCondBr(B.CreateICmpSLT(INext, B.getInt64(Hi)), Loop, Exit);
  B.SetInsertPoint(Exit);
  PHINode *Out = B.CreatePHI(Init->getType(), 1, "reduced");
  Out->addIncoming(Next, Latch);
  return Out;
}

} // namespace vf
