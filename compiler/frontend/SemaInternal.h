//===- frontend/SemaInternal.h - Sema's shared state ------------*- C++ -*-===//
//
// Private to Sema.cpp (items, scopes, recursion) and SemaExpr.cpp
// (expressions), which split one checker by concern as Halide splits its
// simplifier by node kind.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_SEMAINTERNAL_H
#define VF_COMPILER_FRONTEND_SEMAINTERNAL_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Program.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

/// A name introduced inside a body: fn argument, let, reduction index, or
/// the integrand's variable.
struct LocalSym {
  llvm::StringRef Name;
  llvm::SMRange Range;
  BindingKind Kind;
  const LetStmt *Let = nullptr;
  const ReduceExpr *Reduce = nullptr;
  unsigned ArgIndex = 0;
  unsigned Size = 0; // an array's size (fn arguments); 0 for a real
  bool Complex = false; // a complex fn argument
};

/// The locals in scope, innermost last, with an index by name, so that
/// declaring, finding and leaving a name take constant time however many
/// there are (100,000 lets once took Sema 40 s scanning a vector). Names do
/// not shadow one another (a redefinition is an error, never pushed), so
/// each name in scope has exactly one place.
class LocalScope {
public:
  const LocalSym *lookup(llvm::StringRef Name) const {
    auto It = Index.find(Name);
    return It == Index.end() ? nullptr : &Syms[It->second];
  }
  /// \p S, whose name is not in scope, becomes the innermost.
  void push(const LocalSym &S) {
    Index[S.Name] = Syms.size();
    Syms.push_back(S);
  }
  /// Leaves every local declared after the first \p Mark.
  void truncate(size_t Mark) {
    for (; Syms.size() > Mark; Syms.pop_back())
      Index.erase(Syms.back().Name);
  }
  void pop() { truncate(Syms.size() - 1); }
  void clear() { truncate(0); }
  void swap(LocalScope &Other) {
    Syms.swap(Other.Syms);
    Index.swap(Other.Index);
  }
  size_t size() const { return Syms.size(); }
  auto begin() const { return Syms.begin(); }
  auto end() const { return Syms.end(); }

private:
  std::vector<LocalSym> Syms;
  llvm::StringMap<size_t> Index;
};

/// What an index selects from, for its range check and messages.
struct IndexTarget {
  std::string Name; // "'x'", "'p'" or "an array"
  unsigned Size = 0;
  bool IsArray = false; // an array value, not the integration variable
  std::string describe() const;
};

uint64_t satMul(uint64_t A, uint64_t B);
inline uint64_t satAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}

/// A saturating count of an expression's nodes, for the sizes Sema bounds
/// (evaluation steps, inlined code): one per node, children through
/// Derived::visit; Derived adds calls, conditionals and reductions.
template <typename Derived>
class NodeCounter : public ExprVisitor<Derived, uint64_t> {
public:
  uint64_t visitNumber(const NumberExpr &) { return 1; }
  uint64_t visitName(const NameExpr &) { return 1; }
  uint64_t visitIndex(const IndexExpr &E) {
    return satAdd(1, satAdd(self().visit(*E.Base), self().visit(*E.Idx)));
  }
  uint64_t visitSlice(const SliceExpr &E) {
    return satAdd(1, self().visit(*E.Base));
  }
  uint64_t visitUnary(const UnaryExpr &E) {
    return satAdd(1, self().visit(*E.Operand));
  }
  uint64_t visitBinary(const BinaryExpr &E) {
    return satAdd(1, satAdd(self().visit(*E.LHS), self().visit(*E.RHS)));
  }
  uint64_t visitChannel(const ChannelExpr &E) {
    return satAdd(1, E.Point ? self().visit(*E.Point) : 0);
  }
  uint64_t visitVector(const VectorExpr &E) {
    uint64_t N = 1;
    for (const ExprPtr &X : E.Elements)
      N = satAdd(N, self().visit(*X));
    return N;
  }

private:
  Derived &self() { return *static_cast<Derived *>(this); }
};

/// Where an expression is being checked; decides what is in scope.
struct SemaContext {
  const IntegrandDecl *Integrand = nullptr; // the variable is in scope
  const FnDecl *Fn = nullptr;               // arguments are in scope
  /// Why a constant is required here, e.g. "a constant"; empty when the
  /// context allows run-time values.
  llvm::StringRef ConstReason;
  /// The integrand whose domain bounds are being checked: its variable is
  /// not in scope there, and naming it gets a message that says so.
  const IntegrandDecl *BoundsOf = nullptr;
};

/// Why a global item of kind \p K (not a const or param) is no value, for
/// "'NAME' is ...".
llvm::StringRef notAValue(ItemKind K);

