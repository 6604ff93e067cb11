//===- frontend/SemaExpr.cpp - Checking and folding expressions -----------===//
//
// Each expression gets a type (Real or Bool) and, when all its inputs are
// compile-time constants, a folded value. Folding uses the same host libm as
// the reference evaluator. User fn calls are not folded here: they are
// inlined by codegen, where LLVM folds them.
//
//===----------------------------------------------------------------------===//

#include "frontend/Builtins.h"
#include "frontend/Evaluator.h"
#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include "llvm/ADT/SmallVector.h"


using namespace llvm;

namespace vf {

namespace {

/// Checks one expression tree; a thin visitor over SemaImpl's state.
class ExprChecker : public ExprVisitor<ExprChecker> {
public:
  ExprChecker(SemaImpl &S, const SemaContext &Ctx) : S(S), Ctx(Ctx) {}

  void visitNumber(const NumberExpr &E) { set(E, ExprType::Real, E.Value); }

  void visitName(const NameExpr &CE) {
    auto &E = const_cast<NameExpr &>(CE);
    E.Ty = ExprType::Real;
    if (const LocalSym *L = S.lookupLocal(E.Name)) {
      bindLocal(E, *L);
      return;
    }
    if (Item *G = S.P.Globals.lookup(E.Name)) {
      bindGlobal(E, *G);
      return;
    }
    if (std::optional<double> C = lookupBuiltinConstant(E.Name)) {
      E.Binding = BindingKind::BuiltinConst;
      E.ConstValue = C;
      return;
    }
    if (lookupBuiltin(E.Name)) {
      error(E, "'" + E.Name + "' is a built-in function; call it, e.g. '" +
                   E.Name + "(x)'");
      return;
    }
    unknownName(E);
  }

  void visitIndex(const IndexExpr &CE) {
    auto &E = const_cast<IndexExpr &>(CE);
    E.Ty = ExprType::Real;
    IndexTarget T;
    if (!target(*E.Base, T)) {
      visit(*E.Idx);
      return;
    }
    if (E.Base->ComplexElems)
      E.Ty = ExprType::Complex;
    unsigned Before = S.Diags.errorCount();
    visit(*E.Idx);
    S.requireReal(*E.Idx, "an index");
    if (S.Diags.errorCount() == Before) // no cascade from a bad index
      S.checkIndexRange(*E.Idx, T);
  }

  void visitSlice(const SliceExpr &CE) {
    auto &E = const_cast<SliceExpr &>(CE);
    IndexTarget T;
    bool BaseOk = target(*E.Base, T);
    std::optional<long long> Lo =
        S.constantInteger(*E.Lo, Ctx, "a slice bound");
    std::optional<long long> Hi =
        S.constantInteger(*E.Hi, Ctx, "a slice bound");
    if (!BaseOk || !Lo || !Hi)
      return;
    SMRange R(E.Lo->Range.Start, E.Hi->Range.End);
    std::string Slice = std::to_string(*Lo) + ".." + std::to_string(*Hi);
    if (*Hi <= *Lo) {
      S.Diags.error(R.Start,
                    "empty slice " + Slice +
                        ": the upper bound must exceed the lower",
                    {R});
      return;
    }
    if (*Lo < 0 || *Hi > T.Size) {
      S.Diags.error(R.Start,
                    "slice " + Slice + " is out of range for " +
                        T.describe() + " (indices 0 to " +
                        Twine(static_cast<long long>(T.Size) - 1) + ")",
                    {R});
      return;
    }
    E.LoValue = *Lo;
    E.HiValue = *Hi;
    E.Ty = ExprType::Array;
    E.Size = static_cast<unsigned>(*Hi - *Lo);
    E.ComplexElems = E.Base->ComplexElems;
  }

