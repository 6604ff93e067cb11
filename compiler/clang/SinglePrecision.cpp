//===- clang/SinglePrecision.cpp - No double arithmetic in f32 code -------===//
//
// The copy is cleaned up before the search so that what the optimiser
// certainly removes (a local's loads and stores, a value computed twice or
// never used, a branch on a constant) is not held against the code. Not
// InstCombine: it narrows `(float)((double)x * 0.5)` to a float multiply
// when the constant is exactly a float, so whether `x * 0.5` were refused
// would depend on the literal's digits; the rule is the source's.
//
//===----------------------------------------------------------------------===//

#include "clang/SinglePrecision.h"

#include "llvm/Demangle/Demangle.h"
#include "llvm/IR/DebugInfo.h"
#include "llvm/IR/DebugInfoMetadata.h"
#include "llvm/IR/InstrTypes.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Transforms/Scalar/ADCE.h"
#include "llvm/Transforms/Scalar/EarlyCSE.h"
#include "llvm/Transforms/Scalar/InstSimplifyPass.h"
#include "llvm/Transforms/Scalar/SROA.h"
#include "llvm/Transforms/Scalar/SimplifyCFG.h"
#include "llvm/Transforms/Utils/Cloning.h"

using namespace llvm;

namespace vf {

namespace {

bool isDouble(const Type *T) { return T->getScalarType()->isDoubleTy(); }

/// The parton densities' library, double in either precision.
bool isPdfLibrary(const Function &F) {
  return F.getName() == "vf_pdf_table_xfx" ||
         F.getName() == "vf_pdf_table_alphas";
}

/// A call of code that is not in the file (the math library, an
/// intrinsic: llvm.fabs.f64, ...) with a double among its values.
bool isDoubleCall(const CallBase &Call) {
  const Function *Callee = Call.getCalledFunction();
  if (!Callee || !Callee->isDeclaration() || isPdfLibrary(*Callee))
    return false;
  const FunctionType *Ty = Callee->getFunctionType();
  return isDouble(Ty->getReturnType()) ||
         any_of(Ty->params(), [](const Type *T) { return isDouble(T); });
}

bool isDoubleArithmetic(const Instruction &I) {
  if (const auto *Call = dyn_cast<CallBase>(&I))
    return isDoubleCall(*Call);
  switch (I.getOpcode()) {
  case Instruction::FAdd:
  case Instruction::FSub:
  case Instruction::FMul:
  case Instruction::FDiv:
  case Instruction::FRem:
  case Instruction::FNeg:
    return isDouble(I.getType());
  case Instruction::FCmp:
    return isDouble(I.getOperand(0)->getType());
  default:
    return false;
  }
}

/// The first double arithmetic in \p F with a line, or else the first.
const Instruction *firstDoubleArithmetic(const Function &F) {
  const Instruction *First = nullptr;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      if (!isDoubleArithmetic(I))
        continue;
      if (const DILocation *L = I.getDebugLoc(); L && L->getLine())
        return &I;
      if (!First)
        First = &I;
    }
  return First;
}

/// "file:line:col" of \p I, or of its function's definition when the
/// optimiser left it no line.
std::string where(const Instruction &I) {
  if (const DILocation *L = I.getDebugLoc(); L && L->getLine())
    return (L->getFilename() + ":" + Twine(L->getLine()) + ":" +
            Twine(L->getColumn()))
        .str();
  if (const DISubprogram *SP = I.getFunction()->getSubprogram())
    return (SP->getFilename() + ":" + Twine(SP->getLine())).str();
  return "<unknown>";
}

void simplify(Module &M) {
  PassBuilder PB;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  FunctionPassManager FPM;
  FPM.addPass(SROAPass(SROAOptions::ModifyCFG));
  FPM.addPass(EarlyCSEPass());
  FPM.addPass(InstSimplifyPass());
  FPM.addPass(SimplifyCFGPass());
  FPM.addPass(ADCEPass());
  ModulePassManager MPM;
  MPM.addPass(createModuleToFunctionPassAdaptor(std::move(FPM)));
  MPM.run(M, MAM);
}

} // namespace

/// As Clang's -ferror-limit (ClangJob.cpp): a file written for double
/// has double arithmetic in most of its functions.
constexpr unsigned MaxErrors = 20;

Error checkSinglePrecision(const Module &M) {
  std::unique_ptr<Module> Copy = CloneModule(M);
  simplify(*Copy);
  std::string Errors;
  unsigned N = 0;
  for (const Function &F : *Copy) {
    const Instruction *I =
        F.isDeclaration() ? nullptr : firstDoubleArithmetic(F);
    if (I && ++N <= MaxErrors)
      Errors += where(*I) +
                ": error: double-precision arithmetic in single precision "
                "(--precision f32) in function '" +
                demangle(F.getName()) +
                "': write float literals (1.0f) or use vf_real\n";
  }
  if (N > MaxErrors)
    Errors += "... and " + std::to_string(N - MaxErrors) +
              " more functions with double-precision arithmetic\n";
  if (Errors.empty())
    return Error::success();
  return createStringError(inconvertibleErrorCode(), Errors);
}

void dropLineTables(Module &M) {
  StripDebugInfo(M);
  NamedMDNode *Flags = M.getModuleFlagsMetadata();
  if (!Flags)
    return;
  SmallVector<MDNode *, 4> Kept;
  for (MDNode *Flag : Flags->operands()) {
    const auto *Key = dyn_cast<MDString>(Flag->getOperand(1));
    if (!Key || Key->getString() != "Debug Info Version")
      Kept.push_back(Flag);
  }
  Flags->clearOperands();
  for (MDNode *Flag : Kept)
    Flags->addOperand(Flag);
}

} // namespace vf
