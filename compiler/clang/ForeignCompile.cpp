//===- clang/ForeignCompile.cpp - Check and compile a translation unit ----===//
//
// One Clang run per target: parse, then (before code generation finishes)
// the portability checker and the check of the functions the .vf program
// calls against their .vf signatures; any error stops the run with Clang's
// diagnostics as the message, and no module. The module that comes out
// loses its per-function target attributes and "no-builtins", as the math
// library's bitcode does, so it inlines into the integrand module's code
// for the host CPU or the chosen sm_XX.
//
//===----------------------------------------------------------------------===//

#include "frontend/Builtins.h"
#include "clang/ClangJob.h"
#include "clang/PortabilityChecker.h"
#include "clang/SinglePrecision.h"

#include "clang/AST/ASTConsumer.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/Basic/DiagnosticFrontend.h"
#include "clang/CodeGen/CodeGenAction.h"
#include "clang/Frontend/FrontendAction.h"
#include "clang/Frontend/MultiplexConsumer.h"
#include "clang/Sema/SemaConsumer.h"
#include "clang/Sema/TemplateInstCallback.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/IntrinsicInst.h"
#include "llvm/IR/Module.h"

using namespace llvm;

namespace vf {

namespace {

/// The C declaration a .vf signature calls for, its reals \p Real
/// (vf_real: "double", or "float" in single precision).
std::string expectedDeclaration(const ForeignFunction &F, StringRef Real) {
  const std::string R = Real.str();
  std::string S = (F.ResultSize ? "void " : R + " ") + F.Name + "(";
  for (size_t K = 0; K < F.ArgSizes.size(); ++K)
    S += (K ? ", " : "") + (F.PdfArgs[K]    ? std::string("vf_pdf")
                            : F.ArgSizes[K] ? "const " + R + " *"
                                            : R);
  if (F.ResultSize)
    S += std::string(F.ArgSizes.empty() ? "" : ", ") + R + " *out";
  return S + ")";
}

/// Whether \p T is vf_real: double, or float when \p Single.
bool isReal(clang::ASTContext &Ctx, clang::QualType T, bool Single) {
  return Ctx.hasSameUnqualifiedType(T, Single ? Ctx.FloatTy : Ctx.DoubleTy);
}

bool isPointerToReal(clang::ASTContext &Ctx, clang::QualType T, bool Const,
                     bool Single) {
  if (!T->isPointerType())
    return false;
  clang::QualType P = T->getPointeeType();
  return isReal(Ctx, P, Single) && (Const || !P.isConstQualified());
}

/// vf/integrand.h's vf_pdf: a pointer to a const struct vf_pdf_handle.
bool isPdfHandle(clang::QualType T) {
  if (!T->isPointerType() || !T->getPointeeType().isConstQualified())
    return false;
  const clang::RecordDecl *R = T->getPointeeType()->getAsRecordDecl();
  return R && R->getName() == "vf_pdf_handle";
}

bool matches(clang::ASTContext &Ctx, const clang::FunctionDecl &D,
             const ForeignFunction &F, bool Single) {
  const size_t N = F.ArgSizes.size() + (F.ResultSize ? 1 : 0);
  if (D.getNumParams() != N ||
      !(F.ResultSize ? D.getReturnType()->isVoidType()
                     : isReal(Ctx, D.getReturnType(), Single)))
    return false;
  for (size_t K = 0; K < F.ArgSizes.size(); ++K) {
    clang::QualType T = D.getParamDecl(K)->getType();
    bool Ok = F.PdfArgs[K]    ? isPdfHandle(T)
              : F.ArgSizes[K] ? isPointerToReal(Ctx, T, true, Single)
                              : isReal(Ctx, T, Single);
    if (!Ok)
      return false;
  }
  return !F.ResultSize ||
         isPointerToReal(Ctx, D.getParamDecl(N - 1)->getType(), false, Single);
}

/// Each function the .vf program calls is defined here, with C linkage
/// and the C form of its .vf signature.
void verifySignatures(clang::ASTContext &Ctx, const ForeignSource &S) {
  clang::DiagnosticsEngine &Diags = Ctx.getDiagnostics();
  clang::SourceManager &SM = Ctx.getSourceManager();
  const unsigned ErrorID =
      Diags.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0");
  for (const ForeignFunction &F : S.Functions) {
    const clang::FunctionDecl *Def = nullptr;
    for (clang::NamedDecl *D :
         Ctx.getTranslationUnitDecl()->lookup(&Ctx.Idents.get(F.Name)))
      if (auto *FD = dyn_cast<clang::FunctionDecl>(D))
        if (const clang::FunctionDecl *X = FD->getDefinition())
          Def = X;
    const std::string Want =
        expectedDeclaration(F, S.Single ? "float" : "double");
    // In single precision, where a double declaration is the likely cause.
    const std::string Precision =
        S.Single ? " in single precision (--precision f32): declare it with "
                   "vf_real"
                 : "";
    if (!Def) {
      Diags.Report(SM.getLocForStartOfFile(SM.getMainFileID()), ErrorID)
          << "no definition of '" + F.Name + "', which " + F.DeclaredAt +
                 " declares extern; define 'VF_FUNCTION " + Want + "'" +
                 Precision;
      continue;
    }
    if (!Def->isExternC())
      Diags.Report(Def->getLocation(), ErrorID)
          << "'" + F.Name + "' is called from " + F.DeclaredAt +
                 " and needs C linkage: declare it 'VF_FUNCTION' (extern "
                 "\"C\")";
    else if (!matches(Ctx, *Def, F, S.Single))
      Diags.Report(Def->getLocation(), ErrorID)
          << "'" + F.Name + "' does not match its extern declaration at " +
                 F.DeclaredAt + ", which calls for '" + Want + "'" + Precision;
  }
}

/// The most template instantiations (and deductions, default arguments,
/// ...: Sema's code synthesis contexts) a translation unit may need. The
/// depth limit (-ftemplate-depth) does not bound their number: a template
/// that instantiates two others a level down is 2^128 of them within it,
/// and Sema's memory grows by about a kilobyte each. A quarter of a
/// million is far beyond GPU code's templates and stops such a file within
/// a few seconds and a few hundred MB.
constexpr uint64_t MaxInstantiations = uint64_t(1) << 18;

/// Counts instantiations; at the limit, a fatal error, after which Sema
/// starts no more (Sema::InstantiatingTemplate) and the parse ends.
class InstantiationBudget : public clang::TemplateInstantiationCallback {
public:
  void initialize(const clang::Sema &) override {}
  void finalize(const clang::Sema &) override {}
  void atTemplateEnd(const clang::Sema &,
                     const clang::Sema::CodeSynthesisContext &) override {}

