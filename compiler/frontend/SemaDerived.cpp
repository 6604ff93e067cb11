//===- frontend/SemaDerived.cpp - Derived results -------------------------===//
//
// A `derived` item (LANGUAGE.md v3) is evaluated by the runtime on an
// integrand's results, with forward-mode derivatives for its error
// (vf/Derived.h). So its expression may use only what the runtime can
// evaluate and differentiate: numbers, constants, parameters, one
// integrand's components (`ee[1]`, or `f` for a scalar integrand),
// arithmetic, `^` and the differentiable built-ins. Conditionals,
// comparisons, floor/ceil/min/max, reductions, arrays and user functions
// are errors with a caret, as is mixing two integrands.
//
//===----------------------------------------------------------------------===//

#include "frontend/Builtins.h"
#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

using namespace llvm;

namespace vf {

namespace {

/// The built-ins a derived item may call: those with a derivative
/// everywhere in their domain (abs's at 0 is taken as 0).
bool differentiable(Builtin B) {
  switch (B) {
  case Builtin::Floor:
  case Builtin::Ceil:
  case Builtin::Min:
  case Builtin::Max:
  case Builtin::Clamp:
    return false;
  default:
    return true;
  }
}

class DerivedChecker {
public:
  DerivedChecker(SemaImpl &S, DerivedDecl &D) : S(S), D(D) {}

  void check(Expr &E) {
    switch (E.Kind) {
    case ExprKind::Number:
      E.ConstValue = static_cast<NumberExpr &>(E).Value;
      break;
    case ExprKind::Name:
      name(static_cast<NameExpr &>(E));
      break;
    case ExprKind::Index:
      index(static_cast<IndexExpr &>(E));
      break;
    case ExprKind::Unary:
      unary(static_cast<UnaryExpr &>(E));
      break;
    case ExprKind::Binary:
      binary(static_cast<BinaryExpr &>(E));
      break;
    case ExprKind::Call:
      call(static_cast<CallExpr &>(E));
      break;
    default:
      error(E, "a derived result is a formula of the results: conditionals, "
               "reductions, arrays and channel queries are not allowed "
               "(only numbers, constants, parameters, components, "
               "arithmetic and differentiable built-ins)");
      return;
    }
    E.Ty = ExprType::Real;
  }

private:
  void error(const Expr &E, const Twine &Msg) {
    S.Diags.error(E.loc(), Msg, {E.Range});
  }

  /// Records that \p E uses \p I; another integrand than the first one
  /// used is an error.
  bool uses(const Expr &E, const IntegrandDecl &I) {
    if (!D.Of) {
      D.Of = &I;
      return true;
    }
    if (D.Of == &I)
      return true;
    error(E, "derived result '" + D.Name + "' uses integrands '" + D.Of->Name +
                 "' and '" + I.Name +
                 "': a derived result is a function of one integrand's "
                 "components (their covariance is known only within one "
                 "integrand)");
    return false;
  }

  void name(NameExpr &E) {
    if (std::optional<double> C = lookupBuiltinConstant(E.Name)) {
      E.Binding = BindingKind::BuiltinConst;
      E.ConstValue = *C;
      return;
    }
    auto It = S.P.Globals.find(E.Name);
    if (It == S.P.Globals.end())
      return unknown(E);
    Item &G = *It->second;
    if (G.Kind == ItemKind::Const) {
      auto &C = static_cast<ConstDecl &>(G);
      S.foldConst(C);
      E.Binding = BindingKind::Const;
      E.Const = &C;
      E.ConstValue = C.Folded;
    } else if (G.Kind == ItemKind::Param) {
      auto &P = static_cast<ParamDecl &>(G);
      P.Used = true;
      E.Binding = BindingKind::Param;
      E.Param = &P;
    } else if (G.Kind == ItemKind::Integrand) {
      auto &I = static_cast<const IntegrandDecl &>(G);
      if (I.OutputsExpr) {
        error(E, "integrand '" + I.Name + "' has " + Twine(I.Outputs) +
                     " components: name one, e.g. '" + I.Name + "[0]'");
        return;
      }
      if (uses(E, I))
        E.Binding = BindingKind::Component, E.ArgIndex = 0;
    } else {
      error(E, "'" + E.Name + "' is a " +
                   (G.Kind == ItemKind::Fn ? "function" : "derived result") +
                   ": a derived result may use integrands' components, "
                   "constants and parameters");
    }
  }

