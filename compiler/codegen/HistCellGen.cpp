//===- codegen/HistCellGen.cpp - A sample's histogram cell in IR ----------===//

#include "codegen/HistCellGen.h"
#include "frontend/AST.h"

using namespace llvm;

namespace vf {

/// vf_hist_edge (HistogramCells.h), step for step: no instruction is
/// marked contractible, so the backend fuses nothing.
static Value *emitHistEdge(IRBuilderBase &B, Value *Lo, Value *Hi, Value *I,
                           unsigned N) {
  Type *F64 = B.getDoubleTy();
  Value *Nf = ConstantFP::get(F64, double(N));
  Value *If = B.CreateUIToFP(I, F64);
  Value *Rest = B.CreateUIToFP(B.CreateSub(B.getInt64(N), I), F64);
  Value *E = B.CreateFDiv(
      B.CreateFAdd(B.CreateFMul(Lo, Rest), B.CreateFMul(Hi, If)), Nf);
  Value *Wide = B.CreateFAdd(
      Lo, B.CreateFMul(B.CreateFDiv(B.CreateFSub(Hi, Lo), Nf), If));
  Value *Finite =
      B.CreateFCmpOEQ(B.CreateFSub(E, E), ConstantFP::get(F64, 0.0));
  Value *Inside = B.CreateSelect(Finite, E, Wide);
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
    auto Edge = [&](Value *I) { return emitHistEdge(B, Lo, Hi, I, N); };
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

} // namespace vf
