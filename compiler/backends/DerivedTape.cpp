//===- backends/DerivedTape.cpp - A derived item as the runtime's tape ----===//
//
// Postfix order: operands before their operation, so the runtime needs
// only a stack. Constant subexpressions (constants, pi, folded numbers)
// become one Constant step.
//
//===----------------------------------------------------------------------===//

#include "backends/DerivedTape.h"

#include "frontend/Builtins.h"

namespace vf {

namespace {

DerivedOp builtinOp(Builtin B) {
  switch (B) {
  case Builtin::Abs:
    return DerivedOp::Abs;
  case Builtin::Sqrt:
    return DerivedOp::Sqrt;
  case Builtin::Cbrt:
    return DerivedOp::Cbrt;
  case Builtin::Exp:
    return DerivedOp::Exp;
  case Builtin::Expm1:
    return DerivedOp::Expm1;
  case Builtin::Log:
    return DerivedOp::Log;
  case Builtin::Log1p:
    return DerivedOp::Log1p;
  case Builtin::Log10:
    return DerivedOp::Log10;
  case Builtin::Pow:
    return DerivedOp::Pow;
  case Builtin::Sin:
    return DerivedOp::Sin;
  case Builtin::Cos:
    return DerivedOp::Cos;
  case Builtin::Tan:
    return DerivedOp::Tan;
  case Builtin::Asin:
    return DerivedOp::Asin;
  case Builtin::Acos:
    return DerivedOp::Acos;
  case Builtin::Atan:
    return DerivedOp::Atan;
  case Builtin::Atan2:
    return DerivedOp::Atan2;
  case Builtin::Sinh:
    return DerivedOp::Sinh;
  case Builtin::Cosh:
    return DerivedOp::Cosh;
  case Builtin::Tanh:
    return DerivedOp::Tanh;
  case Builtin::Erf:
    return DerivedOp::Erf;
  case Builtin::Erfc:
    return DerivedOp::Erfc;
  default:
    // Sema refuses the others (SemaDerived.cpp's differentiable()).
    return DerivedOp::Constant;
  }
}

DerivedOp binaryOp(BinaryOp Op) {
  switch (Op) {
  case BinaryOp::Add:
    return DerivedOp::Add;
  case BinaryOp::Sub:
    return DerivedOp::Sub;
  case BinaryOp::Mul:
    return DerivedOp::Mul;
  case BinaryOp::Div:
    return DerivedOp::Div;
  default:
    return DerivedOp::Pow;
  }
}

void emit(const Expr &E, std::vector<DerivedStep> &Out) {
  if (E.ConstValue) {
    Out.push_back({DerivedOp::Constant, *E.ConstValue, 0});
    return;
  }
  switch (E.Kind) {
  case ExprKind::Name: {
    const auto &N = static_cast<const NameExpr &>(E);
    if (N.Binding == BindingKind::Param)
      Out.push_back({DerivedOp::Param, 0, N.Param->Slot});
    else
      Out.push_back({DerivedOp::Component, 0, N.ArgIndex});
    return;
  }
  case ExprKind::Index: // the integrand's name, bound to its component
    emit(*static_cast<const IndexExpr &>(E).Base, Out);
    return;
  case ExprKind::Unary:
    emit(*static_cast<const UnaryExpr &>(E).Operand, Out);
    Out.push_back({DerivedOp::Neg, 0, 0});
    return;
  case ExprKind::Binary: {
    const auto &B = static_cast<const BinaryExpr &>(E);
    emit(*B.LHS, Out);
    emit(*B.RHS, Out);
    Out.push_back({binaryOp(B.Op), 0, 0});
    return;
  }
  case ExprKind::Call: {
    const auto &C = static_cast<const CallExpr &>(E);
    for (const ExprPtr &A : C.Args)
      emit(*A, Out);
    Out.push_back({builtinOp(*C.BuiltinFn), 0, 0});
    return;
  }
  default:
    return; // Sema refuses every other kind.
  }
}

} // namespace

std::vector<DerivedSpec> derivedTapes(const Program &P,
                                      const IntegrandDecl &I) {
  std::vector<DerivedSpec> Out;
  for (const DerivedDecl *D : P.Derived) {
    if (D->Of != &I)
      continue;
    DerivedSpec S;
    S.Name = D->Name;
    const llvm::SMRange R = D->Value->Range;
    S.Text.assign(R.Start.getPointer(), R.End.getPointer());
    emit(*D->Value, S.Steps);
    Out.push_back(std::move(S));
  }
  return Out;
}

} // namespace vf