  void visitUnary(const UnaryExpr &CE) {
    auto &E = const_cast<UnaryExpr &>(CE);
    visit(*E.Operand);
    if (E.Op == UnaryOp::Neg) {
      if (setArray(E, *E.Operand))
        return;
      if (E.Operand->Ty == ExprType::Complex) {
        E.Ty = ExprType::Complex;
        return;
      }
      S.requireReal(*E.Operand, "the operand of '-'");
      E.Ty = ExprType::Real;
      if (E.Operand->ConstValue)
        E.ConstValue = -*E.Operand->ConstValue;
    } else {
      S.requireBool(*E.Operand, "the operand of 'not'");
      E.Ty = ExprType::Bool;
      if (E.Operand->ConstValue)
        E.ConstValue = *E.Operand->ConstValue == 0;
    }
  }

  void visitBinary(const BinaryExpr &CE) {
    auto &E = const_cast<BinaryExpr &>(CE);
    visit(*E.LHS);
    visit(*E.RHS);
    if (E.Op == BinaryOp::Div && E.RHS->ConstValue && *E.RHS->ConstValue == 0)
      S.Diags.error(E.OpLoc, "division by a constant zero",
                    {E.RHS->Range});
    if (isArray(*E.LHS) || isArray(*E.RHS)) {
      arrayBinary(E);
      return;
    }
    if (isComplex(*E.LHS) || isComplex(*E.RHS)) {
      S.checkComplexBinary(E);
      return;
    }
    std::string Operand =
        ("an operand of '" + binaryOpSpelling(E.Op) + "'").str();
    if (isLogical(E.Op)) {
      S.requireBool(*E.LHS, Operand);
      S.requireBool(*E.RHS, Operand);
      E.Ty = ExprType::Bool;
    } else {
      S.requireReal(*E.LHS, Operand);
      S.requireReal(*E.RHS, Operand);
      E.Ty = isComparison(E.Op) ? ExprType::Bool : ExprType::Real;
    }
    if (E.LHS->ConstValue && E.RHS->ConstValue) {
      Evaluator Ev;
      E.ConstValue = Ev.eval(E);
    }
  }

  void visitCall(const CallExpr &CE) {
    auto &E = const_cast<CallExpr &>(CE);
    if (S.checkPdfCall(E, Ctx))
      return;
    E.Ty = ExprType::Real;
    bool AllConst = true;
    for (size_t K = 0; K < E.Args.size(); ++K) {
      if (S.checkPdfHandle(E, K))
        continue;
      visit(*E.Args[K]);
      AllConst &= E.Args[K]->ConstValue.has_value();
    }
    Item *G = S.P.Globals.lookup(E.Callee);
    std::optional<Builtin> B = lookupBuiltin(E.Callee);
    if (B && isComplexBuiltin(*B) && G && G->Kind == ItemKind::Fn)
      B.reset(); // shadowed by a user fn, with a warning
    if (B) {
      if (S.checkComplexCall(E, *B, Ctx))
        return;
      for (ExprPtr &A : E.Args)
        S.requireReal(*A, "a function argument");
      const BuiltinInfo &Info = builtinInfo(*B);
      if (!S.checkArity(E, Info.MinArgs, Info.MaxArgs))
        return;
      E.BuiltinFn = B;
      if (AllConst) {
        SmallVector<double, 4> Args;
        for (ExprPtr &A : E.Args)
          Args.push_back(*A->ConstValue);
        E.ConstValue = evalBuiltin(*B, Args);
      }
      return;
    }
    if (const LocalSym *L = S.lookupLocal(E.Callee)) {
      S.Diags.error(E.CalleeRange.Start,
                    "'" + E.Callee + "' is a local value, not a function",
                    E.CalleeRange);
      S.Diags.note(L->Range.Start, "defined here", L->Range);
      return;
    }
    if (!G || G->Kind != ItemKind::Fn) {
      if (G) {
        S.Diags.error(E.CalleeRange.Start,
                      "'" + E.Callee + "' is not a function", E.CalleeRange);
        S.Diags.note(G->NameRange.Start, "defined here", G->NameRange);
        return;
      }
      unknownFunction(E);
      return;
    }
    auto *F = static_cast<const FnDecl *>(G);
    if (!S.checkArity(E, F->Args.size(), F->Args.size()))
      return;
    for (size_t K = 0; K < E.Args.size(); ++K)
      checkArgument(*E.Args[K], F->Args[K], *F);
    E.Fn = F;
    if (F->ResultSize) {
      E.Ty = ExprType::Array;
      E.Size = F->ResultSize;
    }
    if (F->ResultComplex && F->ResultSize)
      E.ComplexElems = true;
    else if (F->ResultComplex)
      E.Ty = ExprType::Complex;
    if (!Ctx.ConstReason.empty())
      notConstant(E, "'" + E.Callee + "' is a user function (only built-in "
                                      "functions fold)");
    if (Ctx.Fn)
      S.Calls[Ctx.Fn].push_back(&E);
  }