  void unknown(const NameExpr &E) {
    std::vector<StringRef> Names;
    for (auto &G : S.P.Globals)
      if (G.second->Kind != ItemKind::Fn && G.second->Kind != ItemKind::Import)
        Names.push_back(G.first());
    StringRef Best = closestName(E.Name, Names);
    error(E, "unknown name '" + E.Name + "' in derived result '" + D.Name +
                 "'" +
                 (Best.empty() ? std::string(": it may use the main file's "
                                             "integrands, constants and "
                                             "parameters")
                               : "; did you mean '" + Best.str() + "'?"));
  }

  void index(IndexExpr &E) {
    auto *Base = dynCast<NameExpr>(E.Base.get());
    if (Base && !S.P.Globals.count(Base->Name))
      return unknown(*Base);
    auto It = Base ? S.P.Globals.find(Base->Name) : S.P.Globals.end();
    if (It == S.P.Globals.end() || It->second->Kind != ItemKind::Integrand) {
      error(E, "in a derived result, only an integrand's name can be "
               "indexed (its component, e.g. 'ee[1]')");
      return;
    }
    auto &I = static_cast<const IntegrandDecl &>(*It->second);
    SemaContext Ctx;
    Ctx.ConstReason = "a constant";
    std::optional<long long> K =
        S.constantInteger(*E.Idx, Ctx, "a component of a derived result");
    if (!K)
      return;
    if (*K < 0 || *K >= (long long)I.Outputs) {
      error(*E.Idx, "component " + Twine(*K) + " of integrand '" + I.Name +
                        "', which has " + Twine(I.Outputs) +
                        (I.Outputs == 1 ? " component (0)"
                                        : " components (0 to " +
                                              Twine(I.Outputs - 1) + ")"));
      return;
    }
    if (!uses(E, I))
      return;
    Base->Binding = BindingKind::Component;
    Base->ArgIndex = unsigned(*K);
  }

  void unary(UnaryExpr &E) {
    if (E.Op != UnaryOp::Neg)
      return error(E, "'not' has no derivative: a derived result is a "
                      "differentiable formula of the results");
    check(*E.Operand);
  }

  void binary(BinaryExpr &E) {
    if (isComparison(E.Op) || isLogical(E.Op)) {
      S.Diags.error(E.OpLoc,
                    "'" + binaryOpSpelling(E.Op) +
                        "' has no derivative: a derived result is a "
                        "differentiable formula of the results",
                    {E.Range});
      return;
    }
    check(*E.LHS);
    check(*E.RHS);
  }

  void call(CallExpr &E) {
    std::optional<Builtin> B = lookupBuiltin(E.Callee);
    if (!B) {
      S.Diags.error(E.CalleeRange.Start,
                    "a derived result can call only built-in functions ('" +
                        E.Callee + "' is not one): write the formula out",
                    {E.CalleeRange});
      return;
    }
    if (isComplexBuiltin(*B)) {
      S.Diags.error(E.CalleeRange.Start,
                    "a derived result is a real formula of the results; "
                    "complex values belong in bodies",
                    {E.CalleeRange});
      return;
    }
    if (!differentiable(*B)) {
      S.Diags.error(E.CalleeRange.Start,
                    "'" + E.Callee +
                        "' has no derivative everywhere, so no error can "
                        "be propagated through it in a derived result",
                    {E.CalleeRange});
      return;
    }
    const BuiltinInfo &Info = builtinInfo(*B);
    if (int(E.Args.size()) != Info.MinArgs) {
      S.Diags.error(E.CalleeRange.Start,
                    "'" + E.Callee + "' takes " + Twine(Info.MinArgs) +
                        " argument" + (Info.MinArgs == 1 ? "" : "s") +
                        ", not " + Twine(E.Args.size()),
                    {E.Range});
      return;
    }
    E.BuiltinFn = *B;
    for (ExprPtr &A : E.Args)
      check(*A);
  }

  SemaImpl &S;
  DerivedDecl &D;
};

} // namespace

void SemaImpl::checkDerived(DerivedDecl &D) {
  unsigned Before = Diags.errorCount();
  DerivedChecker(*this, D).check(*D.Value);
  if (!D.Of && Diags.errorCount() == Before)
    Diags.error(D.NameRange.Start,
                "derived result '" + D.Name +
                    "' uses no integrand: it is a function of an "
                    "integrand's components, e.g. 'derived r = f[1] / f[0]'",
                D.NameRange);
}

} // namespace vf
