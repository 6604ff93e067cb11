//===- codegen/ExprCost.cpp - A rough cost of a checked expression --------===//

#include "codegen/ExprCost.h"

#include "frontend/AST.h"

namespace vf {

unsigned exprCost(const Expr &E) {
  if (E.ConstValue)
    return 0;
  switch (E.Kind) {
  case ExprKind::Number:
  case ExprKind::Name:
    return 0;
  case ExprKind::Index:
  case ExprKind::Slice:
    return 1;
  case ExprKind::Unary:
    return 1 + exprCost(*static_cast<const UnaryExpr &>(E).Operand);
  case ExprKind::Binary: {
    const auto &B = static_cast<const BinaryExpr &>(E);
    unsigned Op = B.Op == BinaryOp::Pow && !B.RHS->ConstValue ? 30
                  : B.Op == BinaryOp::Div                     ? 4
                                                              : 1;
    return Op + exprCost(*B.LHS) + exprCost(*B.RHS);
  }
  case ExprKind::Call: {
    const auto &C = static_cast<const CallExpr &>(E);
    unsigned Cost = C.Fn && !C.Fn->Extern ? exprCost(*C.Fn->B.Result) : 20;
    for (const ExprPtr &A : C.Args)
      Cost += exprCost(*A);
    return Cost;
  }
  case ExprKind::If: {
    const auto &I = static_cast<const IfExpr &>(E);
    return exprCost(*I.Cond) + exprCost(*I.Then) + exprCost(*I.Else);
  }
  case ExprKind::Reduce: {
    const auto &R = static_cast<const ReduceExpr &>(E);
    return (R.HiValue - R.LoValue) * (1 + exprCost(*R.Body));
  }
  case ExprKind::Vector:
    return 1000;
  case ExprKind::Channel: // a run-state lookup, or a map's density
    return 20;
  }
  return 1000;
}

} // namespace vf
