//===- frontend/SemaExpr.cpp - Checking and folding expressions -----------===//
//
// Each expression gets a type (Real or Bool) and, when all its inputs are
// compile-time constants, a folded value. Folding uses the same host libm as
// the reference evaluator. User fn calls are not folded here: they are
// inlined by codegen, where LLVM folds them.
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/Builtins.h"
#include "frontend/Evaluator.h"
#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>

using namespace llvm;

namespace vf {

namespace {

uint64_t satAdd(uint64_t A, uint64_t B) {
  return A > UINT64_MAX - B ? UINT64_MAX : A + B;
}
uint64_t satMul(uint64_t A, uint64_t B) {
  return B && A > UINT64_MAX / B ? UINT64_MAX : A * B;
}

/// How many nodes the Evaluator visits to evaluate an expression once
/// (saturating); a folded subexpression costs one step.
class StepCounter : public ExprVisitor<StepCounter, uint64_t> {
public:
  uint64_t visit(const Expr &E) {
    return E.ConstValue ? 1 : ExprVisitor::visit(E);
  }
  uint64_t visitNumber(const NumberExpr &) { return 1; }
  uint64_t visitName(const NameExpr &) { return 1; }
  uint64_t visitIndex(const IndexExpr &E) { return satAdd(1, visit(*E.Idx)); }
  uint64_t visitUnary(const UnaryExpr &E) {
    return satAdd(1, visit(*E.Operand));
  }
  uint64_t visitBinary(const BinaryExpr &E) {
    return satAdd(1, satAdd(visit(*E.LHS), visit(*E.RHS)));
  }
  uint64_t visitCall(const CallExpr &E) {
    if (!E.BuiltinFn)
      return UINT64_MAX; // user fns are never evaluated at compile time
    uint64_t N = 1;
    for (const ExprPtr &A : E.Args)
      N = satAdd(N, visit(*A));
    return N;
  }
  uint64_t visitIf(const IfExpr &E) {
    return satAdd(
        1, satAdd(visit(*E.Cond), std::max(visit(*E.Then), visit(*E.Else))));
  }
  uint64_t visitReduce(const ReduceExpr &E) {
    uint64_t Trips = static_cast<uint64_t>(E.HiValue - E.LoValue);
    return satAdd(1, satMul(Trips, satAdd(1, visit(*E.Body))));
  }
  uint64_t visitVector(const VectorExpr &E) {
    uint64_t N = 1;
    for (const ExprPtr &X : E.Elements)
      N = satAdd(N, visit(*X));
    return N;
  }
};

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
    const auto *Base = dynCast<NameExpr>(E.Base.get());
    const LocalSym *L = Base ? S.lookupLocal(Base->Name) : nullptr;
    if (!L || L->Kind != BindingKind::DomainVar) {
      error(*E.Base, Base ? "'" + Base->Name +
                                "' cannot be indexed; only the integration "
                                "variable can, as in 'x[0]'"
                          : Twine("only the integration variable can be "
                                  "indexed, as in 'x[0]'"));
      visit(*E.Idx);
      return;
    }
    E.Base->Ty = ExprType::Real;
    unsigned Before = S.Diags.errorCount();
    visit(*E.Idx);
    S.requireReal(*E.Idx, "an index");
    if (S.Diags.errorCount() == Before) // no cascade from a bad index
      checkIndexRange(E);
  }

