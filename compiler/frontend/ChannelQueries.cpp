//===- frontend/ChannelQueries.cpp - alpha() and density() in use ---------===//

#include "frontend/ChannelQueries.h"

namespace vf {

namespace {

/// The first query of one kind in an expression, operands left to right.
class QueryFinder : public ExprVisitor<QueryFinder, const ChannelExpr *> {
public:
  explicit QueryFinder(ChannelQuery Q) : Q(Q) {}

  const ChannelExpr *find(const Expr *E) { return E ? visit(*E) : nullptr; }

  const ChannelExpr *visitNumber(const NumberExpr &) { return nullptr; }
  const ChannelExpr *visitName(const NameExpr &) { return nullptr; }
  const ChannelExpr *visitIndex(const IndexExpr &E) {
    return first({E.Base.get(), E.Idx.get()});
  }
  const ChannelExpr *visitUnary(const UnaryExpr &E) {
    return find(E.Operand.get());
  }
  const ChannelExpr *visitBinary(const BinaryExpr &E) {
    return first({E.LHS.get(), E.RHS.get()});
  }
  const ChannelExpr *visitCall(const CallExpr &E) { return all(E.Args); }
  const ChannelExpr *visitIf(const IfExpr &E) {
    return first({E.Cond.get(), E.Then.get(), E.Else.get()});
  }
  const ChannelExpr *visitReduce(const ReduceExpr &E) {
    return first({E.Lo.get(), E.Hi.get(), E.Body.get()});
  }
  const ChannelExpr *visitVector(const VectorExpr &E) {
    return all(E.Elements);
  }
  const ChannelExpr *visitSlice(const SliceExpr &E) {
    return first({E.Base.get(), E.Lo.get(), E.Hi.get()});
  }
  const ChannelExpr *visitChannel(const ChannelExpr &E) {
    return E.Query == Q ? &E : find(E.Point.get());
  }

  const ChannelExpr *all(const std::vector<ExprPtr> &Es) {
    for (const ExprPtr &E : Es)
      if (const ChannelExpr *Found = find(E.get()))
        return Found;
    return nullptr;
  }

private:
  const ChannelExpr *first(std::initializer_list<const Expr *> Es) {
    for (const Expr *E : Es)
      if (const ChannelExpr *Found = find(E))
        return Found;
    return nullptr;
  }

  ChannelQuery Q;
};

} // namespace

const ChannelExpr *firstChannelQuery(const IntegrandDecl &I, ChannelQuery Q) {
  QueryFinder F(Q);
  for (const auto &C : I.Channels) {
    for (const auto &L : C->B.Lets)
      if (const ChannelExpr *Found = F.find(L->Value.get()))
        return Found;
    for (const auto &H : C->B.Hists)
      if (const ChannelExpr *Found = F.all(H->Args))
        return Found;
    if (const ChannelExpr *Found = F.find(C->B.Result.get()))
      return Found;
  }
  return nullptr;
}

} // namespace vf
