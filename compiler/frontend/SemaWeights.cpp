//===- frontend/SemaWeights.cpp - Weight list statements ------------------===//
//
// `weights NAME(k in lo..hi: expr)` (LANGUAGE.md v3, "Weight lists"): the
// range is a compile-time integer range (it sizes the run's accumulators),
// each entry a real value of the sample. Lists belong to a scalar
// integrand without channels: a vector integrand's components already
// carry their covariance and keep their own limit, and a multi-channel
// integrand would need each channel's list weighted by its alpha, which
// is not done yet (an error, never a silently wrong list).
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

using namespace llvm;

namespace vf {

/// Whether a list may appear in \p Ctx's body, after reporting why not.
static bool listAllowedIn(const SemaContext &Ctx, const WeightsStmt &W,
                          DiagEngine &Diags) {
  const IntegrandDecl *I = Ctx.Integrand;
  if (!I) {
    Diags.error(W.Range.Start,
                "'weights' may only appear in the body of an integrand",
                W.Range);
    return false;
  }
  if (!I->Channels.empty()) {
    Diags.error(W.Range.Start,
                "weight lists in an integrand with channels are not "
                "supported yet; declare the variations in an integrand "
                "without 'channel' blocks",
                W.Range);
    return false;
  }
  if (I->OutputsExpr) {
    Diags.error(W.Range.Start,
                "weight lists belong to scalar integrands; integrand '" +
                    I->Name +
                    "' has components (-> [n]), which keep their own limit "
                    "and covariance: make each variation a component, or "
                    "drop '-> [n]'",
                W.Range);
    return false;
  }
  return true;
}

void SemaImpl::checkWeights(WeightsStmt &W, const SemaContext &Ctx) {
  if (!listAllowedIn(Ctx, W, Diags))
    return;
  ReduceExpr &L = *W.List;
  L.Ty = ExprType::Real;
  std::optional<long long> Lo =
      constantInteger(*L.Lo, Ctx, "a weight list's range");
  std::optional<long long> Hi =
      constantInteger(*L.Hi, Ctx, "a weight list's range");
  const SMRange Range(L.Lo->Range.Start, L.Hi->Range.End);
  bool RangeOk = Lo && Hi;
  if (RangeOk && *Hi <= *Lo) {
    Diags.error(L.Lo->loc(),
                "weight list '" + W.Name + "' is empty: the range " +
                    Twine(*Lo) + ".." + Twine(*Hi) +
                    " has no entries (it is half-open, lo..hi gives hi - lo)",
                Range);
    RangeOk = false;
  } else if (RangeOk && *Hi - *Lo > MaxWeightEntries) {
    Diags.error(L.Lo->loc(),
                "weight list '" + W.Name + "' has " + Twine(*Hi - *Lo) +
                    " entries; at most " + Twine(MaxWeightEntries) +
                    " over all the lists of an integrand",
                Range);
    RangeOk = false;
  }
  L.LoValue = RangeOk ? *Lo : 0;
  L.HiValue = RangeOk ? *Hi : 0;
  LocalSym Sym{L.IndexName, L.IndexRange, BindingKind::ReduceIndex};
  Sym.Reduce = &L;
  const bool Declared = declareLocal(Sym);
  const unsigned Before = Diags.errorCount();
  checkExpr(*L.Body, Ctx);
  requireReal(*L.Body, "an entry of a weight list");
  if (Declared)
    Locals.pop();
  if (RangeOk && Diags.errorCount() == Before)
    W.Length = unsigned(*Hi - *Lo);
}

void SemaImpl::layOutWeights(IntegrandDecl &D) {
  D.WeightLists.clear();
  unsigned Entries = 0;
  for (const auto &W : D.B.Weights) {
    bool Duplicate = false;
    for (const WeightsStmt *Prev : D.WeightLists)
      if (Prev->Name == W->Name) {
        Diags.error(W->NameRange.Start,
                    "redefinition of weight list '" + W->Name + "'",
                    W->NameRange);
        Diags.note(Prev->NameRange.Start, "previous definition is here",
                   Prev->NameRange);
        Duplicate = true;
      }
    if (!W->Length || Duplicate)
      continue;
    if (Entries + W->Length > MaxWeightEntries) {
      Diags.error(W->Range.Start,
                  "the weight lists of integrand '" + D.Name + "' have " +
                      Twine(Entries + W->Length) + " entries so far; at most " +
                      Twine(MaxWeightEntries) + " over all its lists",
                  W->Range);
      return;
    }
    W->Base = Entries;
    Entries += W->Length;
    D.WeightLists.push_back(W.get());
  }
  D.WeightEntries = Entries;
}

} // namespace vf
