//===- frontend/SemaIndex.cpp - Compile-time checks of indices ------------===//
//
// `x[i]` and `p[i]` need an index that is a compile-time integer in range
// for every value of the reduction indices it uses: Sema enumerates them
// (within a budget of evaluation steps, so no input makes it slow). An
// array value indexed by a reduction index makes that reduction unroll, so
// that codegen sees constant indices only and the array stays scalars.
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/Evaluator.h"
#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include <cmath>

using namespace llvm;

namespace vf {

namespace {

/// How many nodes the Evaluator visits to evaluate an expression once
/// (saturating); a folded subexpression costs one step.
class StepCounter : public NodeCounter<StepCounter> {
public:
  uint64_t visit(const Expr &E) {
    return E.ConstValue ? 1 : ExprVisitor::visit(E);
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
};

} // namespace

uint64_t satMul(uint64_t A, uint64_t B) {
  return B && A > UINT64_MAX / B ? UINT64_MAX : A * B;
}

uint64_t SemaImpl::evalSteps(const Expr &E) { return StepCounter().visit(E); }

bool SemaImpl::collectIndexDeps(const Expr &E,
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

void SemaImpl::checkIndexRange(const Expr &Idx, const IndexTarget &T) {
  SmallVector<const ReduceExpr *, 4> Deps;
  if (!collectIndexDeps(Idx, Deps)) {
    Diags.error(Idx.loc(),
                "an index must be a compile-time integer: numbers, "
                "constants and reduction indices only",
                {Idx.Range});
    return;
  }
  uint64_t Combos = 0;
  if (!indexBudget(Idx, Deps, "this index", Combos) || !Combos)
    return;
  if (T.IsArray && !unrollFor(Idx, Deps))
    return;
  visitIndexValues(Idx, Deps, Combos, [&](double V, const std::string &When) {
    if (V != std::floor(V) || !std::isfinite(V)) {
      Diags.error(Idx.loc(), "index of " + T.Name + " is not an integer" + When,
                  {Idx.Range});
      return false;
    }
    if (V < 0 || V >= T.Size) {
      Diags.error(Idx.loc(),
                  "index " + formatNumber(V) + " is out of range for " +
                      T.describe() + " (indices 0 to " +
                      Twine(static_cast<long long>(T.Size) - 1) + ")" + When,
                  {Idx.Range});
      return false;
    }
    return true;
  });
}

bool SemaImpl::indexBudget(const Expr &Idx, ArrayRef<const ReduceExpr *> Deps,
                           StringRef What, uint64_t &Combos) {
  // Every combination of the indices used is enumerated, within a bounded
  // number of evaluation steps; beyond it the value is rejected rather
  // than left unchecked, so an accepted program never reads out of bounds.
  Combos = 1;
  for (const ReduceExpr *R : Deps)
    Combos = satMul(Combos, static_cast<uint64_t>(R->HiValue - R->LoValue));
  if (!Combos)
    return true; // an empty reduction: the value is never computed
  std::string Why;
  if (spendEvalSteps(satMul(Combos, evalSteps(Idx)), Why))
    return true;
  Diags.error(
      Idx.loc(),
      "cannot check that " + What +
          " is in range for every value of its reduction indices: " + Why,
      {Idx.Range});
  return false;
}

void SemaImpl::visitIndexValues(
    const Expr &Idx, ArrayRef<const ReduceExpr *> Deps, uint64_t Combos,
    function_ref<bool(double V, const std::string &When)> Visit) {
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
    if (!Visit(Ev.eval(Idx), When()))
      return;
    for (size_t D = 0; D < Deps.size(); ++D) {
      if (++Cur[D] < Deps[D]->HiValue)
        break;
      Cur[D] = Deps[D]->LoValue;
    }
  }
}

bool SemaImpl::unrollFor(const Expr &Idx,
                         ArrayRef<const ReduceExpr *> Deps) {
  for (const ReduceExpr *R : Deps) {
    if (R->HiValue - R->LoValue > MaxUnrolled) {
      Diags.error(Idx.loc(),
                  "an array indexed by '" + R->IndexName +
                      "' makes its reduction unroll, and it has " +
                      Twine(R->HiValue - R->LoValue) +
                      " iterations; at most " + Twine(MaxUnrolled) +
                      " are allowed",
                  {Idx.Range});
      return false;
    }
    const_cast<ReduceExpr *>(R)->Unroll = true;
  }
  return true;
}

std::string IndexTarget::describe() const {
  if (!IsArray)
    return (Name + ", which has " + Twine(Size) + " dimension" +
            (Size == 1 ? "" : "s"))
        .str();
  return Name == "an array" ? ("an array of " + Twine(Size)).str()
                            : (Name + ", an array of " + Twine(Size)).str();
}

} // namespace vf