  void atTemplateBegin(const clang::Sema &S,
                       const clang::Sema::CodeSynthesisContext &Inst) override {
    if (++N != MaxInstantiations + 1)
      return;
    // Sema stops instantiating after a fatal error only if it was one that
    // cannot be compiled past, which a custom diagnostic never is: a
    // built-in "%0" error, raised to fatal.
    clang::DiagnosticsEngine &D = S.getDiagnostics();
    const unsigned ID = clang::diag::err_fe_backend_unsupported;
    D.setSeverity(ID, clang::diag::Severity::Fatal, clang::SourceLocation());
    D.Report(Inst.PointOfInstantiation, ID)
        << ("more than " + Twine(MaxInstantiations) +
            " template instantiations (a runaway template?); vegasflow "
            "compiles up to this many")
               .str();
  }

private:
  uint64_t N = 0;
};

class CheckConsumer : public clang::SemaConsumer {
public:
  CheckConsumer(clang::CompilerInstance &CI, const ForeignSource &S, bool Gpu,
                PhaseClock &Clock)
      : S(S), Gpu(Gpu), Clock(Clock) {
    Includes.record(CI.getPreprocessor());
  }

  void InitializeSema(clang::Sema &Sema) override {
    Sema.TemplateInstCallbacks.push_back(
        std::make_unique<InstantiationBudget>());
  }

