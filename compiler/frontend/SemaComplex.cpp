//===- frontend/SemaComplex.cpp - Checking complex values -----------------===//
//
// Complex values (LANGUAGE.md v3) are never folded: they carry no
// ConstValue, so a place that needs a compile-time constant refuses them
// as it refuses any run-time value, and a place that needs a real refuses
// them through requireReal, which names re(), im(), norm() and abs().
//
//===----------------------------------------------------------------------===//

#include "frontend/Builtins.h"
#include "frontend/SemaInternal.h"

#include <cmath>

using namespace llvm;

namespace vf {

/// z ^ n: the exponent a compile-time integer (repeated multiplication,
/// ComplexOps.h), never complex.
static void checkComplexPow(DiagEngine &Diags, BinaryExpr &E) {
  const Expr &N = *E.RHS;
  if (N.Ty == ExprType::Complex) {
    Diags.error(N.loc(),
                "a complex exponent is not supported: the exponent of a "
                "complex value is a compile-time integer",
                {N.Range});
    return;
  }
  if (N.Ty != ExprType::Real)
    return; // reported already
  if (!N.ConstValue || std::trunc(*N.ConstValue) != *N.ConstValue ||
      std::fabs(*N.ConstValue) > 1024) {
    Diags.error(N.loc(),
                "the exponent of a complex value must be a compile-time "
                "integer from -1024 to 1024",
                {N.Range});
    return;
  }
  E.Ty = ExprType::Complex;
}

void SemaImpl::checkComplexBinary(BinaryExpr &E) {
  std::string Op = binaryOpSpelling(E.Op).str();
  switch (E.Op) {
  case BinaryOp::Add:
  case BinaryOp::Sub:
  case BinaryOp::Mul:
  case BinaryOp::Div:
  case BinaryOp::Eq:
  case BinaryOp::Ne:
    for (Expr *Side : {E.LHS.get(), E.RHS.get()})
      requireValue(*Side, "an operand of '" + Op + "'");
    E.Ty = isComparison(E.Op) ? ExprType::Bool : ExprType::Complex;
    return;
  case BinaryOp::Pow:
    checkComplexPow(Diags, E);
    return;
  default:
    Diags.error(E.OpLoc,
                "cannot apply '" + Op +
                    "' to a complex value: complex values have no order "
                    "(compare abs() or re())",
                {E.Range});
    return;
  }
}

bool SemaImpl::checkComplexCall(CallExpr &E, Builtin B,
                                const SemaContext &Ctx) {
  bool ComplexArg = E.Args.size() == 1 && E.Args[0]->Ty == ExprType::Complex;
  bool EitherKind =
      B == Builtin::Abs || B == Builtin::Exp || B == Builtin::Sqrt;
  if (!isComplexBuiltin(B) && !(EitherKind && ComplexArg))
    return false;
  const BuiltinInfo &Info = builtinInfo(B);
  if (!checkArity(E, Info.MinArgs, Info.MaxArgs))
    return true;
  E.BuiltinFn = B;
  if (B == Builtin::Complex) {
    for (ExprPtr &A : E.Args)
      requireReal(*A, "an argument of 'complex'");
    E.Ty = ExprType::Complex;
    return true;
  }
  const Expr &Arg = *E.Args[0];
  if (Arg.Ty != ExprType::Complex && Arg.Ty != ExprType::Unknown)
    Diags.error(Arg.loc(),
                "'" + E.Callee +
                    "' takes a complex value; make one with "
                    "'complex(re, im)'",
                {Arg.Range});
  E.Ty = hasComplexResult(B) ? ExprType::Complex : ExprType::Real;
  // A complex constant may use conj, exp and sqrt; a real one is folded,
  // which re, im, norm, abs and arg of a complex value never are.
  if (!Ctx.ConstReason.empty() && E.Ty == ExprType::Real)
    Diags.error(E.loc(),
                Ctx.ConstReason + " must be a compile-time constant; complex "
                                  "values are computed at run time",
                {E.Range});
  return true;
}

void SemaImpl::checkComplexSignature(const FnDecl &D) {
  if (!D.Extern)
    return;
  for (const FnArg &A : D.Args)
    if (A.IsComplex)
      Diags.error(A.Range.Start,
                  "an extern fn takes reals and arrays of reals; pass re() "
                  "and im() of a complex value",
                  {A.Range});
  if (D.ResultComplex)
    Diags.error(D.NameRange.Start,
                "an extern fn returns a real or an array of reals, not a "
                "complex value",
                {D.NameRange});
}

bool SemaImpl::checkComplexElements(VectorExpr &E, unsigned Complex) {
  E.ComplexElems = Complex != 0;
  if (!Complex || Complex == E.Elements.size())
    return true;
  Diags.error(E.loc(),
              "an array's elements are all real or all complex; make the "
              "real ones complex with 'complex(x, 0)'",
              {E.Range});
  return false;
}

void SemaImpl::checkComplexResult(const Expr &R, const FnDecl &D) {
  if (R.Ty == ExprType::Unknown)
    return;
  if (D.ResultSize && R.Ty == ExprType::Array && R.ComplexElems &&
      R.Size == D.ResultSize)
    return;
  if (D.ResultSize) {
    Diags.error(R.loc(),
                "function '" + D.Name + "' is declared '-> [" +
                    Twine(D.ResultSize) +
                    "] complex', but this result is not an array of " +
                    Twine(D.ResultSize) + " complex values",
                {R.Range});
    return;
  }
  if (R.Ty == ExprType::Complex)
    return;
  Diags.error(R.loc(),
              "function '" + D.Name +
                  "' is declared '-> complex', but this result is not a "
                  "complex value; make one with 'complex(re, im)'",
              {R.Range});
}

} // namespace vf