class SemaImpl {
public:
  SemaImpl(Program &P, DiagEngine &Diags) : P(P), Diags(Diags) {}
  bool run();

  // Expressions (SemaExpr.cpp).
  void checkExpr(Expr &E, const SemaContext &Ctx);
  void requireReal(Expr &E, llvm::StringRef What);
  void requireBool(Expr &E, llvm::StringRef What);
  /// Checks \p E and returns its value as an integer, or nullopt after
  /// reporting that it must be a constant integer (\p What says where).
  std::optional<long long> constantInteger(Expr &E, const SemaContext &Ctx,
                                           llvm::StringRef What);
  /// Reports a boolean or an array where a number is needed.
  void requireValue(Expr &E, llvm::StringRef What);
  /// Whether \p E has \p Min to \p Max arguments (-1: any), after
  /// reporting otherwise.
  bool checkArity(const CallExpr &E, int Min, int Max);
  /// A compile-time array size in 1..MaxArraySize, or 0 after an error.
  unsigned arraySize(Expr &E, llvm::StringRef What);
  /// Checks a body's result against its declared size (0: a number; with
  /// \p OneIsScalar a size of 1 also accepts a number).
  void checkResult(Expr &R, unsigned Declared, bool OneIsScalar,
                   llvm::StringRef What);

  // Parton densities (SemaPdf.cpp).
  /// Opens \p D's set (a folder relative to \p M's file) and reads its
  /// default member.
  void checkPdf(PdfDecl &D, const SourceModule &M);
  /// Every name of Program::PdfSets is a pdf item.
  void checkPdfChoices();
  /// `xfx(p, id, x, mu[, member])` or `alphas(p, mu[, member])`, checked;
  /// false for every other call (and for a user fn of either name, which
  /// older programs may have).
  bool checkPdfCall(CallExpr &E, const SemaContext &Ctx);
  void checkPdfArguments(CallExpr &E, const SemaContext &Ctx);
  /// The members the checked calls read as Program::PdfTable, each call's
  /// TableIndex, and each set's identity.
  void buildPdfTable();
  /// Reads member \p K of \p Use unless it is read already; false after
  /// an error at \p Where.
  bool loadMember(PdfSetUse &Use, long long K, const Expr &Where);
  /// Reads the members \p M, a call's checked member argument, takes (a
  /// constant, or every value of its reduction indices); the first of
  /// them, or nothing after an error.
  std::optional<long long> memberArgument(PdfSetUse &Use, const Expr &M);
  /// Every member of \p Use (a member chosen at run time); 0, or nothing
  /// after an error at \p Where.
  std::optional<long long> allMembers(PdfSetUse &Use, const Expr &Where);
  /// Each weight list's set, whose member argument its index is (through
  /// fn calls too), and the warning of a list that gets the envelope
  /// (ListBands.cpp).
  void findListBands();
  /// Param \p N as a member of \p Use: every member is read, and the
  /// param's value is checked before each run (Program::PdfMemberParams).
  std::optional<long long> memberParam(PdfSetUse &Use, const NameExpr &N);
  const PdfDecl *pdfArgument(const CallExpr &Call, Expr &E);
  /// Whether \p E's argument \p K is for an extern fn's `pdf` argument,
  /// which is then checked (a pdf item's name, not evaluated).
  bool checkPdfHandle(CallExpr &E, size_t K);
  bool checkPdfFlavour(const PdfSetUse &Use, long long Id, const Expr &Where);

  // Complex values (SemaComplex.cpp).
  /// `+ - * / == !=` with a complex operand; the others are errors.
  void checkComplexBinary(BinaryExpr &E);
  /// complex(re, im), re, im, conj, norm, arg, and abs, exp, sqrt of a
  /// complex value, \p E's arguments checked; false for every other call,
  /// which is checked as a real one.
  bool checkComplexCall(CallExpr &E, Builtin B, const SemaContext &Ctx);
  /// A fn with complex arguments or result: not an extern one.
  void checkComplexSignature(const FnDecl &D);
  /// \p E's elements, \p Complex of them complex, are all real or all
  /// complex; sets ComplexElems.
  bool checkComplexElements(VectorExpr &E, unsigned Complex);
  /// The body of a fn declared `-> complex` returns a complex value.
  void checkComplexResult(const Expr &R, const FnDecl &D);

