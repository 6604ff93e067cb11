//===- frontend/SemaChannels.cpp - Multi-channel integrands ---------------===//
//
// An integrand whose body is `channel` blocks (LANGUAGE.md v3, "Channels")
// is the sum of its channels over one domain. Each block is checked as a
// body of its own, with the integration variable in scope; what ties them
// together is checked here: at least two channels with distinct names,
// every channel returning the same number of components, every histogram
// filled in every channel with the same binning (each channel carries part
// of every bin), and `alpha(NAME)` / `density(NAME, u)` naming a channel.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include "llvm/ADT/StringMap.h"

using namespace llvm;

namespace vf {

namespace {

/// The components a checked result has (a number is one), or 0 when it
/// was not a value.
unsigned components(const Expr &R) {
  return R.Ty == ExprType::Array ? R.Size : R.Ty == ExprType::Real ? 1 : 0;
}

/// Whether two histogram bounds are the same for every run: equal
/// constants, or the same text (a parameter, say).
bool sameBound(const Expr &A, const Expr &B) {
  if (A.ConstValue || B.ConstValue)
    return A.ConstValue == B.ConstValue;
  auto Text = [](const Expr &E) {
    return StringRef(E.Range.Start.getPointer(),
                     E.Range.End.getPointer() - E.Range.Start.getPointer());
  };
  return Text(A) == Text(B);
}

bool sameBinning(const HistStmt &A, const HistStmt &B) {
  if (A.Axes != B.Axes)
    return false;
  for (unsigned K = 0; K < A.Axes; ++K)
    if (A.Bins[K] != B.Bins[K] || !sameBound(A.lo(K), B.lo(K)) ||
        !sameBound(A.hi(K), B.hi(K)))
      return false;
  return true;
}

} // namespace

void SemaImpl::checkChannelQuery(ChannelExpr &E, const SemaContext &Ctx) {
  E.Ty = ExprType::Real;
  if (E.Point) {
    checkExpr(*E.Point, Ctx);
    requireValue(*E.Point, "the point of 'density(NAME, u)'");
    if (E.Point->ComplexElems || E.Point->Ty == ExprType::Complex)
      Diags.error(E.Point->loc(),
                  "the point of 'density(NAME, u)' is real; this one is "
                  "complex",
                  {E.Point->Range});
  }
  const IntegrandDecl &D = *Ctx.Integrand;
  E.Count = unsigned(D.Channels.size());
  std::vector<StringRef> Names;
  for (unsigned K = 0; K < D.Channels.size(); ++K) {
    if (D.Channels[K]->Name == E.Channel) {
      E.Index = K;
      Names.clear();
      break;
    }
    Names.push_back(D.Channels[K]->Name);
  }
  if (!Names.empty()) {
    StringRef Best = closestName(E.Channel, Names);
    Diags.error(
        E.ChannelRange.Start,
        "unknown channel '" + E.Channel + "' in integrand '" + D.Name + "'" +
            (Best.empty() ? Twine("") : "; did you mean '" + Best + "'?"),
        E.ChannelRange);
  }
  if (!E.Point || E.Point->Ty == ExprType::Unknown)
    return;
  const unsigned Got = components(*E.Point);
  if (Got != D.Dim || (D.Dim > 1 && E.Point->Ty != ExprType::Array))
    Diags.error(E.Point->loc(),
                "'density(" + E.Channel +
                    ", u)' takes a point of the unit "
                    "cube with " +
                    Twine(D.Dim) +
                    " coordinates (the domain's dimension); this has " +
                    Twine(Got),
                E.Point->Range);
}

void SemaImpl::checkChannels(IntegrandDecl &D, const SemaContext &Ctx) {
  if (D.Channels.size() == 1)
    Diags.error(D.Channels[0]->NameRange.Start,
                "integrand '" + D.Name +
                    "' has a single channel; "
                    "channels share the samples among two or more (write the "
                    "body without 'channel' for one)",
                D.Channels[0]->NameRange);
  StringMap<const ChannelDecl *> Seen;
  const Expr *First = nullptr;
  for (const auto &C : D.Channels) {
    auto [It, New] = Seen.try_emplace(C->Name, C.get());
    if (!New) {
      Diags.error(C->NameRange.Start,
                  "redefinition of channel '" + C->Name + "'", C->NameRange);
      Diags.note(It->second->NameRange.Start, "previous definition is here",
                 It->second->NameRange);
    }
    Locals.clear();
    declareLocal({D.Var, D.VarRange, BindingKind::DomainVar});
    const std::string What = "channel '" + C->Name + "'";
    checkBody(C->B, Ctx, [&](Expr &R) {
      // Without `-> [n]`, the first channel sets the count the others
      // must match: a mismatch is between channels, not with a declaration.
      const unsigned Got = components(R);
      if (D.OutputsExpr || !First || !Got || !components(*First)) {
        checkResult(R, D.Outputs, /*OneIsScalar=*/true, What);
        First = First ? First : &R;
        return;
      }
      if (Got == components(*First))
        return;
      Diags.error(R.loc(),
                  What + " returns " + Twine(Got) +
                      (Got == 1 ? " value" : " values") + " but channel '" +
                      D.Channels[0]->Name + "' returns " +
                      Twine(components(*First)) +
                      "; every channel returns the integrand's components",
                  {R.Range});
      Diags.note(First->loc(), "the first channel's result is here",
                 {First->Range});
    });
  }
  Locals.clear();
}

void SemaImpl::checkChannelHistograms(IntegrandDecl &D) {
  for (size_t K = 1; K < D.Channels.size(); ++K) {
    const ChannelDecl &C = *D.Channels[K];
    for (const HistStmt *H : D.Histograms) {
      auto Same = llvm::find_if(
          C.B.Hists, [&](const auto &Other) { return Other->Name == H->Name; });
      if (Same == C.B.Hists.end()) {
        Diags.error(C.NameRange.Start,
                    "histogram '" + H->Name + "' is not filled in channel '" +
                        C.Name +
                        "'; a histogram must be filled in every channel, "
                        "since each carries part of every bin",
                    C.NameRange);
        Diags.note(H->NameRange.Start,
                   "filled in channel '" + D.Channels[0]->Name + "' here",
                   H->NameRange);
        continue;
      }
      if ((*Same)->Axes && !sameBinning(*H, **Same)) {
        Diags.error((*Same)->Range.Start,
                    "histogram '" + H->Name +
                        "' has another binning in "
                        "channel '" +
                        C.Name + "' than in channel '" + D.Channels[0]->Name +
                        "'; every channel fills the same bins",
                    (*Same)->Range);
        Diags.note(H->Range.Start, "the first channel's is here", H->Range);
      }
      (*Same)->Base = H->Base;
    }
    for (const auto &H : C.B.Hists)
      if (llvm::none_of(D.Histograms, [&](const HistStmt *First) {
            return First->Name == H->Name;
          }))
        Diags.error(H->NameRange.Start,
                    "histogram '" + H->Name + "' is filled in channel '" +
                        C.Name + "' but not in channel '" +
                        D.Channels[0]->Name +
                        "'; a histogram must be filled in every channel",
                    H->NameRange);
  }
}

} // namespace vf
