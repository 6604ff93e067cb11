//===- bitcode/StridedIntegrand.cpp - An integrand reading strided x ------===//
//
// Every address derived from x is a chain of getelementptrs, and the byte
// offset of a GEP is linear in its indices; multiplying every index by the
// stride therefore multiplies every offset by it, so the double at byte 8d
// is read at byte 8 d Stride. That holds only for accesses to whole 8-byte
// values at multiples of 8, which is what the checks below demand.
//
//===----------------------------------------------------------------------===//

#include "bitcode/StridedIntegrand.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/DataLayout.h"
#include "llvm/IR/Dominators.h"
#include "llvm/IR/GetElementPtrTypeIterator.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace vf {

namespace {

/// Whether every use of the pointer \p P (x or an address derived from it)
/// is a GEP of 8-byte granularity or a load of an 8-byte scalar; collects
/// the GEPs.
bool onlyReadsWords(Value *P, const DataLayout &DL,
                    SmallVectorImpl<GetElementPtrInst *> &Geps) {
  for (User *U : P->users()) {
    if (auto *L = dyn_cast<LoadInst>(U)) {
      Type *T = L->getType();
      if (L->getPointerOperand() != P || L->isVolatile() ||
          T->isVectorTy() || T->isAggregateType() ||
          DL.getTypeStoreSize(T) != 8)
        return false;
      continue;
    }
    auto *G = dyn_cast<GetElementPtrInst>(U);
    if (!G || G->getPointerOperand() != P)
      return false;
    // Each index steps over whole 8-byte words, or is a constant byte
    // offset that is a multiple of 8.
    for (gep_type_iterator I = gep_type_begin(G), E = gep_type_end(G); I != E;
         ++I) {
      if (I.isStruct())
        return false;
      const uint64_t Size = I.getSequentialElementStride(DL);
      auto *C = dyn_cast<ConstantInt>(I.getOperand());
      if (Size % 8 != 0 && !(C && (C->getSExtValue() * Size) % 8 == 0))
        return false;
    }
    Geps.push_back(G);
    if (!onlyReadsWords(G, DL, Geps))
      return false;
  }
  return true;
}

} // namespace

Function *stridedIntegrand(Function &F, unsigned Stride) {
  if (F.isDeclaration() || F.arg_empty())
    return nullptr;
  // A loop (a sum over many terms, say) is where an integrand's
  // optimisation time goes, and the copy would double it: ridge4's host
  // compile took 30% longer. Next to such a body the gathers saved are
  // small, so it keeps the contiguous layout.
  DominatorTree DT(F);
  if (!LoopInfo(DT).empty())
    return nullptr;
  const DataLayout &DL = F.getParent()->getDataLayout();
  SmallVector<GetElementPtrInst *, 32> Geps;
  if (!onlyReadsWords(F.getArg(0), DL, Geps))
    return nullptr;
  ValueToValueMapTy VMap;
  Function *S = CloneFunction(&F, VMap);
  S->setName(F.getName() + ".strided");
  S->setLinkage(GlobalValue::InternalLinkage);
  // x spans Stride times more memory now.
  S->removeParamAttr(0, Attribute::Dereferenceable);
  S->removeParamAttr(0, Attribute::DereferenceableOrNull);
  for (GetElementPtrInst *G : Geps) {
    auto *C = cast<GetElementPtrInst>(VMap[G]);
    IRBuilder<> B(C);
    for (Use &Idx : C->indices()) {
      Value *V = Idx.get();
      Idx.set(B.CreateMul(V, ConstantInt::get(V->getType(), Stride)));
    }
  }
  return S;
}

} // namespace vf