  void visitIf(const IfExpr &CE) {
    auto &E = const_cast<IfExpr &>(CE);
    visit(*E.Cond);
    S.requireBool(*E.Cond, "the condition of 'if'");
    visit(*E.Then);
    visit(*E.Else);
    if (isArray(*E.Then) || isArray(*E.Else)) {
      if (E.Then->Ty == E.Else->Ty && E.Then->Size == E.Else->Size &&
          E.Then->ComplexElems == E.Else->ComplexElems)
        setArray(E, *E.Then);
      else if (E.Then->Ty != ExprType::Unknown &&
               E.Else->Ty != ExprType::Unknown)
        error(E, "the branches of 'if' have different shapes: " +
                     shape(*E.Then) + " and " + shape(*E.Else));
      return;
    }
    if (isComplex(*E.Then) && isComplex(*E.Else)) {
      E.Ty = ExprType::Complex;
      return;
    }
    S.requireReal(*E.Then, "the 'then' branch");
    S.requireReal(*E.Else, "the 'else' branch");
    E.Ty = ExprType::Real;
    if (E.Cond->ConstValue) {
      const Expr &Taken = *E.Cond->ConstValue != 0 ? *E.Then : *E.Else;
      E.ConstValue = Taken.ConstValue;
    }
  }

  void visitReduce(const ReduceExpr &CE) {
    auto &E = const_cast<ReduceExpr &>(CE);
    E.Ty = ExprType::Real;
    unsigned Before = S.Diags.errorCount();
    std::optional<long long> Lo =
        S.constantInteger(*E.Lo, Ctx, "a reduction bound");
    std::optional<long long> Hi =
        S.constantInteger(*E.Hi, Ctx, "a reduction bound");
    bool RangeOk = Lo && Hi;
    if (RangeOk && *Hi < *Lo) {
      S.Diags.error(E.Lo->loc(),
                    "inverted reduction range " + Twine(*Lo) + ".." +
                        Twine(*Hi) + ": the upper bound is below the lower",
                    {SMRange(E.Lo->Range.Start, E.Hi->Range.End)});
      RangeOk = false;
    } else if (RangeOk && *Hi == *Lo &&
               (E.Op == ReduceOp::Min || E.Op == ReduceOp::Max)) {
      S.Diags.error(E.Lo->loc(),
                    "empty range " + Twine(*Lo) + ".." + Twine(*Hi) + " in '" +
                        reduceOpSpelling(E.Op) + "', which has no value",
                    {SMRange(E.Lo->Range.Start, E.Hi->Range.End)});
      RangeOk = false;
    }
    E.LoValue = RangeOk ? *Lo : 0;
    E.HiValue = RangeOk ? *Hi : 0;
    LocalSym Sym{E.IndexName, E.IndexRange, BindingKind::ReduceIndex};
    Sym.Reduce = &E;
    bool Declared = S.declareLocal(Sym);
    visit(*E.Body);
    bool Complex = isComplex(*E.Body);
    if (Complex && (E.Op == ReduceOp::Sum || E.Op == ReduceOp::Prod))
      E.Ty = ExprType::Complex; // never folded, as every complex value
    else
      S.requireReal(*E.Body, "the body of a reduction");
    if (Declared)
      S.Locals.pop();
    SmallVector<const ReduceExpr *, 4> Deps;
    if (!Complex && RangeOk && S.collectIndexDeps(E, Deps) && Deps.empty()) {
      // Fold only what evaluates in a moment: `sum(i in 0..1e12: i)` stays
      // a run-time loop (and is an error where a constant is required).
      std::string Why;
      if (S.spendEvalSteps(S.evalSteps(E), Why))
        E.ConstValue = Evaluator().eval(E);
      else if (!Ctx.ConstReason.empty() && S.Diags.errorCount() == Before)
        notConstant(E, "this reduction is not folded: " + Why);
    }
  }

