//===- frontend/SemaHist.cpp - Histogram statements -----------------------===//
//
// `hist NAME(value, lo, hi, bins)` and its 2-D form. The values may be any
// real expression of the sample; the ranges are fixed for a run (constants
// or parameters, so every tile bins alike and a bin is one integral), and
// the bin counts are compile-time integers (they size the kernel's
// accumulators).
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include <cmath>

using namespace llvm;

namespace vf {

namespace {

/// The first part of \p E that depends on the sample (the variable, a let
/// that does not fold, a user fn's argument), or null.
const Expr *sampleDependence(const Expr &E) {
  if (E.ConstValue)
    return nullptr;
  auto First = [](std::initializer_list<const Expr *> Kids) -> const Expr * {
    for (const Expr *K : Kids)
      if (const Expr *D = K ? sampleDependence(*K) : nullptr)
        return D;
    return nullptr;
  };
  switch (E.Kind) {
  case ExprKind::Number:
    return nullptr;
  case ExprKind::Name: {
    BindingKind B = static_cast<const NameExpr &>(E).Binding;
    return B == BindingKind::Let || B == BindingKind::DomainVar ||
                   B == BindingKind::FnArg
               ? &E
               : nullptr;
  }
  case ExprKind::Index: {
    const auto &I = static_cast<const IndexExpr &>(E);
    const auto *Base = dynCast<NameExpr>(I.Base.get());
    if (Base && Base->Binding == BindingKind::DomainVar)
      return &E; // a coordinate: point at all of x[i]
    return First({I.Base.get(), I.Idx.get()});
  }
  case ExprKind::Slice: {
    const auto &S = static_cast<const SliceExpr &>(E);
    return First({S.Base.get(), S.Lo.get(), S.Hi.get()});
  }
  case ExprKind::Unary:
    return sampleDependence(*static_cast<const UnaryExpr &>(E).Operand);
  case ExprKind::Binary: {
    const auto &B = static_cast<const BinaryExpr &>(E);
    return First({B.LHS.get(), B.RHS.get()});
  }
  case ExprKind::If: {
    const auto &I = static_cast<const IfExpr &>(E);
    return First({I.Cond.get(), I.Then.get(), I.Else.get()});
  }
  case ExprKind::Reduce: {
    const auto &R = static_cast<const ReduceExpr &>(E);
    return First({R.Lo.get(), R.Hi.get(), R.Body.get()});
  }
  case ExprKind::Call:
    for (const ExprPtr &A : static_cast<const CallExpr &>(E).Args)
      if (const Expr *D = sampleDependence(*A))
        return D;
    return nullptr;
  case ExprKind::Vector:
    for (const ExprPtr &A : static_cast<const VectorExpr &>(E).Elements)
      if (const Expr *D = sampleDependence(*A))
        return D;
    return nullptr;
  case ExprKind::Channel: // alpha moves between iterations
    return &E;
  }
  return nullptr;
}

} // namespace

void SemaImpl::checkHist(HistStmt &H, const SemaContext &Ctx) {
  if (!Ctx.Integrand) {
    Diags.error(H.Range.Start,
                "'hist' may only appear in the body of an integrand", H.Range);
    return;
  }
  if (H.Args.size() != 4 && H.Args.size() != 8) {
    Diags.error(H.Range.Start,
                "histogram '" + H.Name + "' has " + Twine(H.Args.size()) +
                    " arguments; write 'hist " + H.Name +
                    "(value, lo, hi, bins)' or, in two dimensions, 'hist " +
                    H.Name + "(vx, lo, hi, bins, vy, lo2, hi2, bins2)'",
                H.Range);
    return;
  }
  unsigned Before = Diags.errorCount();
  unsigned Axes = unsigned(H.Args.size() / 4);
  for (unsigned A = 0; A < Axes; ++A) {
    Expr &Value = *H.Args[4 * A];
    checkExpr(Value, Ctx);
    requireReal(Value, "the value of a histogram");
    for (unsigned K = 1; K <= 2; ++K) {
      Expr &Bound = *H.Args[4 * A + K];
      checkExpr(Bound, Ctx);
      requireReal(Bound, "a histogram's range");
      if (const Expr *D = sampleDependence(Bound))
        Diags.error(D->loc(),
                    "the range of histogram '" + H.Name +
                        "' must be made of constants and parameters; this "
                        "depends on the sample",
                    {D->Range});
    }
    std::optional<long long> N =
        constantInteger(*H.Args[4 * A + 3], Ctx, "the number of bins");
    if (N && (*N < 1 || *N > MaxHistBins)) {
      Diags.error(H.Args[4 * A + 3]->loc(),
                  "the number of bins must be between 1 and " +
                      Twine(MaxHistBins) + ", but it is " + Twine(*N),
                  H.Args[4 * A + 3]->Range);
      N = std::nullopt;
    }
    H.Bins[A] = N ? unsigned(*N) : 0;
    const Expr &Lo = H.lo(A), &Hi = H.hi(A);
    if (Lo.ConstValue && Hi.ConstValue && !(*Hi.ConstValue > *Lo.ConstValue))
      Diags.error(Lo.loc(),
                  "empty histogram range: the upper bound must be greater "
                  "than the lower bound",
                  {SMRange(Lo.Range.Start, Hi.Range.End)});
    // The bins are computed from hi - lo: a width beyond the largest
    // double would put every value in bin 0.
    else if (Lo.ConstValue && Hi.ConstValue &&
             !std::isfinite(*Hi.ConstValue - *Lo.ConstValue))
      Diags.error(Lo.loc(),
                  "the histogram range is wider than the largest double "
                  "(hi - lo overflows); narrow it",
                  {SMRange(Lo.Range.Start, Hi.Range.End)});
  }
  if (Diags.errorCount() == Before)
    H.Axes = Axes;
}

void SemaImpl::layOutHistograms(IntegrandDecl &D) {
  D.Histograms.clear();
  uint64_t Cells = 0;
  // A multi-channel integrand's histograms are its first channel's; the
  // others share their cells (checkChannelHistograms).
  const Body &B = D.Channels.empty() ? D.B : D.Channels.front()->B;
  for (const auto &H : B.Hists) {
    bool Duplicate = false;
    for (const HistStmt *Prev : D.Histograms)
      if (Prev->Name == H->Name) {
        Diags.error(H->NameRange.Start,
                    "redefinition of histogram '" + H->Name + "'",
                    H->NameRange);
        Diags.note(Prev->NameRange.Start, "previous definition is here",
                   Prev->NameRange);
        Duplicate = true;
      }
    if (D.Histograms.size() == MaxHistograms) {
      Diags.error(H->Range.Start,
                  "integrand '" + D.Name + "' has more than " +
                      Twine(MaxHistograms) + " histograms",
                  H->Range);
      return;
    }
    if (!H->Axes || Duplicate)
      continue;
    H->Base = unsigned(Cells);
    Cells += H->cells();
    if (Cells > MaxHistCells) {
      Diags.error(H->Range.Start,
                  "the histograms of integrand '" + D.Name + "' have " +
                      Twine(Cells) + " cells so far; at most " +
                      Twine(MaxHistCells) +
                      " (bins with their under/overflow) are supported",
                  H->Range);
      return;
    }
    D.Histograms.push_back(H.get());
  }
  D.HistCells = unsigned(Cells);
}

} // namespace vf