  void visitUnary(const UnaryExpr &CE) {
    auto &E = const_cast<UnaryExpr &>(CE);
    visit(*E.Operand);
    if (E.Op == UnaryOp::Neg) {
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
    if (E.Op == BinaryOp::Div && E.RHS->ConstValue && *E.RHS->ConstValue == 0)
      S.Diags.error(E.OpLoc, "division by a constant zero",
                    {E.RHS->Range});
    if (E.LHS->ConstValue && E.RHS->ConstValue) {
      Evaluator Ev;
      E.ConstValue = Ev.eval(E);
    }
  }

  void visitCall(const CallExpr &CE) {
    auto &E = const_cast<CallExpr &>(CE);
    E.Ty = ExprType::Real;
    bool AllConst = true;
    for (ExprPtr &A : E.Args) {
      visit(*A);
      S.requireReal(*A, "a function argument");
      AllConst &= A->ConstValue.has_value();
    }
    if (std::optional<Builtin> B = lookupBuiltin(E.Callee)) {
      const BuiltinInfo &Info = builtinInfo(*B);
      if (!checkArity(E, Info.MinArgs, Info.MaxArgs))
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
    Item *G = S.P.Globals.lookup(E.Callee);
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
    if (!checkArity(E, F->Args.size(), F->Args.size()))
      return;
    E.Fn = F;
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
    S.requireReal(*E.Then, "the 'then' branch");
    visit(*E.Else);
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
    S.requireReal(*E.Body, "the body of a reduction");
    if (Declared)
      S.Locals.pop_back();
    SmallVector<const ReduceExpr *, 4> Deps;
    if (RangeOk && collectIndexDeps(E, Deps) && Deps.empty()) {
      // Fold only what evaluates in a moment: `sum(i in 0..1e12: i)` stays
      // a run-time loop (and is an error where a constant is required).
      std::string Why;
      if (S.spendEvalSteps(StepCounter().visit(E), Why))
        E.ConstValue = Evaluator().eval(E);
      else if (!Ctx.ConstReason.empty() && S.Diags.errorCount() == Before)
        notConstant(E, "this reduction is not folded: " + Why);
    }
  }

  void visitVector(const VectorExpr &E) {
    error(E, "a vector '[...]' may only be the result of a vector-valued "
             "integrand");
    for (const ExprPtr &X : E.Elements)
      visit(*X);
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

  void bindLocal(NameExpr &E, const LocalSym &L) {
    E.Binding = L.Kind;
    E.Let = L.Let;
    E.Reduce = L.Reduce;
    E.ArgIndex = L.ArgIndex;
    if (L.Let) {
      const_cast<LetStmt *>(L.Let)->Used = true;
      E.ConstValue = L.Let->Value->ConstValue;
    }
    if (L.Kind == BindingKind::DomainVar && Ctx.Integrand &&
        Ctx.Integrand->Dim != 1)
      error(E, "'" + E.Name + "' has " + Twine(Ctx.Integrand->Dim) +
                   " dimensions; use one coordinate, as in '" + E.Name +
                   "[0]'");
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
      error(E, "'" + E.Name + "' is " +
                   (G.Kind == ItemKind::Fn ? "a function; call it"
                                           : "an integrand, not a value"));
      S.Diags.note(G.NameRange.Start, "defined here", G.NameRange);
      return;
    }
  }

  void unknownName(const NameExpr &E) {
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

  bool checkArity(const CallExpr &E, int Min, int Max) {
    int N = static_cast<int>(E.Args.size());
    if (N >= Min && (Max < 0 || N <= Max))
      return true;
    std::string Expect =
        Max < 0    ? "at least " + std::to_string(Min) + " arguments"
        : Min == 1 && Max == 1 ? std::string("1 argument")
                               : std::to_string(Min) + " arguments";
    S.Diags.error(E.CalleeRange.Start,
                  "'" + E.Callee + "' takes " + Expect + ", but " + Twine(N) +
                      (N == 1 ? " was" : " were") + " given",
                  {E.Range});
    return false;
  }

  /// The reduction indices an index expression uses, or false when it uses
  /// something that is not a compile-time value.
  bool collectIndexDeps(const Expr &E, SmallVectorImpl<const ReduceExpr *> &R);
  void checkIndexRange(const IndexExpr &E);

  SemaImpl &S;
  const SemaContext &Ctx;
};

bool ExprChecker::collectIndexDeps(const Expr &E,
                                   SmallVectorImpl<const ReduceExpr *> &R) {
  if (E.ConstValue)
    return true;
  if (const auto *N = dynCast<NameExpr>(&E)) {
    if (N->Binding != BindingKind::ReduceIndex)
      return false;
    if (!is_contained(R, N->Reduce))
      R.push_back(N->Reduce);
    return true;
  }
  if (const auto *U = dynCast<UnaryExpr>(&E))
    return collectIndexDeps(*U->Operand, R);
  if (const auto *B = dynCast<BinaryExpr>(&E))
    return collectIndexDeps(*B->LHS, R) && collectIndexDeps(*B->RHS, R);
  if (const auto *C = dynCast<CallExpr>(&E)) {
    if (!C->BuiltinFn)
      return false;
    for (const ExprPtr &A : C->Args)
      if (!collectIndexDeps(*A, R))
        return false;
    return true;
  }
  if (const auto *I = dynCast<IfExpr>(&E))
    return collectIndexDeps(*I->Cond, R) && collectIndexDeps(*I->Then, R) &&
           collectIndexDeps(*I->Else, R);
  if (const auto *Red = dynCast<ReduceExpr>(&E)) {
    // The reduction's own index is bound inside it; only outer ones leak.
    SmallVector<const ReduceExpr *, 4> Inner;
    if (!collectIndexDeps(*Red->Body, Inner))
      return false;
    for (const ReduceExpr *D : Inner)
      if (D != Red && !is_contained(R, D))
        R.push_back(D);
    return true;
  }
  return false;
}

void ExprChecker::checkIndexRange(const IndexExpr &E) {
  unsigned Dim = Ctx.Integrand ? Ctx.Integrand->Dim : 0;
  SmallVector<const ReduceExpr *, 4> Deps;
  if (!collectIndexDeps(*E.Idx, Deps)) {
    error(*E.Idx, "an index must be a compile-time integer: numbers, "
                  "constants and reduction indices only");
    return;
  }
  // Enumerate every combination of the indices used, within a bounded
  // number of evaluation steps; beyond it the index is rejected rather than
  // left unchecked, so an accepted program never reads out of bounds.
  uint64_t Combos = 1;
  for (const ReduceExpr *R : Deps) {
    uint64_t N = static_cast<uint64_t>(R->HiValue - R->LoValue);
    if (N == 0)
      return; // empty reduction: the index is never evaluated
    Combos = satMul(Combos, N);
  }
  std::string Why;
  if (!S.spendEvalSteps(satMul(Combos, StepCounter().visit(*E.Idx)), Why)) {
    error(*E.Idx, "cannot check that this index is in range for every value "
                  "of its reduction indices: " +
                      Why);
    return;
  }
  Evaluator Ev;
  SmallVector<long long, 4> Cur;
  for (const ReduceExpr *R : Deps)
    Cur.push_back(R->LoValue);
  auto When = [&] {
    std::string W;
    for (size_t D = 0; D < Deps.size(); ++D)
      W += (D ? ", " : " when ") + Deps[D]->IndexName + " = " +
           std::to_string(Cur[D]);
    return W;
  };
  for (uint64_t K = 0; K < Combos; ++K) {
    for (size_t D = 0; D < Deps.size(); ++D)
      Ev.bindIndex(Deps[D], static_cast<double>(Cur[D]));
    double V = Ev.eval(*E.Idx);
    if (V != std::floor(V) || !std::isfinite(V)) {
      error(*E.Idx,
            "index of '" + Ctx.Integrand->Var + "' is not an integer" + When());
      return;
    }
    if (V < 0 || V >= Dim) {
      error(*E.Idx, "index " + formatNumber(V) + " is out of range for '" +
                        Ctx.Integrand->Var + "', which has " + Twine(Dim) +
                        " dimension" + (Dim == 1 ? "" : "s") +
                        " (indices 0 to " +
                        Twine(static_cast<long long>(Dim) - 1) + ")" + When());
      return;
    }
    for (size_t D = 0; D < Deps.size(); ++D) {
      if (++Cur[D] < Deps[D]->HiValue)
        break;
      Cur[D] = Deps[D]->LoValue;
    }
  }
}

} // namespace

void SemaImpl::checkExpr(Expr &E, const SemaContext &Ctx) {
  ExprChecker(*this, Ctx).visit(E);
}

void SemaImpl::requireReal(Expr &E, StringRef What) {
  if (E.Ty == ExprType::Bool)
    Diags.error(E.loc(),
                "expected a number in " + What +
                    ", found a comparison or logical value; use 'if c then 1 "
                    "else 0'",
                {E.Range});
}

void SemaImpl::requireBool(Expr &E, StringRef What) {
  if (E.Ty == ExprType::Real)
    Diags.error(E.loc(),
                "expected a comparison or logical value as " + What +
                    ", found a number; compare it, as in 'x > 0'",
                {E.Range});
}

std::optional<long long> SemaImpl::constantInteger(Expr &E,
                                                   const SemaContext &Ctx,
                                                   StringRef What) {
  SemaContext C = Ctx;
  C.ConstReason = What;
  unsigned Before = Diags.errorCount();
  checkExpr(E, C);
  requireReal(E, What);
  if (!E.ConstValue) {
    if (Diags.errorCount() == Before)
      Diags.error(E.loc(), What + " must be a compile-time constant",
                  {E.Range});
    return std::nullopt;
  }
  double V = *E.ConstValue;
  if (V != std::floor(V) || !(std::fabs(V) < 1e15)) {
    Diags.error(E.loc(),
                What + " must be an integer, but it is " + formatNumber(V),
                {E.Range});
    return std::nullopt;
  }
  return static_cast<long long>(V);
}

} // namespace vf