  void HandleTranslationUnit(clang::ASTContext &Ctx) override {
    Clock.lap(ClangPhase::Parse);
    if (Ctx.getDiagnostics().hasErrorOccurred())
      return; // the syntax errors say enough
    runPortabilityChecker(Ctx, Gpu, Includes);
    verifySignatures(Ctx, S);
    Clock.lap(ClangPhase::Check);
  }

private:
  const ForeignSource &S;
  bool Gpu;
  PhaseClock &Clock;
  RuntimeLibraryIncludes Includes;
};

class CheckAction : public clang::ASTFrontendAction {
public:
  CheckAction(const ForeignSource &S, bool Gpu) : S(S), Gpu(Gpu) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef) override {
    return std::make_unique<CheckConsumer>(CI, S, Gpu, Clock);
  }

private:
  const ForeignSource &S;
  bool Gpu;
  PhaseClock Clock;
};

/// Code generation with the checker in front: the multiplexer hands the
/// finished AST to the checker first, and Clang's code generator emits
/// nothing once an error has been reported.
class CheckedCodeGenAction : public clang::EmitLLVMOnlyAction {
public:
  CheckedCodeGenAction(LLVMContext &Ctx, const ForeignSource &S, bool Gpu,
                       PhaseClock &Clock)
      : EmitLLVMOnlyAction(&Ctx), S(S), Gpu(Gpu), Clock(Clock) {}

