//===- backends/Optimizer.cpp - The optimisation pipeline -----------------===//

#include "backends/Optimizer.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Analysis/CGSCCPassManager.h"
#include "llvm/Analysis/LoopAnalysisManager.h"
#include "llvm/Analysis/LoopInfo.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/PassInstrumentation.h"
#include "llvm/IR/PassManager.h"
#include "llvm/Passes/PassBuilder.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Transforms/IPO/AlwaysInliner.h"
#include "llvm/Transforms/IPO/GlobalDCE.h"
#include "llvm/Transforms/Utils/LoopUtils.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

#include <optional>

using namespace llvm;

namespace vf {

void internalizeExcept(Module &M, ArrayRef<std::string> Keep) {
  for (Function &F : M) {
    if (F.isDeclaration() || is_contained(Keep, F.getName().str()))
      continue;
    F.setLinkage(GlobalValue::InternalLinkage);
  }
  // llvm.used and llvm.compiler.used (which keeps the math library's vector
  // variants alive until the vectorizer ran) must keep appending linkage; a
  // kept variable is one the loader sets (codegen/PdfGen.h).
  for (GlobalVariable &G : M.globals())
    if (!G.isDeclaration() && !G.hasAppendingLinkage() &&
        !is_contained(Keep, G.getName().str()))
      G.setLinkage(GlobalValue::InternalLinkage);
}

namespace {

// A `sum(j in 0..N: ...)` is a loop that adds in order, and without
// fast-math the loop vectorizer may not reassociate it. It can still
// vectorize it as an in-order reduction: the body (say an exp) runs for
// VF iterations at once and the VF results are added one after another,
// in the loop's order, so the sum is bit for bit the scalar one. LLVM only
// does this by default where the target has an in-order reduction
// instruction (SVE); on x86 the adds stay scalar, which is still far
// cheaper than a scalar body with a math call (ridge4: 3.7x faster per
// sample). The option is process-wide in our own, statically linked LLVM.
void enableOrderedReductions() {
  static const bool Enabled = [] {
    StringMap<cl::Option *> &Opts = cl::getRegisteredOptions();
    auto It = Opts.find("force-ordered-reductions");
    return It != Opts.end() &&
           !It->second->addOccurrence(0, It->first(), "true");
  }();
  (void)Enabled;
}

// Once the late inliner has run, an internal alwaysinline function is only
// still there because llvm.compiler.used keeps it: the math library's
// masked vector variants, kept until the vectorizer could use them. Taking
// them off the list lets GlobalDCE drop the unused ones instead of
// compiling them to machine code.
struct DropUnusedVariantsPass : PassInfoMixin<DropUnusedVariantsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    removeFromUsedLists(M, [](Constant *C) {
      auto *F = dyn_cast<Function>(C->stripPointerCasts());
      return F && F->hasLocalLinkage() &&
             F->hasFnAttribute(Attribute::AlwaysInline);
    });
    return PreservedAnalyses::none();
  }
};

// The loop vectorizer's analysis grows with the square of a loop's size:
// a batch loop around an integrand of 40,000 lets took it 3 s of an 8 s
// compile, 100,000 lets minutes. A body that large gains nothing from
// vectorizing across samples next to its own length, so loops beyond this
// many instructions are marked not to be vectorized, which the vectorizer
// reads before any analysis. Every integrand of the test suite is far
// below it, so no compiled code changes.
constexpr size_t MaxVectorizedLoopSize = 8192;

struct SkipHugeLoopsPass : PassInfoMixin<SkipHugeLoopsPass> {
  PreservedAnalyses run(Function &F, FunctionAnalysisManager &FAM) {
    bool Changed = false;
    for (Loop *L : FAM.getResult<LoopAnalysis>(F).getLoopsInPreorder()) {
      size_t N = 0;
      for (BasicBlock *BB : L->blocks())
        N += BB->size();
      if (N > MaxVectorizedLoopSize) {
        addStringMetadataToLoop(L, "llvm.loop.vectorize.enable", 0);
        Changed = true;
      }
    }
    return Changed ? PreservedAnalyses::none() : PreservedAnalyses::all();
  }
};

// The machine scheduler is quadratic in a block where one value has many
// uses (the constant of `let a{i} = a{i-1} + 1`, 40,000 times: 70% of the
// compile in ScheduleDAGMILive::collectVRegUses). A function still this
// large after optimisation is generated as at -O0 (optnone: fast
// instruction selection, no scheduling), which is linear; the values it
// computes are the same, without fast-math nothing is reassociated, and
// no integrand of the test suite comes near it.
constexpr size_t MaxScheduledFunctionSize = 32768;