  /// Array elements are spliced in, so the size is the sum of theirs.
  void visitChannel(const ChannelExpr &CE) {
    S.checkChannelQuery(const_cast<ChannelExpr &>(CE), Ctx);
    if (!Ctx.ConstReason.empty())
      notConstant(CE, "a channel's weight and density change as the run "
                      "adapts");
  }

  void visitVector(const VectorExpr &CE) {
    auto &E = const_cast<VectorExpr &>(CE);
    unsigned N = 0, Complex = 0;
    bool Known = true;
    for (const ExprPtr &X : E.Elements) {
      visit(*X);
      S.requireValue(*X, "an array element");
      Known &=
          X->Ty == ExprType::Real || X->Ty == ExprType::Array || isComplex(*X);
      N += X->Ty == ExprType::Array ? X->Size : 1;
      Complex += isComplex(*X) || X->ComplexElems;
    }
    Known &= S.checkComplexElements(E, Complex);
    if (N > MaxArraySize) {
      error(E, "an array has at most " + Twine(MaxArraySize) +
                   " elements; this one has " + Twine(N));
      Known = false;
    }
    if (Known) {
      E.Ty = ExprType::Array;
      E.Size = N;
    }
  }

private:
  void set(const Expr &CE, ExprType T, std::optional<double> V) {
    auto &E = const_cast<Expr &>(CE);
    E.Ty = T;
    E.ConstValue = V;
  }

  void error(const Expr &E, const Twine &Msg) {
    S.Diags.error(E.loc(), Msg, {E.Range});
  }

  void notConstant(const Expr &E, const Twine &Why) {
    S.Diags.error(E.loc(),
                  Ctx.ConstReason + " must be a compile-time constant; " +
                      Why,
                  {E.Range});
  }

  static bool isArray(const Expr &E) { return E.Ty == ExprType::Array; }
  static bool isComplex(const Expr &E) { return E.Ty == ExprType::Complex; }

  /// Makes \p E an array of \p Like's size when \p Like is one.
  static bool setArray(Expr &E, const Expr &Like) {
    if (!isArray(Like))
      return false;
    E.Ty = ExprType::Array;
    E.Size = Like.Size;
    E.ComplexElems = Like.ComplexElems;
    return true;
  }

  static std::string shape(const Expr &E) {
    switch (E.Ty) {
    case ExprType::Array:
      return "an array of " + std::to_string(E.Size) +
             (E.ComplexElems ? " complex values" : "");
    case ExprType::Bool:
      return "a comparison";
    case ExprType::Complex:
      return "a complex value";
    default:
      return "a number";
    }
  }

  /// The base of an index or slice: the integration variable, or an array
  /// value; false after reporting anything else.
  bool target(Expr &Base, IndexTarget &T) {
    auto *N = dynCast<NameExpr>(&Base);
    const LocalSym *L = N ? S.lookupLocal(N->Name) : nullptr;
    if (L && L->Kind == BindingKind::DomainVar) {
      N->Binding = BindingKind::DomainVar;
      N->Ty = ExprType::Real;
      T = {"'" + N->Name + "'", Ctx.Integrand ? Ctx.Integrand->Dim : 0u,
           false};
      return true;
    }
    unsigned Before = S.Diags.errorCount();
    visit(Base);
    if (Base.Ty == ExprType::Unknown)
      return false; // reported already
    if (isArray(Base)) {
      T = {N ? "'" + N->Name + "'" : std::string("an array"), Base.Size,
           true};
      return true;
    }
    if (S.Diags.errorCount() == Before)
      error(Base, N ? "'" + N->Name +
                          "' is a number, not an array; only arrays and the "
                          "integration variable can be indexed"
                    : Twine("only arrays and the integration variable can "
                            "be indexed"));
    return false;
  }