  std::unique_ptr<clang::ASTConsumer>
  CreateASTConsumer(clang::CompilerInstance &CI, StringRef InFile) override {
    std::vector<std::unique_ptr<clang::ASTConsumer>> Consumers;
    Consumers.push_back(std::make_unique<CheckConsumer>(CI, S, Gpu, Clock));
    Consumers.push_back(EmitLLVMOnlyAction::CreateASTConsumer(CI, InFile));
    return std::make_unique<clang::MultiplexConsumer>(std::move(Consumers));
  }

private:
  const ForeignSource &S;
  bool Gpu;
  PhaseClock &Clock;
};

/// On the host, a C/C++ function whose body with every function it calls
/// inlined is larger than this many of Clang's (unoptimised) instructions
/// is kept out of line (noinline) instead of being forced inline. The
/// batch entry and the sampler both call the integrand, so a forced inline
/// puts two copies of, say, a 1000-line matrix element into the object,
/// and x86 code generation (register allocation above all) of those two
/// copies was two thirds of the cold compile (docs/benchmarks.md, "C++
/// integrands"); inlined into the one loop of an entry-only build it costs
/// the loop passes 20% more than out of line. A loop around a body that
/// large gains nothing from vectorizing next to the body's own length, and
/// one call per sample costs nothing next to it (the same samples per
/// second, measured). Small functions stay forced inline, so the loop
/// around them vectorizes as a .vf fn's does.
///
/// Only instructions that remain after SROA count: Clang's allocas, loads
/// and stores of locals and lifetime markers do not. They are about half
/// of ordinary code but two thirds of code written with small classes
/// (each std::complex operator stores and reloads its operands), which
/// counted whole kept e+e- -> mu+mu- in std::complex (4454 instructions,
/// 1601 counted) out of line, unvectorised and 1.65 times slower than its
/// twin on a hand-written complex type (3134, 1465; docs/benchmarks.md,
/// "Matrix elements, four forms").
constexpr uint64_t MaxForcedInlineSize = 2048;

/// Whether \p I is memory traffic that SROA removes from Clang's output.
bool isLocalMemoryTraffic(const Instruction &I) {
  if (isa<AllocaInst, LoadInst, StoreInst>(I))
    return true;
  const auto *Intrinsic = dyn_cast<IntrinsicInst>(&I);
  return Intrinsic && (Intrinsic->isLifetimeStartOrEnd() ||
                       isa<DbgInfoIntrinsic>(Intrinsic));
}

/// \p F's size with its callees inlined, saturating above
/// MaxForcedInlineSize; a function in a call cycle (which cannot be
/// inlined) counts as too large.
uint64_t inlinedSize(const Function &F,
                     DenseMap<const Function *, uint64_t> &Memo) {
  constexpr uint64_t TooLarge = MaxForcedInlineSize + 1;
  auto [It, New] = Memo.try_emplace(&F, TooLarge);
  if (!New)
    return It->second;
  uint64_t N = 0;
  for (const BasicBlock &BB : F)
    for (const Instruction &I : BB) {
      N += !isLocalMemoryTraffic(I);
      if (const auto *Call = dyn_cast<CallBase>(&I))
        if (const Function *Callee = Call->getCalledFunction();
            Callee && !Callee->isDeclaration() && N < TooLarge)
          N += inlinedSize(*Callee, Memo);
    }
  return Memo[&F] = std::min(N, TooLarge);
}

/// In a function too large to inline (and what it inlines), the math
/// library's functions are called rather than inlined. Such a function
/// is not vectorized, so inlining them gains only the call, and their
/// bodies at every call site (a matrix element of 1000 lines makes
/// hundreds of math calls, pow alone 200 instructions) were four fifths
/// of its compile time. The values are the same: the same function runs,
/// without fast-math nothing is reassociated across the call. (A small
/// function that a large one calls has its math calls out of line
/// wherever it is inlined.)
void callMathOutOfLine(ArrayRef<Function *> Large) {
  SmallPtrSet<Function *, 16> Seen;
  SmallVector<Function *, 16> Work(Large.begin(), Large.end());
  while (!Work.empty()) {
    Function *F = Work.pop_back_val();
    if (!Seen.insert(F).second)
      continue;
    for (BasicBlock &BB : *F)
      for (Instruction &I : BB)
        if (auto *Call = dyn_cast<CallBase>(&I))
          if (Function *Callee = Call->getCalledFunction()) {
            if (!Callee->isDeclaration())
              Work.push_back(Callee);
            else if (Callee->getName().starts_with("vf_"))
              Call->addFnAttr(Attribute::NoInline);
          }
  }
}

/// The module as the integrand module needs it (see the file comment).
/// Every function is always inlined, as a .vf fn is (a call left in the
/// sampling loop would keep it from vectorizing on the CPU and costs a
/// stack frame and local memory for its arrays per sample on a GPU),
/// except on the host a very large one, which is never inlined
/// (MaxForcedInlineSize).
void prepareForLinking(Module &M, ForeignTarget T) {
  for (Function &F : M) {
    for (StringRef A : {"target-cpu", "target-features", "tune-cpu",
                        "no-builtins"})
      F.removeFnAttr(A);
    for (const Attribute &A : F.getAttributes().getFnAttrs())
      if (A.isStringAttribute() &&
          A.getKindAsString().starts_with("no-builtin-"))
        F.removeFnAttr(A.getKindAsString());
  }
  DenseMap<const Function *, uint64_t> Sizes;
  SmallVector<Function *, 4> Large;
  for (Function &F : M)
    if (!F.isDeclaration()) {
      F.removeFnAttr(Attribute::NoInline);
      const bool Inline = T == ForeignTarget::NVPTX ||
                          inlinedSize(F, Sizes) <= MaxForcedInlineSize;
      F.addFnAttr(Inline ? Attribute::AlwaysInline : Attribute::NoInline);
      if (!Inline)
        Large.push_back(&F);
    }
  callMathOutOfLine(Large);
}

/// In a build with the system's C++ library, <cmath> and vf/integrand.h
/// declare libm's exp, sin, ...; their calls go to the math library's
/// functions (vf_exp, ...) instead, the ones a .vf integrand and a
/// portable build call, so what differs from a portable build is only
/// what libstdc++ computes itself (its std::complex above all). In single
/// precision libm's float functions (expf, ...) and the intrinsics
/// libstdc++'s float overloads make (std::exp of a float is
/// __builtin_expf, llvm.exp.f32) go to the library's float versions
/// (vf_expf, ...), as a .vf integrand's do.
void bindMathLibrary(Module &M, bool Single) {
  static constexpr StringLiteral Symbols[] = {
#define VF_MATH_SYMBOL(E, Name, Min, Max, Sym) Sym,
      VF_FOR_EACH_BUILTIN(VF_MATH_SYMBOL)
#undef VF_MATH_SYMBOL
  };
  auto Bind = [&M](StringRef Libm, StringRef Vf) {
    Function *F = M.getFunction(Libm);
    if (!F || !F->isDeclaration())
      return;
    FunctionCallee Callee = M.getOrInsertFunction(Vf, F->getFunctionType());
    F->replaceAllUsesWith(Callee.getCallee());
    F->eraseFromParent();
  };
  for (StringRef Sym : Symbols) {
    StringRef Libm = Sym;
    if (!Libm.consume_front("vf_"))
      continue;
    Bind(Libm, Sym);
    if (Single) {
      Bind((Libm + "f").str(), (Sym + "f").str());
      Bind(("llvm." + Libm + ".f32").str(), (Sym + "f").str());
    }
  }
}

Error clangError(ClangJob &Job, const ForeignSource &S) {
  std::string Text = Job.diagnostics();
  if (Text.empty())
    Text = "Clang could not compile '" + S.Path + "'\n";
  return createStringError(inconvertibleErrorCode(), Text);
}

} // namespace

