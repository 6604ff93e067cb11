//===- bitcode/FastIntegrand.cpp - The integrand on its fast paths --------===//
//
// The copy inlines everything the integrand calls except the slow paths,
// so that each remaining slow-path call sits in the copy itself: a math
// entry point's `if (rare) r = vf__exp_special(x)`, which becomes
// `if (rare) { *flag = 1; r = 1.0; }` and then selects, without a branch.
// The stand-in 1.0 keeps the copy's later arithmetic on ordinary numbers;
// its results are discarded once the flag is raised.
//
//===----------------------------------------------------------------------===//

#include "bitcode/FastIntegrand.h"
#include "bitcode/MathLibrary.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/Function.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

using namespace llvm;

namespace vf {

namespace {

bool callsSlowPath(const CallInst &Call) {
  const Function *Callee = Call.getCalledFunction();
  return Callee && isMathSlowPath(Callee->getName());
}

/// Inlines calls to defined functions other than the slow paths until none
/// is left; false once \p F grows past \p MaxInstructions or after as many
/// inlinings (.vf code cannot recurse, but the bound holds regardless).
bool inlineAllButSlowPaths(Function &F, unsigned MaxInstructions) {
  unsigned Inlined = 0;
  for (bool Changed = true; Changed;) {
    if (F.getInstructionCount() > MaxInstructions ||
        Inlined++ > MaxInstructions)
      return false;
    Changed = false;
    for (Instruction &Inst : instructions(F)) {
      auto *Call = dyn_cast<CallInst>(&Inst);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      // A noinline callee stays a call: codegen's wrappers of math calls
      // on parameters alone (codegen/InvariantCalls.h), hoisted out of
      // the sampler's loop whole.
      if (!Callee || Callee->isDeclaration() || Callee == &F ||
          callsSlowPath(*Call) || Callee->hasFnAttribute(Attribute::NoInline))
        continue;
      InlineFunctionInfo IFI;
      if (InlineFunction(*Call, IFI).isSuccess()) {
        Changed = true;
        break;
      }
    }
  }
  return F.getInstructionCount() <= MaxInstructions;
}

/// Gives the bodiless \p Fast a call of \p F with its first arguments: F
/// itself behind the fast copy's signature, its flag never raised.
void callInstead(Function &Fast, Function &F) {
  IRBuilder<> B(BasicBlock::Create(F.getContext(), "entry", &Fast));
  SmallVector<Value *, 3> Args;
  for (Argument &A : F.args())
    Args.push_back(Fast.getArg(A.getArgNo()));
  B.CreateCall(&F, Args);
  B.CreateRetVoid();
  Fast.addFnAttr(Attribute::AlwaysInline);
}

} // namespace

Function *fastIntegrand(Function &F, unsigned MaxInstructions) {
  LLVMContext &Ctx = F.getContext();
  SmallVector<Type *, 4> Params(F.getFunctionType()->params());
  Params.push_back(PointerType::getUnqual(Ctx));
  Function *Fast = Function::Create(
      FunctionType::get(F.getReturnType(), Params, /*isVarArg=*/false),
      GlobalValue::InternalLinkage, F.getName() + ".fast", F.getParent());
  Argument *Flag = Fast->getArg(F.arg_size());
  Flag->setName("slow");
  if (F.getInstructionCount() > MaxInstructions) {
    callInstead(*Fast, F);
    return Fast;
  }
  ValueToValueMapTy VMap;
  for (auto [Old, New] : zip_first(F.args(), Fast->args())) {
    New.setName(Old.getName());
    VMap[&Old] = &New;
  }
  SmallVector<ReturnInst *, 4> Returns;
  CloneFunctionInto(Fast, &F, VMap, CloneFunctionChangeType::LocalChangesOnly,
                    Returns);
  if (!inlineAllButSlowPaths(*Fast, MaxInstructions)) {
    // A half-inlined copy would inline differently from F and cost
    // compile time of its own.
    Fast->deleteBody();
    Fast->setLinkage(GlobalValue::InternalLinkage); // deleteBody made it
    callInstead(*Fast, F);                          // external
    return Fast;
  }
  SmallVector<CallInst *, 8> Slow;
  for (Instruction &Inst : instructions(*Fast))
    if (auto *Call = dyn_cast<CallInst>(&Inst); Call && callsSlowPath(*Call))
      Slow.push_back(Call);
  for (CallInst *Call : Slow) {
    IRBuilder<> B(Call);
    B.CreateStore(B.getInt32(1), Flag);
    Type *T = Call->getType();
    if (!T->isVoidTy())
      Call->replaceAllUsesWith(T->isFloatingPointTy()
                                   ? ConstantFP::get(T, 1.0)
                                   : Constant::getNullValue(T));
    Call->eraseFromParent();
  }
  return Fast;
}

Function *outOfLineIntegrand(Function &F) {
  ValueToValueMapTy VMap;
  Function *Copy = CloneFunction(&F, VMap);
  Copy->setName(F.getName() + ".exact");
  Copy->setLinkage(GlobalValue::InternalLinkage);
  Copy->removeFnAttr(Attribute::AlwaysInline);
  Copy->addFnAttr(Attribute::NoInline);
  // It runs only for the rare flagged samples: its calls (the math
  // library's entry points above all) stay calls, each callee compiled
  // once, rather than inlined into a second copy of the integrand
  // (lepage8's eight exp: 4% of what `vegasc --emit=asm` executes). A
  // function computes the same values called or inlined.
  for (Instruction &Inst : instructions(*Copy))
    if (auto *Call = dyn_cast<CallInst>(&Inst);
        Call && Call->getCalledFunction() &&
        !Call->getCalledFunction()->isIntrinsic())
      Call->setIsNoInline();
  return Copy;
}

} // namespace vf