  /// `+ -` between arrays of one size, `* /` by a number; an operand with
  /// complex parts makes the elements complex (LANGUAGE.md v3).
  void arrayBinary(BinaryExpr &E) {
    Expr &L = *E.LHS, &R = *E.RHS;
    if (L.Ty == ExprType::Unknown || R.Ty == ExprType::Unknown)
      return;
    auto IsNumber = [](const Expr &X) {
      return X.Ty == ExprType::Real || isComplex(X);
    };
    bool Ok = false;
    std::string Why;
    switch (E.Op) {
    case BinaryOp::Add:
    case BinaryOp::Sub:
      Ok = isArray(L) && isArray(R) && L.Size == R.Size;
      Why = "'+' and '-' take two arrays of the same size";
      break;
    case BinaryOp::Mul:
      Ok = isArray(L) != isArray(R) && (IsNumber(L) || IsNumber(R));
      Why = "'*' multiplies an array by a number (a Minkowski product is "
            "'dot' of std/phasespace)";
      break;
    case BinaryOp::Div:
      Ok = isArray(L) && IsNumber(R);
      Why = "'/' divides an array by a number";
      break;
    default:
      Why = "arrays take only '+', '-', and '*' and '/' by a number";
      break;
    }
    if (Ok) {
      setArray(E, isArray(L) ? L : R);
      E.ComplexElems =
          L.ComplexElems || R.ComplexElems || isComplex(L) || isComplex(R);
      return;
    }
    S.Diags.error(E.OpLoc,
                  "cannot apply '" + binaryOpSpelling(E.Op) + "' to " +
                      shape(L) + " and " + shape(R) + ": " + Why,
                  {E.Range});
  }

  /// A user fn's argument has the shape its signature declares.
  void checkArgument(Expr &A, const FnArg &Arg, const FnDecl &F) {
    if (A.Ty == ExprType::Unknown || Arg.IsPdf) // pdfs: checkPdfHandle
      return;
    if (!Arg.Size && Arg.IsComplex != isComplex(A)) {
      error(A, "argument '" + Arg.Name + "' of '" + F.Name + "' is " +
                   (Arg.IsComplex ? "a complex value" : "real") +
                   ", but this is " + shape(A) +
                   (Arg.IsComplex ? "; make one with 'complex(re, im)'"
                                  : "; use re(), im(), norm() or abs()"));
      return;
    }
    if (A.Ty == ExprType::Bool || isComplex(A)) {
      S.requireValue(A, "a function argument");
      return;
    }
    unsigned Got = isArray(A) ? A.Size : 0;
    if (Got == Arg.Size && A.ComplexElems == (Arg.IsComplex && Arg.Size))
      return;
    std::string Want = Arg.Size ? "an array of " + std::to_string(Arg.Size) +
                                      (Arg.IsComplex ? " complex values" : "")
                                : std::string("a number");
    error(A, "argument '" + Arg.Name + "' of '" + F.Name + "' is " + Want +
                 ", but this is " + shape(A));
  }

