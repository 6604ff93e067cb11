//===- clang/PortabilityChecker.cpp - What a GPU cannot run ---------------===//
//
// One MatchFinder, one callback per rule. A place is reported once per
// rule even when several template instantiations reach it. Recursion is
// found after matching, as a cycle in the graph of direct calls between
// the file's functions.
//
//===----------------------------------------------------------------------===//

#include "clang/PortabilityChecker.h"
#include "clang/StandardHeaders.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringSet.h"

#include <functional>
#include <set>

using namespace clang;
using namespace clang::ast_matchers;

namespace vf {

namespace {

/// C library functions that read or write files, terminals or the clock.
const llvm::StringSet<> &ioFunctions() {
  static const llvm::StringSet<> Names = {
      "printf", "fprintf", "sprintf", "snprintf", "vprintf", "vfprintf",
      "puts", "fputs", "putchar", "fputc", "putc", "getchar", "getc",
      "fgetc", "fgets", "scanf", "fscanf", "sscanf", "fopen", "fclose",
      "fread", "fwrite", "fflush", "perror", "open", "close", "read",
      "write", "time", "clock", "rand", "srand", "getenv", "system",
      "exit", "abort"};
  return Names;
}

const llvm::StringSet<> &allocationFunctions() {
  static const llvm::StringSet<> Names = {"malloc", "calloc", "realloc",
                                          "free", "aligned_alloc",
                                          "posix_memalign"};
  return Names;
}

enum class Rule {
  Undefined,
  Allocation,
  Exception,
  Virtual,
  Recursion,
  Global,
  LocalStatic,
  IO,
  LongDouble,
  InlineAsm,
  RuntimeLibrary
};

/// The rules a GPU cannot run but a CPU can.
bool isGpuRule(Rule R) {
  return R == Rule::Undefined || R == Rule::Allocation || R == Rule::IO ||
         R == Rule::Virtual || R == Rule::Recursion ||
         R == Rule::RuntimeLibrary;
}

class Checker : public MatchFinder::MatchCallback {
public:
  Checker(ASTContext &Ctx, bool Gpu)
      : Ctx(Ctx), Diags(Ctx.getDiagnostics()), SM(Ctx.getSourceManager()),
        Gpu(Gpu) {}

  void addMatchers(MatchFinder &F) {
    F.addMatcher(callExpr(callee(functionDecl().bind("callee")),
                          optionally(forFunction(functionDecl().bind("caller"))))
                     .bind("call"),
                 this);
    F.addMatcher(cxxNewExpr().bind("new"), this);
    F.addMatcher(cxxDeleteExpr().bind("delete"), this);
    F.addMatcher(cxxThrowExpr().bind("throw"), this);
    F.addMatcher(cxxTryStmt().bind("try"), this);
    F.addMatcher(varDecl(anyOf(hasGlobalStorage(), hasThreadStorageDuration()))
                     .bind("var"),
                 this);
    F.addMatcher(declaratorDecl().bind("typed"), this);
    F.addMatcher(floatLiteral().bind("literal"), this);
    F.addMatcher(explicitCastExpr().bind("cast"), this);
    F.addMatcher(asmStmt().bind("asm"), this);
  }

