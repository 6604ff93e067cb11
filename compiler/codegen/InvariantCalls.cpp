//===- codegen/InvariantCalls.cpp - Math calls that no sample changes -----===//

#include "codegen/InvariantCalls.h"

#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace vf {

namespace {
constexpr const char *WrapperSuffix = ".invariant";

/// A bounded walk: an expression too large to check is treated as
/// varying, which only leaves its call inline as before.
constexpr unsigned MaxVisited = 256;

bool isInvariantMathWrapper(const Function &F) {
  return F.getName().ends_with(WrapperSuffix);
}
} // namespace

bool dependsOnParamsOnly(Value *V, Value *X, Value *Params) {
  SmallVector<Value *, 16> Work{V};
  SmallPtrSet<Value *, 16> Seen;
  bool Loads = false;
  while (!Work.empty()) {
    Value *U = Work.pop_back_val();
    if (!Seen.insert(U).second || isa<Constant>(U) || U == Params)
      continue;
    if (U == X || Seen.size() > MaxVisited || isa<PHINode>(U) ||
        isa<Argument>(U))
      return false;
    auto *I = dyn_cast<Instruction>(U);
    if (!I || I->mayHaveSideEffects() || isa<AllocaInst>(I))
      return false;
    if (auto *Call = dyn_cast<CallInst>(I)) {
      // Another wrapper's result (a nested invariant call) is invariant.
      Function *Callee = Call->getCalledFunction();
      if (!Callee || !isInvariantMathWrapper(*Callee))
        return false;
    } else if (auto *Load = dyn_cast<LoadInst>(I)) {
      Loads = true;
      if (!isa<GetElementPtrInst>(Load->getPointerOperand()) &&
          Load->getPointerOperand() != Params)
        return false;
    } else if (I->mayReadFromMemory()) {
      return false;
    }
    for (Value *Op : I->operands())
      Work.push_back(Op);
  }
  return Loads;
}

Function *invariantMathWrapper(Module &M, StringRef Name, FunctionType *Ty) {
  std::string WName = (Name + WrapperSuffix).str();
  if (Function *W = M.getFunction(WName))
    return W;
  FunctionCallee Math = M.getOrInsertFunction(Name, Ty);
  Function *W =
      Function::Create(Ty, GlobalValue::InternalLinkage, WName, &M);
  // The math library reads only its constant tables and writes nothing,
  // for any argument: a call may run anywhere, once.
  W->addFnAttr(Attribute::NoInline);
  W->setDoesNotAccessMemory();
  W->setDoesNotThrow();
  W->setWillReturn();
  W->addFnAttr(Attribute::Speculatable);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", W));
  SmallVector<Value *, 2> Args;
  for (Argument &A : W->args())
    Args.push_back(&A);
  B.CreateRet(B.CreateCall(Math, Args));
  return W;
}

} // namespace vf