  // Index checks (SemaIndex.cpp).
  bool collectIndexDeps(const Expr &E,
                        llvm::SmallVectorImpl<const ReduceExpr *> &R);
  uint64_t evalSteps(const Expr &E);
  void checkIndexRange(const Expr &Idx, const IndexTarget &T);
  /// Whether \p Idx, of the reduction indices \p Deps, may be evaluated
  /// for each of their \p Combos combinations (an error naming \p What
  /// when the budget is spent).
  bool indexBudget(const Expr &Idx, llvm::ArrayRef<const ReduceExpr *> Deps,
                   llvm::StringRef What, uint64_t &Combos);
  /// \p Idx's value for each combination, with " when i = .." for
  /// messages, until \p Visit returns false.
  void visitIndexValues(
      const Expr &Idx, llvm::ArrayRef<const ReduceExpr *> Deps, uint64_t Combos,
      llvm::function_ref<bool(double V, const std::string &When)> Visit);
  /// Marks the reductions an array index depends on for unrolling.
  bool unrollFor(const Expr &Idx, llvm::ArrayRef<const ReduceExpr *> Deps);

  // Items and scopes (Sema.cpp).
  void foldConst(ConstDecl &C);
  bool declareLocal(const LocalSym &S);
  const LocalSym *lookupLocal(llvm::StringRef Name) const;
  void checkBody(Body &B, const SemaContext &Ctx, unsigned Declared,
                 llvm::StringRef What);
  /// The same, with the result checked by \p CheckResult.
  void checkBody(Body &B, const SemaContext &Ctx,
                 llvm::function_ref<void(Expr &)> CheckResult);

  // Channels (SemaChannels.cpp).
  void checkChannelQuery(ChannelExpr &E, const SemaContext &Ctx);
  /// \p D's channel blocks, each a body of its own, and what ties them.
  void checkChannels(IntegrandDecl &D, const SemaContext &Ctx);
  /// After layOutHistograms: every channel fills the first one's.
  void checkChannelHistograms(IntegrandDecl &D);

  // Derived results (SemaDerived.cpp).
  void checkDerived(DerivedDecl &D);

  // Histograms (SemaHist.cpp).
  void checkHist(HistStmt &H, const SemaContext &Ctx);
  /// Assigns each of \p D's histograms its cells, after its body is checked.
  void layOutHistograms(IntegrandDecl &D);

  // Weight lists (SemaWeights.cpp).
  void checkWeights(WeightsStmt &W, const SemaContext &Ctx);
  /// Assigns each of \p D's weight lists its entries, after its body is
  /// checked.
  void layOutWeights(IntegrandDecl &D);

  Program &P;
  DiagEngine &Diags;
  LocalScope Locals;
  /// Call graph among user fns, for recursion detection.
  llvm::DenseMap<const FnDecl *, llvm::SmallVector<const CallExpr *, 4>> Calls;
  /// The checked xfx and alphas calls, numbered by buildPdfTable.
  std::vector<CallExpr *> PdfCalls;
  /// The pdf arguments of extern fn calls (NameExpr::PdfHandle).
  std::vector<NameExpr *> PdfHandles;

  /// Compile-time evaluation (folding reductions, checking `x[i]` for every
  /// index value) is bounded so that no input makes Sema slow: one fold or
  /// one index check may take at most MaxEvalSteps evaluation steps (nodes
  /// visited by the Evaluator), and the whole program at most EvalBudget.
  static constexpr uint64_t MaxEvalSteps = uint64_t(1) << 22;
  static constexpr uint64_t ProgramEvalSteps = uint64_t(1) << 23;
  uint64_t EvalBudget = ProgramEvalSteps;
  /// Takes \p Steps from EvalBudget, or says in \p Why why not.
  bool spendEvalSteps(uint64_t Steps, std::string &Why) {
    if (Steps > MaxEvalSteps)
      Why = "it takes more than " + std::to_string(MaxEvalSteps) +
            " steps to evaluate at compile time";
    else if (Steps > EvalBudget)
      Why = "the program has used up its " + std::to_string(ProgramEvalSteps) +
            " steps of compile-time evaluation";
    else
      EvalBudget -= Steps;
    return Why.empty();
  }

  /// Integrands whose code, every fn call inlined and every unrolled
  /// reduction repeated, would exceed this many expression nodes are
  /// refused (SemaInline.cpp): codegen's time and memory follow that size.
  static constexpr uint64_t MaxInlinedSize = uint64_t(1) << 20;
  void checkInlinedSizes();

private:
  void collectGlobals();
  void checkParam(ParamDecl &D);
  void checkSignature(FnDecl &D);
  void checkFn(FnDecl &D);
  void checkInterval(Interval &Iv, const IntegrandDecl &D);
  void checkIntegrand(IntegrandDecl &D);
  void checkDomain(IntegrandDecl &D);
  void checkRecursion();
  void warnUnusedParams();
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_SEMAINTERNAL_H