  void run(const MatchFinder::MatchResult &R) override {
    if (const auto *C = R.Nodes.getNodeAs<CallExpr>("call"))
      return call(*C, *R.Nodes.getNodeAs<FunctionDecl>("callee"),
                  R.Nodes.getNodeAs<FunctionDecl>("caller"));
    if (const auto *N = R.Nodes.getNodeAs<CXXNewExpr>("new"))
      return report(Rule::Allocation, N->getBeginLoc(), N->getSourceRange(),
                    "'new' allocates memory, which the fused sampler has "
                    "none of; use a local variable or vf::array<N>");
    if (const auto *D = R.Nodes.getNodeAs<CXXDeleteExpr>("delete"))
      return report(Rule::Allocation, D->getBeginLoc(), D->getSourceRange(),
                    "'delete' frees memory, which the fused sampler has "
                    "none of");
    if (const auto *T = R.Nodes.getNodeAs<CXXThrowExpr>("throw"))
      return report(Rule::Exception, T->getBeginLoc(), T->getSourceRange(),
                    "exceptions cannot leave an integrand (it is compiled "
                    "without them, for every device); return a NaN instead");
    if (const auto *T = R.Nodes.getNodeAs<CXXTryStmt>("try"))
      return report(Rule::Exception, T->getBeginLoc(),
                    SourceRange(T->getBeginLoc(), T->getBeginLoc()),
                    "exceptions cannot be caught in an integrand (it is "
                    "compiled without them, for every device)");
    if (const auto *V = R.Nodes.getNodeAs<VarDecl>("var"))
      return variable(*V);
    if (const auto *D = R.Nodes.getNodeAs<DeclaratorDecl>("typed"))
      return longDouble(D->getType(), D->getLocation(), D->getSourceRange());
    if (const auto *L = R.Nodes.getNodeAs<FloatingLiteral>("literal"))
      return longDouble(L->getType(), L->getBeginLoc(), L->getSourceRange());
    if (const auto *C = R.Nodes.getNodeAs<ExplicitCastExpr>("cast"))
      return longDouble(C->getTypeAsWritten(), C->getBeginLoc(),
                        C->getSourceRange());
    // Through Stmt: AsmStmt's own getBeginLoc is a placeholder that its
    // subclasses hide.
    if (const Stmt *A = R.Nodes.getNodeAs<Stmt>("asm"))
      return report(Rule::InlineAsm, A->getBeginLoc(), A->getSourceRange(),
                    "inline assembly is for one target only; an integrand "
                    "runs on the CPU and on GPUs");
  }

  /// Reports recursion and, for a host build that a GPU could not run,
  /// the note saying so. Returns true when a GPU rule fired.
  bool finish(const RuntimeLibraryIncludes &Includes) {
    recursion();
    for (const RuntimeLibraryIncludes::Include &I : Includes.Found)
      runtimeLibraryInclude(I);
    emit();
    if (GpuFindings && !Gpu) {
      SourceLocation Main = SM.getLocForStartOfFile(SM.getMainFileID());
      Diags.Report(Main, Diags.getCustomDiagID(
                             DiagnosticsEngine::Note,
                             "this file runs on the CPU only (the warnings "
                             "above): a run on a GPU refuses it, and "
                             "--devices all runs it on the CPU threads"));
    }
    return GpuFindings;
  }

private:
  /// vegasflow's headers, and the system's in a build with the system's
  /// C++ library: their code is not the file's (libstdc++ throws, keeps
  /// globals and allocates, and is only ever compiled for the CPU).
  bool inHeader(SourceLocation L) const {
    SourceLocation Spelled = SM.getSpellingLoc(L);
    return SM.getFilename(Spelled).starts_with(ForeignIncludeRoot) ||
           SM.isInSystemHeader(Spelled) ||
           SM.isInSystemHeader(SM.getExpansionLoc(L));
  }

  /// Records a finding; finish() reports them in source order.
  void report(Rule R, SourceLocation L, SourceRange Range,
              llvm::StringRef Msg) {
    if (L.isInvalid() || inHeader(L) ||
        !Reported.insert({L.getRawEncoding(), int(R)}).second)
      return;
    const bool GpuOnly = isGpuRule(R);
    GpuFindings |= GpuOnly;
    Findings.push_back({L, Range, GpuOnly, unsigned(Findings.size()),
                        (GpuOnly ? "cannot run on a GPU: " : "") + Msg.str()});
  }

  void emit() {
    llvm::sort(Findings, [&](const Finding &A, const Finding &B) {
      return A.Loc == B.Loc ? A.Order < B.Order
                            : SM.isBeforeInTranslationUnit(A.Loc, B.Loc);
    });
    for (const Finding &F : Findings) {
      auto Level = F.GpuOnly && !Gpu ? DiagnosticsEngine::Warning
                                     : DiagnosticsEngine::Error;
      Diags.Report(F.Loc, Diags.getCustomDiagID(Level, "%0"))
          << F.Text << F.Range;
    }
  }

