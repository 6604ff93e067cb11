//===- codegen/WeightsGen.cpp - A sample's weight list entries in IR ------===//

#include "codegen/WeightsGen.h"
#include "codegen/InfiniteMapGen.h"
#include "frontend/AST.h"

using namespace llvm;

namespace vf {

/// for (k = lo; k < hi; ++k) Sink(base + k - lo, body(k) [times Jac])
static void emitList(IRBuilderBase &B, const WeightsStmt &W,
                     WeightEntryGen Entry, WeightSink Sink, Value *Jac,
                     Value *AtEnd) {
  const ReduceExpr &L = *W.List;
  Function *Fn = B.GetInsertBlock()->getParent();
  BasicBlock *Pre = B.GetInsertBlock();
  BasicBlock *Body = BasicBlock::Create(B.getContext(), "weights", Fn);
  BasicBlock *Exit = BasicBlock::Create(B.getContext(), "weights.end", Fn);
  B.CreateBr(Body);
  B.SetInsertPoint(Body);
  PHINode *K = B.CreatePHI(B.getInt64Ty(), 2, "k");
  K->addIncoming(B.getInt64(L.LoValue), Pre);
  Value *Slot = B.CreateAdd(K, B.getInt64(int64_t(W.Base) - L.LoValue));
  Value *V = Entry(L, K);
  Sink(Slot, Jac ? emitMappedWeight(B, V, Jac, AtEnd) : V);
  Value *Next = B.CreateAdd(K, B.getInt64(1));
  K->addIncoming(Next, B.GetInsertBlock());
  B.CreateCondBr(B.CreateICmpSLT(Next, B.getInt64(L.HiValue)), Body, Exit);
  B.SetInsertPoint(Exit);
}

void emitWeightLists(IRBuilderBase &B, const IntegrandDecl &I,
                     WeightEntryGen Entry, WeightSink Sink, Value *Jac,
                     Value *AtEnd) {
  for (const WeightsStmt *W : I.WeightLists)
    emitList(B, *W, Entry, Sink, Jac, AtEnd);
}

} // namespace vf