ForeignCheck checkForeignSource(const ForeignSource &S, bool Gpu,
                                bool Warnings) {
  // The scan's bounds on the preprocessed size hold before any parse.
  Expected<ForeignScan> Scan = scanForeignSource(S.Path, ForeignTarget::Host);
  if (!Scan)
    return {false, toString(Scan.takeError())};
  ClangJob Job(S.Path, ForeignTarget::Host, ClangPurpose::Check,
               Scan->SystemLibrary);
  if (Job.instance() && !Warnings)
    Job.instance()->getDiagnostics().setIgnoreAllWarnings(true);
  CheckAction Act(S, Gpu);
  ForeignCheck R;
  R.Ok = Job.instance() && Job.instance()->ExecuteAction(Act) &&
         !Job.hasErrors();
  R.Diagnostics = Job.diagnostics();
  return R;
}

Expected<std::unique_ptr<Module>>
compileForeignSource(const ForeignSource &S, ForeignTarget T,
                     LLVMContext &Ctx, std::string &Warnings) {
  Expected<ForeignScan> Scan = scanForeignSource(S.Path, T, S.Single);
  if (!Scan)
    return Scan.takeError();
  PhaseClock Clock;
  ClangJob Job(S.Path, T, ClangPurpose::Compile, Scan->SystemLibrary, S.Single);
  CheckedCodeGenAction Act(Ctx, S, T == ForeignTarget::NVPTX, Clock);
  if (!Job.instance() || !Job.instance()->ExecuteAction(Act) ||
      Job.hasErrors())
    return clangError(Job, S);
  std::unique_ptr<Module> M = Act.takeModule();
  if (!M)
    return clangError(Job, S);
  Warnings += Job.diagnostics();
  prepareForLinking(*M, T);
  if (Scan->SystemLibrary)
    bindMathLibrary(*M, S.Single);
  if (S.Single) {
    if (Error E = checkSinglePrecision(*M))
      return std::move(E);
    dropLineTables(*M);
  }
  Clock.lap(ClangPhase::CodeGen);
  return std::move(M);
}

} // namespace vf
