//===- frontend/Evaluator.cpp - Tree-walking reference evaluator ----------===//
//
// Booleans evaluate to 1 and 0. `min`/`max` propagate NaN (so does codegen),
// because a NaN integrand value must reach the non-finite check.
//
//===----------------------------------------------------------------------===//

#include "frontend/Evaluator.h"
#include "frontend/Builtins.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>

using namespace llvm;

namespace vf {

static double reduceStep(ReduceOp Op, double Acc, double V) {
  switch (Op) {
  case ReduceOp::Sum:
    return Acc + V;
  case ReduceOp::Prod:
    return Acc * V;
  case ReduceOp::Min:
  case ReduceOp::Max:
    if (std::isnan(Acc) || std::isnan(V))
      return NAN;
    return Op == ReduceOp::Min ? std::min(Acc, V) : std::max(Acc, V);
  }
  return NAN;
}

static double applyBinary(BinaryOp Op, double L, double R) {
  switch (Op) {
  case BinaryOp::Add: return L + R;
  case BinaryOp::Sub: return L - R;
  case BinaryOp::Mul: return L * R;
  case BinaryOp::Div: return L / R;
  case BinaryOp::Pow: return std::pow(L, R);
  case BinaryOp::Lt: return L < R;
  case BinaryOp::Le: return L <= R;
  case BinaryOp::Gt: return L > R;
  case BinaryOp::Ge: return L >= R;
  case BinaryOp::Eq: return L == R;
  case BinaryOp::Ne: return L != R;
  case BinaryOp::And: return L != 0 && R != 0;
  case BinaryOp::Or: return L != 0 || R != 0;
  }
  return NAN;
}

class EvalVisitor : public ExprVisitor<EvalVisitor, double> {
public:
  explicit EvalVisitor(Evaluator &Ev) : Ev(Ev) {}

  /// A subexpression Sema folded is not walked again: that keeps folding
  /// linear, and a `let` with a constant value needs no binding.
  double visit(const Expr &E) {
    if (E.ConstValue)
      return *E.ConstValue;
    return ExprVisitor::visit(E);
  }

  double visitNumber(const NumberExpr &E) { return E.Value; }
  double visitName(const NameExpr &E) {
    switch (E.Binding) {
    case BindingKind::Const:
      return E.Const->Folded.value_or(NAN);
    case BindingKind::Param:
      return E.Param->Slot < Ev.Params.size() ? Ev.Params[E.Param->Slot]
                                              : E.Param->DefaultValue;
    case BindingKind::Let:
      return Ev.Lets.lookup(E.Let);
    case BindingKind::ReduceIndex:
      return Ev.Indices.lookup(E.Reduce);
    case BindingKind::FnArg:
      return Ev.Frames.back()[E.ArgIndex];
    case BindingKind::DomainVar:
      return Ev.X.empty() ? NAN : Ev.X[0];
    case BindingKind::BuiltinConst:
      return E.ConstValue.value_or(NAN);
    case BindingKind::Unresolved:
      break;
    }
    return NAN;
  }
  double visitIndex(const IndexExpr &E) {
    double I = visit(*E.Idx);
    if (!(I >= 0) || I >= static_cast<double>(Ev.X.size()))
      return NAN;
    return Ev.X[static_cast<size_t>(I)];
  }
  double visitUnary(const UnaryExpr &E) {
    double V = visit(*E.Operand);
    return E.Op == UnaryOp::Neg ? -V : static_cast<double>(V == 0);
  }
  double visitBinary(const BinaryExpr &E) {
    return applyBinary(E.Op, visit(*E.LHS), visit(*E.RHS));
  }
  double visitCall(const CallExpr &E) {
    SmallVector<double, 4> Args;
    for (const ExprPtr &A : E.Args)
      Args.push_back(visit(*A));
    if (E.BuiltinFn)
      return evalBuiltin(*E.BuiltinFn, Args);
    if (!E.Fn || Ev.Frames.size() > 256)
      return NAN;
    Ev.Frames.emplace_back(Args.begin(), Args.end());
    double R = body(E.Fn->B);
    Ev.Frames.pop_back();
    return R;
  }
  double visitIf(const IfExpr &E) {
    return visit(*E.Cond) != 0 ? visit(*E.Then) : visit(*E.Else);
  }
  double visitReduce(const ReduceExpr &E) {
    double Acc = E.Op == ReduceOp::Prod ? 1.0 : 0.0;
    for (long long I = E.LoValue; I < E.HiValue; ++I) {
      Ev.Indices[&E] = static_cast<double>(I);
      double V = visit(*E.Body);
      Acc = I == E.LoValue && (E.Op == ReduceOp::Min || E.Op == ReduceOp::Max)
                ? V
                : reduceStep(E.Op, Acc, V);
    }
    return Acc;
  }
  double visitVector(const VectorExpr &E) {
    return E.Elements.empty() ? NAN : visit(*E.Elements[0]);
  }

  double body(const Body &B) {
    for (const auto &L : B.Lets)
      Ev.Lets[L.get()] = visit(*L->Value);
    return visit(*B.Result);
  }

private:
  Evaluator &Ev;
};

double Evaluator::eval(const Expr &E) { return EvalVisitor(*this).visit(E); }

std::vector<double> Evaluator::evalIntegrand(const IntegrandDecl &I,
                                             ArrayRef<double> Point) {
  X = Point;
  EvalVisitor V(*this);
  for (const auto &L : I.B.Lets)
    Lets[L.get()] = V.visit(*L->Value);
  std::vector<double> Out;
  if (const auto *Vec = dynCast<VectorExpr>(I.B.Result.get())) {
    for (const ExprPtr &E : Vec->Elements)
      Out.push_back(V.visit(*E));
  } else {
    Out.push_back(V.visit(*I.B.Result));
  }
  X = {};
  return Out;
}

void Evaluator::evalDomain(const IntegrandDecl &I, std::vector<double> &Lo,
                           std::vector<double> &Hi) {
  Lo.clear();
  Hi.clear();
  for (const Interval &Iv : I.Domain) {
    double L = eval(*Iv.Lo), H = eval(*Iv.Hi);
    for (unsigned K = 0; K < Iv.Count; ++K) {
      Lo.push_back(L);
      Hi.push_back(H);
    }
  }
}

} // namespace vf