struct UnscheduleHugeFunctionsPass
    : PassInfoMixin<UnscheduleHugeFunctionsPass> {
  PreservedAnalyses run(Module &M, ModuleAnalysisManager &) {
    for (Function &F : M)
      if (!F.isDeclaration() &&
          F.getInstructionCount() > MaxScheduledFunctionSize) {
        F.addFnAttr(Attribute::NoInline);
        F.addFnAttr(Attribute::OptimizeNone);
      }
    return PreservedAnalyses::all();
  }
};

// Two passes of O2's optimisation half cost an eighth of a host compile
// and gain nothing at run time for what we compile (callgrind, 23
// integrands, docs/sampling-engine-compile.md, eighth round: the compile
// executes 11-20% fewer instructions, lepage8's 1.095e9 -> 0.970e9; what
// the JIT'd code executes changes by -0.2% to +1.8%, and the results are
// the same bits):
//   - the late LoopUnrollPass, which partially unrolls the loops the
//     vectorizer left (its scalar remainders among them), growing the code
//     that instruction selection and register allocation then pay for; the
//     full unrolling the sampler's fixed-count loops need is done before
//     the vectorizer by LoopFullUnrollPass, which stays;
//   - the second and third InstCombinePass after the loop vectorizer: the
//     first one after it stays and cleans up what the vectorizer left.
// Skipped through the pass instrumentation, as -opt-bisect does, so the
// rest of the pipeline stays LLVM's O2. Host only: NVPTX's unrolling
// preferences are its own and the GPU's code is not measured here.
class SkipUnprofitablePasses {
public:
  explicit SkipUnprofitablePasses(PassInstrumentationCallbacks &PIC) {
    PIC.registerShouldRunOptionalPassCallback([this](StringRef Pass, Any IR) {
      if (Pass == "LoopUnrollPass")
        return false;
      const Function *F = functionOf(IR);
      if (Pass == "LoopVectorizePass" && F)
        InstCombinesSinceVectorizer[F] = 0;
      if (Pass != "InstCombinePass" || !F)
        return true;
      auto It = InstCombinesSinceVectorizer.find(F);
      return It == InstCombinesSinceVectorizer.end() || ++It->second == 1;
    });
  }

private:
  static const Function *functionOf(Any IR) {
    const Function *const *F = llvm::any_cast<const Function *>(&IR);
    return F ? *F : nullptr;
  }

  DenseMap<const Function *, unsigned> InstCombinesSinceVectorizer;
};

} // namespace

void optimizeModule(Module &M, TargetMachine &TM) {
  enableOrderedReductions();
  PipelineTuningOptions PTO;
  PTO.LoopVectorization = true;
  // No SLP vectorizer: the sampler's host batch is written with vector
  // types already (kernels/SampleBatch.h) and integrands are vectorized
  // across samples by the loop vectorizer; SLP found nothing more to
  // widen but took half of the optimisation time of lepage8's host module (76 of
  // 143 ms, docs/benchmarks.md).
  PTO.SLPVectorization = false;
  PTO.LoopUnrolling = true;
  LoopAnalysisManager LAM;
  FunctionAnalysisManager FAM;
  CGSCCAnalysisManager CGAM;
  ModuleAnalysisManager MAM;
  PassInstrumentationCallbacks PIC;
  std::optional<SkipUnprofitablePasses> Skip;
  if (!TM.getTargetTriple().isNVPTX())
    Skip.emplace(PIC);
  PassBuilder PB(&TM, PTO, std::nullopt, &PIC);
  PB.registerModuleAnalyses(MAM);
  PB.registerCGSCCAnalyses(CGAM);
  PB.registerFunctionAnalyses(FAM);
  PB.registerLoopAnalyses(LAM);
  PB.crossRegisterProxies(LAM, FAM, CGAM, MAM);
  // The loop vectorizer turns guarded calls of the math library's slow
  // paths into calls of their masked vector variants; those are
  // alwaysinline, and this late inliner puts their "any lane?" test into
  // the loop (bitcode/MathLibrary.cpp, addMaskedVariants).
  PB.registerVectorizerStartEPCallback(
      [](FunctionPassManager &FPM, OptimizationLevel) {
        FPM.addPass(SkipHugeLoopsPass());
      });
  PB.registerOptimizerLastEPCallback(
      [](ModulePassManager &MPM, OptimizationLevel) {
        MPM.addPass(AlwaysInlinerPass(/*InsertLifetime=*/false));
        MPM.addPass(DropUnusedVariantsPass());
        MPM.addPass(GlobalDCEPass());
        MPM.addPass(UnscheduleHugeFunctionsPass());
      });
  // O2, not O3: the sampling engine and the math library run as fast
  // (bench/engine, bench/math: within noise) and lepage8's host compile
  // takes 22 ms less (160 -> 138 ms CPU, docs/benchmarks.md). Optimisation
  // levels never change a result: nothing is reassociated or contracted.
  ModulePassManager MPM =
      PB.buildPerModuleDefaultPipeline(OptimizationLevel::O2);
  MPM.run(M, MAM);
}

} // namespace vf
