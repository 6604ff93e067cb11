//===- codegen/HistCellGen.cpp - A sample's histogram cell in IR ----------===//

#include "codegen/HistCellGen.h"
#include "frontend/AST.h"

#include "llvm/IR/Intrinsics.h"

#include <vector>

using namespace llvm;

namespace vf {

/// vf_hist_decimal_scale (HistogramCells.h): computed here for constant
/// ends (what the IR would fold to), else step for step, the loop over the
/// powers of ten unrolled into selects from the largest down, so that the
/// smallest that works is the one left.
static Value *emitHistScale(IRBuilderBase &B, Value *Lo, Value *Hi,
                            unsigned N) {
  auto *CLo = dyn_cast<ConstantFP>(Lo), *CHi = dyn_cast<ConstantFP>(Hi);
  Type *F64 = B.getDoubleTy();
  if (CLo && CHi)
    return ConstantFP::get(
        F64, vf_hist_decimal_scale(CLo->getValueAPF().convertToDouble(),
                                   CHi->getValueAPF().convertToDouble(), N));
  const double Limit = 0x1p53 / double(N);
  std::vector<double> Powers;
  double P = 1.0;
  for (int K = 0; K <= 15; ++K, P *= 10.0)
    if (double(N) * P < 0x1p53)
      Powers.push_back(P);
  auto Rint = [&](Value *V) {
    return B.CreateUnaryIntrinsic(Intrinsic::rint, V);
  };
  auto Fabs = [&](Value *V) {
    return B.CreateUnaryIntrinsic(Intrinsic::fabs, V);
  };
  auto Fp = [&](double D) { return ConstantFP::get(F64, D); };
  Value *Scale = Fp(0.0);
  for (auto It = Powers.rbegin(); It != Powers.rend(); ++It) {
    Value *L = Rint(B.CreateFMul(Lo, Fp(*It)));
    Value *H = Rint(B.CreateFMul(Hi, Fp(*It)));
    Value *Ok =
        B.CreateAnd(B.CreateAnd(B.CreateFCmpOEQ(B.CreateFDiv(L, Fp(*It)), Lo),
                                B.CreateFCmpOEQ(B.CreateFDiv(H, Fp(*It)), Hi)),
                    B.CreateAnd(B.CreateFCmpOLT(Fabs(L), Fp(Limit)),
                                B.CreateFCmpOLT(Fabs(H), Fp(Limit))));
    Scale = B.CreateSelect(Ok, Fp(*It), Scale);
  }
  return Scale;
}

/// vf_hist_edge_at (HistogramCells.h), step for step, with the scale \p P of
/// emitHistScale: no instruction is marked contractible, so the backend
/// fuses nothing.
static Value *emitHistEdge(IRBuilderBase &B, Value *Lo, Value *Hi, Value *I,
                           unsigned N, Value *P) {
  Type *F64 = B.getDoubleTy();
  Value *Nf = ConstantFP::get(F64, double(N));
  Value *If = B.CreateUIToFP(I, F64);
  Value *Rest = B.CreateUIToFP(B.CreateSub(B.getInt64(N), I), F64);
  auto Rint = [&](Value *V) {
    return B.CreateUnaryIntrinsic(Intrinsic::rint, V);
  };
  Value *Decimal =
      B.CreateFDiv(B.CreateFAdd(B.CreateFMul(Rint(B.CreateFMul(Lo, P)), Rest),
                                B.CreateFMul(Rint(B.CreateFMul(Hi, P)), If)),
                   B.CreateFMul(Nf, P));
  Value *E = B.CreateFDiv(
      B.CreateFAdd(B.CreateFMul(Lo, Rest), B.CreateFMul(Hi, If)), Nf);
  Value *Wide = B.CreateFAdd(
      Lo, B.CreateFMul(B.CreateFDiv(B.CreateFSub(Hi, Lo), Nf), If));
  Value *Finite =
      B.CreateFCmpOEQ(B.CreateFSub(E, E), ConstantFP::get(F64, 0.0));
  Value *Plain = B.CreateSelect(Finite, E, Wide);
  Value *Inside = B.CreateSelect(B.CreateFCmpUNE(P, ConstantFP::get(F64, 0.0)),
                                 Decimal, Plain);
  Value *AtEnd = B.CreateSelect(B.CreateICmpUGE(I, B.getInt64(N)), Hi, Inside);
  return B.CreateSelect(B.CreateICmpEQ(I, B.getInt64(0)), Lo, AtEnd);
}

Value *emitHistCell(IRBuilderBase &B, const HistStmt &H,
                    function_ref<Value *(const Expr &)> Visit) {
  Type *F64 = B.getDoubleTy(), *I64 = B.getInt64Ty();
  auto fp = [&](double D) { return ConstantFP::get(F64, D); };
  Value *In = B.getTrue(), *Flat = B.getInt64(0);
  Value *Below = B.getFalse();
  for (unsigned A = 0; A < H.Axes; ++A) {
    Value *V = Visit(H.value(A)), *Lo = Visit(H.lo(A)), *Hi = Visit(H.hi(A));
    const unsigned N = H.Bins[A];
    Value *T = B.CreateFMul(
        B.CreateFDiv(B.CreateFSub(V, Lo), B.CreateFSub(Hi, Lo)), fp(double(N)));
    // In range, T is in [0, N]; out of range the select discards it.
    Value *Safe =
        B.CreateSelect(B.CreateFCmpOLT(T, fp(double(N))), T, fp(double(N - 1)));
    Value *Bin = B.CreateFPToUI(
        B.CreateSelect(B.CreateFCmpOGE(Safe, fp(0.0)), Safe, fp(0.0)), I64);
    Bin = B.CreateSelect(B.CreateICmpULT(Bin, B.getInt64(N)), Bin,
                         B.getInt64(N - 1));
    // Rounding can put a value on a bin edge into the bin below or above
    // it: one step toward the bin whose reported edges hold it.
    Value *Scale = emitHistScale(B, Lo, Hi, N);
    auto Edge = [&](Value *I) { return emitHistEdge(B, Lo, Hi, I, N, Scale); };
    Value *Next = B.CreateAdd(Bin, B.getInt64(1));
    Bin = B.CreateSelect(B.CreateAnd(B.CreateICmpULT(Next, B.getInt64(N)),
                                     B.CreateFCmpOGE(V, Edge(Next))),
                         Next, Bin);
    Bin = B.CreateSelect(B.CreateAnd(B.CreateICmpUGT(Bin, B.getInt64(0)),
                                     B.CreateFCmpOLT(V, Edge(Bin))),
                         B.CreateSub(Bin, B.getInt64(1)), Bin);
    In = B.CreateAnd(
        In, B.CreateAnd(B.CreateFCmpOGE(V, Lo), B.CreateFCmpOLT(V, Hi)));
    Below = B.CreateFCmpOLT(V, Lo);
    Flat = B.CreateAdd(B.CreateMul(Flat, B.getInt64(N)), Bin);
  }
  // The layout of HistogramCells.h.
  auto Outside = [&](bool IsBelow) {
    return B.getInt64(vf_hist_outside_cell(H.Axes, H.Bins[0], IsBelow));
  };
  Value *Out = H.Axes == 1
                   ? B.CreateSelect(Below, Outside(true), Outside(false))
                   : Outside(false);
  Value *Cell = B.CreateSelect(
      In, B.CreateAdd(Flat, B.getInt64(vf_hist_bin_cell(0))), Out);
  return B.CreateAdd(Cell, B.getInt64(H.Base));
}

const HistStmt &histFilling(const Body &Bd, const HistStmt &H) {
  for (const auto &Own : Bd.Hists)
    if (Own->Name == H.Name)
      return *Own;
  return H;
}

} // namespace vf