  void call(const CallExpr &C, const FunctionDecl &Callee,
            const FunctionDecl *Caller) {
    const FunctionDecl *Def = Callee.getDefinition();
    if (Caller && Def && Caller->isThisDeclarationADefinition())
      Calls[Caller->getCanonicalDecl()].push_back(
          {Def->getCanonicalDecl(), &C});
    if (const auto *M = dyn_cast<CXXMemberCallExpr>(&C))
      virtualCall(*M);
    llvm::StringRef Name =
        Callee.getIdentifier() ? Callee.getName() : llvm::StringRef();
    SourceRange Range = C.getSourceRange();
    if (Callee.isExternC() && allocationFunctions().contains(Name))
      return report(Rule::Allocation, C.getBeginLoc(), Range,
                    "'" + Name.str() +
                        "' allocates memory, which the fused sampler has "
                        "none of; use a local variable or vf::array<N>");
    if (Callee.isExternC() && ioFunctions().contains(Name))
      return report(Rule::IO, C.getBeginLoc(), Range,
                    "'" + Name.str() +
                        "' does input or output, which an integrand "
                        "evaluated on many threads and GPUs cannot do");
    if (Def || Callee.isDefaulted() || Callee.isDeleted() ||
        Callee.isPureVirtual() ||
        inHeader(Callee.getLocation()) || Callee.getBuiltinID())
      return;
    report(Rule::Undefined, C.getBeginLoc(), Range,
           "'" + Callee.getNameAsString() +
               "' has no definition in this file; a GPU can call only "
               "functions defined here and vf/integrand.h's math");
  }

  void virtualCall(const CXXMemberCallExpr &M) {
    const CXXMethodDecl *MD = M.getMethodDecl();
    if (!MD || !MD->isVirtual() || MD->hasAttr<FinalAttr>() ||
        MD->getParent()->hasAttr<FinalAttr>())
      return;
    const Expr *Obj = M.getImplicitObjectArgument()->IgnoreParenImpCasts();
    // A call on an object (not through a pointer or reference) has a known
    // dynamic type.
    if (!M.getImplicitObjectArgument()->getType()->isPointerType() &&
        isa<DeclRefExpr>(Obj) &&
        !cast<DeclRefExpr>(Obj)->getDecl()->getType()->isReferenceType())
      return;
    report(Rule::Virtual, M.getExprLoc(), M.getSourceRange(),
           "virtual call of '" + MD->getNameAsString() +
               "' through a pointer or reference of unknown dynamic type; "
               "call it on an object, or mark the class or the function "
               "'final'");
  }

  void variable(const VarDecl &V) {
    if (V.getType().isConstQualified() && !V.getTLSKind()) {
      if (!V.isStaticLocal() || !V.getInit() ||
          V.getInit()->isConstantInitializer(Ctx, false))
        return;
    }
    if (V.isStaticLocal())
      return report(Rule::LocalStatic, V.getLocation(), V.getSourceRange(),
                    "function-local static '" + V.getNameAsString() +
                        "': state kept between samples makes a sample "
                        "depend on the ones before it and races between "
                        "threads; make it a local or 'static constexpr'");
    if (V.isStaticDataMember() || V.hasGlobalStorage() || V.getTLSKind())
      report(Rule::Global, V.getLocation(), V.getSourceRange(),
             "non-const global '" + V.getNameAsString() +
                 "': state shared between samples makes results depend on "
                 "the order of evaluation and races between threads; make "
                 "it 'const' or 'constexpr', or pass a parameter");
  }

  void longDouble(QualType T, SourceLocation L, SourceRange R) {
    for (int Depth = 0; !T.isNull() && Depth < 8; ++Depth) {
      if (T->isSpecificBuiltinType(BuiltinType::LongDouble))
        return report(Rule::LongDouble, L, R,
                      "'long double' is 80 bits on the CPU and 64 on a "
                      "GPU, so the devices would disagree; use double");
      if (const auto *F = T->getAs<FunctionType>())
        T = F->getReturnType();
      else if (T->isPointerType() || T->isReferenceType())
        T = T->getPointeeType();
      else if (T->isArrayType())
        T = QualType(T->getPointeeOrArrayElementType(), 0);
      else
        return;
    }
  }

