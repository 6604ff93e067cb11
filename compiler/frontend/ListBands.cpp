//===- frontend/ListBands.cpp - Which set a weight list runs over ---------===//
//
// A weight list gets a PDF set's error band when its index is the member
// argument of that set's xfx or alphas (docs/language.md, "Weight
// lists"): in the entry itself, or through fn calls that pass the index
// on as an argument (`fn proton(x, mu, k) -> [11] = [xfx(p, -5, x, mu, k),
// ...]`). Decided once every item is checked, since a fn may be defined
// after the integrand that calls it; recursion is refused before this.
//
//===----------------------------------------------------------------------===//

#include "frontend/PdfUse.h"
#include "frontend/SemaInternal.h"

#include <functional>

using namespace llvm;

namespace vf {

namespace {

/// The pdfs whose member argument is a tracked name, directly or through
/// the fns it is passed to.
class MemberIndexFinder : public ExprVisitor<MemberIndexFinder> {
public:
  using Tracked = std::function<bool(const NameExpr &)>;
  MemberIndexFinder(Tracked Is, std::vector<const PdfDecl *> &Found)
      : Is(std::move(Is)), Found(Found) {}

  void body(const Body &B) {
    for (const auto &L : B.Lets)
      visit(*L->Value);
    visit(*B.Result);
  }

  void visitNumber(const NumberExpr &) {}
  void visitName(const NameExpr &) {}
  void visitIndex(const IndexExpr &E) { all({E.Base.get(), E.Idx.get()}); }
  void visitUnary(const UnaryExpr &E) { visit(*E.Operand); }
  void visitBinary(const BinaryExpr &E) { all({E.LHS.get(), E.RHS.get()}); }
  void visitIf(const IfExpr &E) {
    all({E.Cond.get(), E.Then.get(), E.Else.get()});
  }
  void visitReduce(const ReduceExpr &E) { visit(*E.Body); }
  void visitVector(const VectorExpr &E) {
    for (const ExprPtr &X : E.Elements)
      visit(*X);
  }
  void visitSlice(const SliceExpr &E) { visit(*E.Base); }
  void visitChannel(const ChannelExpr &E) {
    if (E.Point)
      visit(*E.Point);
  }
  void visitCall(const CallExpr &E) {
    for (const ExprPtr &A : E.Args)
      visit(*A);
    if (E.Pdf && E.MemberArg && isTracked(*E.MemberArg))
      Found.push_back(E.Pdf);
    if (!E.Fn || E.Fn->Extern)
      return;
    for (unsigned I = 0; I < E.Args.size(); ++I)
      if (isTracked(*E.Args[I]))
        MemberIndexFinder(
            [I](const NameExpr &N) {
              return N.Binding == BindingKind::FnArg && N.ArgIndex == I;
            },
            Found)
            .body(E.Fn->B);
  }

private:
  bool isTracked(const Expr &E) const {
    const auto *N = dynCast<NameExpr>(&E);
    return N && Is(*N);
  }
  void all(std::initializer_list<const Expr *> Es) {
    for (const Expr *E : Es)
      if (E)
        visit(*E);
  }

  Tracked Is;
  std::vector<const PdfDecl *> &Found;
};

} // namespace

void SemaImpl::findListBands() {
  for (auto &M : P.Modules)
    for (auto &I : M->Items) {
      if (I->Kind != ItemKind::Integrand)
        continue;
      for (auto &Own : static_cast<IntegrandDecl &>(*I).B.Weights) {
        WeightsStmt *W = Own.get();
        if (!W->Length)
          continue;
        std::vector<const PdfDecl *> Found;
        const ReduceExpr *L = W->List.get();
        MemberIndexFinder(
            [L](const NameExpr &N) {
              return N.Binding == BindingKind::ReduceIndex && N.Reduce == L;
            },
            Found)
            .visit(*L->Body);
        for (const PdfDecl *D : Found) {
          W->BandMixed |= W->BandPdf && W->BandPdf->Use != D->Use;
          W->BandPdf = D;
        }
        if (pdf::ErrorMembers E = listBand(*W); !E.Why.empty())
          Diags.warning(W->NameRange.Start,
                        "weight list '" + W->Name +
                            "' reports the envelope of its entries, not a "
                            "PDF band: " +
                            E.Why,
                        W->NameRange);
      }
    }
}

} // namespace vf
