//===- codegen/InfiniteMapGen.cpp - An infinite axis's map in IR ----------===//

#include "codegen/InfiniteMapGen.h"

#include <cmath>

using namespace llvm;

namespace vf {

Value *emitInfiniteMap(IRBuilderBase &B, InfiniteMap K, Value *A, Value *S,
                       Value *T, Value *&Jac, Value *&AtEnd) {
  // In the coordinate's precision: double, or float in single precision.
  auto fp = [&](double V) { return ConstantFP::get(T->getType(), V); };
  Value *U = B.CreateFSub(fp(1.0), T);
  Value *Xm = nullptr;
  switch (K) {
  case InfiniteMap::Upper:
    Xm = B.CreateFAdd(A, B.CreateFMul(S, B.CreateFDiv(T, U)));
    Jac = B.CreateFMul(Jac, B.CreateFDiv(S, B.CreateFMul(U, U)));
    break;
  case InfiniteMap::Lower:
    Xm = B.CreateFSub(A, B.CreateFMul(S, B.CreateFDiv(U, T)));
    Jac = B.CreateFMul(Jac, B.CreateFDiv(S, B.CreateFMul(T, T)));
    break;
  case InfiniteMap::Both:
    Xm = B.CreateFMul(S, B.CreateFSub(B.CreateFDiv(T, U), B.CreateFDiv(U, T)));
    Jac = B.CreateFMul(
        Jac, B.CreateFMul(S, B.CreateFAdd(
                                 B.CreateFDiv(fp(1.0), B.CreateFMul(U, U)),
                                 B.CreateFDiv(fp(1.0), B.CreateFMul(T, T)))));
    break;
  }
  Xm = B.CreateSelect(B.CreateFCmpOGT(S, fp(0.0)), Xm, fp(NAN));
  if (K != InfiniteMap::Upper) {
    Value *Low = B.CreateFCmpOLE(T, fp(MapEndWidth));
    Xm = B.CreateSelect(Low, fp(-INFINITY), Xm);
    AtEnd = B.CreateOr(AtEnd, Low);
  }
  if (K != InfiniteMap::Lower) {
    Value *High = B.CreateFCmpOLE(U, fp(MapEndWidth));
    Xm = B.CreateSelect(High, fp(INFINITY), Xm);
    AtEnd = B.CreateOr(AtEnd, High);
  }
  return Xm;
}

Value *emitMappedWeight(IRBuilderBase &B, Value *F, Value *Jac, Value *AtEnd) {
  auto fp = [&](double V) { return ConstantFP::get(F->getType(), V); };
  Value *AtEndW = B.CreateSelect(B.CreateFCmpUNO(F, F), fp(0.0),
                                 B.CreateFMul(F, fp(INFINITY)));
  Value *W = B.CreateSelect(AtEnd, AtEndW, B.CreateFMul(F, Jac));
  return B.CreateSelect(B.CreateFCmpOEQ(F, fp(0.0)), fp(0.0), W);
}

} // namespace vf
