//===- backends/Optimizer.cpp - The O3 pipeline ---------------------------===//

#include "backends/Optimizer.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace vf {

void internalizeExcept(Module &M, ArrayRef<std::string> Keep) {
  for (Function &F : M) {
    if (F.isDeclaration() || is_contained(Keep, F.getName().str()))
      continue;
    F.setLinkage(GlobalValue::InternalLinkage);
  }
  // llvm.used and llvm.compiler.used (which keeps the math library's vector
  // variants alive until the vectorizer ran) must keep appending linkage.
  for (GlobalVariable &G : M.globals())
    if (!G.isDeclaration() && !G.hasAppendingLinkage())
      G.setLinkage(GlobalValue::InternalLinkage);
}

void optimizeModule(Module &M, TargetMachine &TM) {
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  PTO.SLPVectorization = true;
  PTO.LoopUnrolling = true;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassBuilder PB(&TM, PTO);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  ModulePassManager MPM = PB.buildPerModuleDefaultPipeline(OptimizationLevel::O3);
  MPM.run(M, MAM);
}

} // namespace vf
