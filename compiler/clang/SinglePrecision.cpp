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
#include "llvm/IR/InstIterator.h"
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

#include <optional>
#include <tuple>

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

/// Where a function's double arithmetic is first in the source.
struct Finding {
  std::string File;
  unsigned Line = 0, Column = 0; ///< Column 0: the function's line
  std::string Function;

  bool operator<(const Finding &O) const {
    return std::tie(File, Line, Column) < std::tie(O.File, O.Line, O.Column);
  }
  /// The main file's findings first, then the headers'.
  bool before(const Finding &O, StringRef Main) const {
    if ((File == Main) != (O.File == Main))
      return File == Main;
    return *this < O;
  }
  std::string where() const {
    return File + ":" + std::to_string(Line) +
           (Column ? ":" + std::to_string(Column) : "");
  }
};

/// \p F's double arithmetic at its first line and column, or at the
/// function's definition when the cleanup left it no line.
std::optional<Finding> findDoubleArithmetic(const Function &F) {
  std::optional<Finding> First;
  bool Any = false;
  for (const Instruction &I : instructions(F)) {
    if (!isDoubleArithmetic(I))
      continue;
    Any = true;
    const DILocation *L = I.getDebugLoc();
    if (!L || !L->getLine())
      continue;
    Finding Here{L->getFilename().str(), L->getLine(), L->getColumn(), {}};
    if (!First || Here < *First)
      First = std::move(Here);
  }
  if (!Any)
    return std::nullopt;
  if (!First) {
    const DISubprogram *SP = F.getSubprogram();
    First = Finding{SP ? SP->getFilename().str() : "<unknown>",
                    SP ? SP->getLine() : 0,
                    0,
                    {}};
  }
  First->Function = demangle(F.getName());
  return First;
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
  std::vector<Finding> Found;
  for (const Function &F : *Copy)
    if (!F.isDeclaration())
      if (std::optional<Finding> At = findDoubleArithmetic(F))
        Found.push_back(std::move(*At));
  if (Found.empty())
    return Error::success();
  llvm::sort(Found, [&](const Finding &A, const Finding &B) {
    return A.before(B, M.getSourceFileName());
  });
  std::string Errors;
  for (size_t K = 0; K < std::min<size_t>(Found.size(), MaxErrors); ++K)
    Errors += Found[K].where() +
              ": error: double-precision arithmetic in single precision "
              "(--precision f32) in function '" +
              Found[K].Function +
              "': write float literals (1.0f) or use vf_real\n";
  if (Found.size() > MaxErrors)
    Errors += "... and " + std::to_string(Found.size() - MaxErrors) +
              " more functions with double-precision arithmetic\n";
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