  /// An #include in the file's own code (not in a system header).
  void runtimeLibraryInclude(const RuntimeLibraryIncludes::Include &I) {
    SourceLocation At = SourceLocation::getFromRawEncoding(I.At);
    if (inHeader(At))
      return;
    report(Rule::RuntimeLibrary, At, SourceRange(At, At),
           "<" + I.Header + "> needs the C++ run-time library (it " +
               runtimeLibraryUse(I.Header).str() +
               "), which a GPU does not have");
  }

  /// Every call that closes a cycle of direct calls.
  void recursion() {
    enum Mark { White, Grey, Black };
    llvm::DenseMap<const FunctionDecl *, Mark> Marks;
    llvm::SmallVector<const FunctionDecl *, 8> Stack;
    std::function<void(const FunctionDecl *)> Visit =
        [&](const FunctionDecl *F) {
          Marks[F] = Grey;
          Stack.push_back(F);
          for (auto [Callee, Call] : Calls.lookup(F)) {
            Mark M = Marks.lookup(Callee);
            if (M == Grey) {
              std::string Chain;
              for (auto It = llvm::find(Stack, Callee); It != Stack.end();
                   ++It)
                Chain += "'" + (*It)->getNameAsString() + "' -> ";
              report(Rule::Recursion, Call->getBeginLoc(),
                     Call->getSourceRange(),
                     "recursive call (" + Chain + "'" +
                         Callee->getNameAsString() +
                         "'); write it as a loop");
            } else if (M == White) {
              Visit(Callee);
            }
          }
          Stack.pop_back();
          Marks[F] = Black;
        };
    for (auto &[F, _] : Calls)
      if (Marks.lookup(F) == White)
        Visit(F);
  }

  ASTContext &Ctx;
  DiagnosticsEngine &Diags;
  SourceManager &SM;
  const bool Gpu;
  bool GpuFindings = false;
  struct Finding {
    SourceLocation Loc;
    SourceRange Range;
    bool GpuOnly;
    unsigned Order; // of reporting, between findings at one place
    std::string Text;
  };
  std::vector<Finding> Findings;
  std::set<std::pair<unsigned, int>> Reported;
  /// Direct calls between the file's functions, in source order.
  llvm::MapVector<const FunctionDecl *,
                  llvm::SmallVector<std::pair<const FunctionDecl *,
                                              const CallExpr *>, 4>>
      Calls;
};

} // namespace

namespace {
/// Appends each angled #include of a header that needs the C++ run-time
/// library, where the header was found (in a build with vegasflow's
/// headers it is their #error, and the parse stops before the checker).
class IncludeRecorder : public PPCallbacks {
public:
  explicit IncludeRecorder(RuntimeLibraryIncludes &Out) : Out(Out) {}

  void InclusionDirective(SourceLocation, const Token &, StringRef FileName,
                          bool IsAngled, CharSourceRange FilenameRange,
                          OptionalFileEntryRef File, StringRef, StringRef,
                          const Module *, bool,
                          SrcMgr::CharacteristicKind) override {
    if (IsAngled && File && !runtimeLibraryUse(FileName).empty())
      Out.Found.push_back(
          {FileName.str(), FilenameRange.getBegin().getRawEncoding()});
  }

private:
  RuntimeLibraryIncludes &Out;
};
} // namespace

void RuntimeLibraryIncludes::record(Preprocessor &PP) {
  PP.addPPCallbacks(std::make_unique<IncludeRecorder>(*this));
}

bool runPortabilityChecker(ASTContext &Ctx, bool Gpu,
                           const RuntimeLibraryIncludes &Includes) {
  Checker C(Ctx, Gpu);
  MatchFinder Finder;
  C.addMatchers(Finder);
  Finder.matchAST(Ctx);
  return C.finish(Includes);
}

} // namespace vf
