//===- frontend/SemaRequire.cpp - What a context requires of a value ------===//
//
// After an expression is checked (SemaExpr.cpp), the place it stands in
// may require a kind of value: a number and not an array (a domain bound,
// a fn argument), any number (a let), a comparison (a condition), or a
// compile-time integer (a power, an array size, a fold's bounds). Each
// requirement reports what was found instead and how to write it.
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/SemaInternal.h"

#include <cmath>

using namespace llvm;

namespace vf {

void SemaImpl::requireReal(Expr &E, StringRef What) {
  if (E.Ty == ExprType::Array)
    Diags.error(E.loc(),
                "expected a number in " + What + ", found an array of " +
                    Twine(E.Size) + (E.ComplexElems ? " complex values" : ""),
                {E.Range});
  if (E.Ty == ExprType::Complex)
    Diags.error(E.loc(),
                "expected a real number in " + What +
                    ", found a complex value; use re(), im(), norm() or "
                    "abs()",
                {E.Range});
  requireValue(E, What);
}

void SemaImpl::requireValue(Expr &E, StringRef What) {
  if (E.Ty == ExprType::Bool)
    Diags.error(E.loc(),
                "expected a number in " + What +
                    ", found a comparison or logical value; use 'if c then 1 "
                    "else 0'",
                {E.Range});
}

void SemaImpl::requireBool(Expr &E, StringRef What) {
  if (E.Ty == ExprType::Real || E.Ty == ExprType::Array)
    Diags.error(E.loc(),
                "expected a comparison or logical value as " + What +
                    (E.Ty == ExprType::Array ? ", found an array"
                                             : ", found a number") +
                    "; compare it, as in 'x > 0'",
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

bool SemaImpl::checkArity(const CallExpr &E, int Min, int Max) {
  int N = static_cast<int>(E.Args.size());
  if (N >= Min && (Max < 0 || N <= Max))
    return true;
  std::string Expect =
      Max < 0                ? "at least " + std::to_string(Min) + " arguments"
      : Min == 1 && Max == 1 ? std::string("1 argument")
                             : std::to_string(Min) + " arguments";
  Diags.error(E.CalleeRange.Start,
              "'" + E.Callee + "' takes " + Expect + ", but " + Twine(N) +
                  (N == 1 ? " was" : " were") + " given",
              {E.Range});
  return false;
}

} // namespace vf