  void bindLocal(NameExpr &E, const LocalSym &L) {
    E.Binding = L.Kind;
    E.Let = L.Let;
    E.Reduce = L.Reduce;
    E.ArgIndex = L.ArgIndex;
    if (L.Let) {
      const_cast<LetStmt *>(L.Let)->Used = true;
      E.ConstValue = L.Let->Value->ConstValue;
      setArray(E, *L.Let->Value);
      if (isComplex(*L.Let->Value))
        E.Ty = ExprType::Complex;
      // Only an error leaves a value's type unknown: no cascade from it.
      if (L.Let->Value->Ty == ExprType::Unknown)
        E.Ty = ExprType::Unknown;
    }
    if (L.Size) {
      E.Ty = ExprType::Array;
      E.Size = L.Size;
    }
    if (L.Complex && L.Size)
      E.ComplexElems = true;
    else if (L.Complex)
      E.Ty = ExprType::Complex;
    // A variable of several dimensions is the array of its coordinates.
    if (L.Kind == BindingKind::DomainVar && Ctx.Integrand &&
        Ctx.Integrand->Dim != 1) {
      E.Ty = ExprType::Array;
      E.Size = Ctx.Integrand->Dim;
    }
    // Reduction indices are compile-time integers; the reduction folds.
    if (!Ctx.ConstReason.empty() && !E.ConstValue &&
        L.Kind != BindingKind::ReduceIndex)
      notConstant(E, "'" + E.Name + "' is a run-time value");
  }

  void bindGlobal(NameExpr &E, Item &G) {
    switch (G.Kind) {
    case ItemKind::Const: {
      auto &C = static_cast<ConstDecl &>(G);
      S.foldConst(C);
      E.Binding = BindingKind::Const;
      E.Const = &C;
      E.ConstValue = C.Folded;
      if (C.Value->Ty == ExprType::Complex)
        E.Ty = ExprType::Complex;
      return;
    }
    case ItemKind::Param: {
      auto &PD = static_cast<ParamDecl &>(G);
      PD.Used = true;
      E.Binding = BindingKind::Param;
      E.Param = &PD;
      if (!Ctx.ConstReason.empty())
        notConstant(E, "'" + E.Name +
                           "' is a run-time parameter (use 'const' for a "
                           "compile-time value)");
      return;
    }
    default:
      error(E, "'" + E.Name + "' is " + notAValue(G.Kind));
      S.Diags.note(G.NameRange.Start, "defined here", G.NameRange);
      return;
    }
  }

  void unknownName(const NameExpr &E) {
    if (Ctx.BoundsOf && E.Name == Ctx.BoundsOf->Var) {
      error(E, "a domain bound cannot depend on '" + E.Name +
                   "', the integration variable: bounds must be constants "
                   "or parameters (a region that depends on another "
                   "coordinate is written as a condition in the body, "
                   "'if ... then f else 0')");
      return;
    }
    std::vector<StringRef> Cands;
    for (const LocalSym &L : S.Locals)
      Cands.push_back(L.Name);
    for (auto &G : S.P.Globals)
      if (G.second->Kind == ItemKind::Const ||
          G.second->Kind == ItemKind::Param)
        Cands.push_back(G.first());
    Cands.push_back("pi");
    Cands.push_back("e");
    StringRef Best = closestName(E.Name, Cands);
    error(E, "unknown name '" + E.Name + "'" +
                 (Best.empty() ? Twine("")
                               : Twine("; did you mean '") + Best + "'?"));
  }

  void unknownFunction(const CallExpr &E) {
    std::vector<StringRef> Cands(builtinNames().begin(), builtinNames().end());
    for (auto &G : S.P.Globals)
      if (G.second->Kind == ItemKind::Fn)
        Cands.push_back(G.first());
    StringRef Best = closestName(E.Callee, Cands);
    S.Diags.error(E.CalleeRange.Start,
                  "unknown function '" + E.Callee + "'" +
                      (Best.empty() ? Twine("")
                                    : Twine("; did you mean '") + Best + "'?"),
                  {E.CalleeRange});
  }

  SemaImpl &S;
  const SemaContext &Ctx;
};

} // namespace

void SemaImpl::checkExpr(Expr &E, const SemaContext &Ctx) {
  ExprChecker(*this, Ctx).visit(E);
}

} // namespace vf
