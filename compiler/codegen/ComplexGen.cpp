//===- codegen/ComplexGen.cpp - Complex values in IR ----------------------===//
//
// Operation for operation as frontend/ComplexOps.h, which says why each
// formula is the one it is (Smith's division, the scaled abs).
//
//===----------------------------------------------------------------------===//

#include "codegen/ComplexGen.h"

using namespace llvm;

namespace vf {

namespace {

struct Parts {
  Value *Re, *Im;
  bool IsReal; // a real operand: Im is 0
};

// The parts' type is the operands': double, or float in single precision.

Parts parts(IRBuilderBase &B, Value *V) {
  if (!V->getType()->isVectorTy())
    return {V, ConstantFP::get(V->getType(), 0.0), true};
  return {B.CreateExtractElement(V, uint64_t(0)),
          B.CreateExtractElement(V, uint64_t(1)), false};
}

Value *pair(IRBuilderBase &B, Value *Re, Value *Im) {
  Value *V = PoisonValue::get(FixedVectorType::get(Re->getType(), 2));
  V = B.CreateInsertElement(V, Re, uint64_t(0));
  return B.CreateInsertElement(V, Im, uint64_t(1));
}

/// complexDivide: the larger part of the divisor (C, D) divided out first.
Value *divide(IRBuilderBase &B, Parts L, Parts R) {
  Value *AbsC = B.CreateUnaryIntrinsic(Intrinsic::fabs, R.Re);
  Value *AbsD = B.CreateUnaryIntrinsic(Intrinsic::fabs, R.Im);
  Value *CLarger = B.CreateFCmpOGE(AbsC, AbsD);
  // |C| >= |D|: R = D/C, Den = C + D R, ((a + b R), (b - a R)) / Den.
  Value *R1 = B.CreateFDiv(R.Im, R.Re);
  Value *Den1 = B.CreateFAdd(R.Re, B.CreateFMul(R.Im, R1));
  Value *Re1 = B.CreateFDiv(B.CreateFAdd(L.Re, B.CreateFMul(L.Im, R1)), Den1);
  Value *Im1 = B.CreateFDiv(B.CreateFSub(L.Im, B.CreateFMul(L.Re, R1)), Den1);
  // Otherwise: R = C/D, Den = C R + D, ((a R + b), (b R - a)) / Den.
  Value *R2 = B.CreateFDiv(R.Re, R.Im);
  Value *Den2 = B.CreateFAdd(B.CreateFMul(R.Re, R2), R.Im);
  Value *Re2 = B.CreateFDiv(B.CreateFAdd(B.CreateFMul(L.Re, R2), L.Im), Den2);
  Value *Im2 = B.CreateFDiv(B.CreateFSub(B.CreateFMul(L.Im, R2), L.Re), Den2);
  return pair(B, B.CreateSelect(CLarger, Re1, Re2),
              B.CreateSelect(CLarger, Im1, Im2));
}

/// complexAbs: M sqrt(1 + (N/M)^2), M and N the larger and smaller part.
Value *abs(IRBuilderBase &B, Parts Z, MathCallEmitter CallMath) {
  Value *A = B.CreateUnaryIntrinsic(Intrinsic::fabs, Z.Re);
  Value *Bb = B.CreateUnaryIntrinsic(Intrinsic::fabs, Z.Im);
  Value *ALarger = B.CreateFCmpOGE(A, Bb);
  Value *M = B.CreateSelect(ALarger, A, Bb);
  Value *N = B.CreateSelect(ALarger, Bb, A);
  Value *R = B.CreateFDiv(N, M);
  Type *T = Z.Re->getType();
  Value *One = ConstantFP::get(T, 1.0);
  Value *Scaled = B.CreateFMul(
      M, CallMath("vf_sqrt", {B.CreateFAdd(One, B.CreateFMul(R, R))}));
  Value *AsIs = B.CreateOr(B.CreateFCmpOEQ(M, ConstantFP::get(T, 0.0)),
                           B.CreateFCmpOEQ(M, ConstantFP::getInfinity(T)));
  return B.CreateSelect(AsIs, M, Scaled);
}

/// complexSqrt: T = sqrt(|re|/2 + |z|/2), then by re's sign.
Value *sqrt(IRBuilderBase &B, Parts Z, MathCallEmitter CallMath) {
  Type *Ty = Z.Re->getType();
  Value *Half = ConstantFP::get(Ty, 0.5), *Zero = ConstantFP::get(Ty, 0.0);
  Value *AbsRe = B.CreateUnaryIntrinsic(Intrinsic::fabs, Z.Re);
  Value *T = CallMath("vf_sqrt",
                      {B.CreateFAdd(B.CreateFMul(AbsRe, Half),
                                    B.CreateFMul(abs(B, Z, CallMath), Half))});
  Value *TwoT = B.CreateFMul(ConstantFP::get(Ty, 2.0), T);
  Value *Right = pair(B, T, B.CreateFDiv(Z.Im, TwoT));
  Value *Left =
      pair(B, B.CreateFDiv(B.CreateUnaryIntrinsic(Intrinsic::fabs, Z.Im), TwoT),
           B.CreateBinaryIntrinsic(Intrinsic::copysign, T, Z.Im));
  Value *General = B.CreateSelect(B.CreateFCmpOGE(Z.Re, Zero), Right, Left);
  return B.CreateSelect(B.CreateFCmpOEQ(T, Zero), pair(B, Zero, Z.Im), General);
}

} // namespace

Value *emitComplexPair(IRBuilderBase &B, Value *Re, Value *Im) {
  return pair(B, Re, Im);
}

Value *emitComplexPow(IRBuilderBase &B, Value *Z, long long N) {
  unsigned long long M = N < 0 ? 0ull - static_cast<unsigned long long>(N)
                               : static_cast<unsigned long long>(N);
  Type *T = Z->getType()->getScalarType();
  Value *R = pair(B, ConstantFP::get(T, 1.0), ConstantFP::get(T, 0.0));
  bool First = true;
  for (Value *Base = Z; M; M >>= 1) {
    if (M & 1) {
      R = First ? Base : emitComplexBinary(B, BinaryOp::Mul, R, Base);
      First = false;
    }
    if (M > 1)
      Base = emitComplexBinary(B, BinaryOp::Mul, Base, Base);
  }
  if (N >= 0)
    return R;
  return divide(B, parts(B, ConstantFP::get(T, 1.0)), parts(B, R));
}

Value *emitComplexBinary(IRBuilderBase &B, BinaryOp Op, Value *LV, Value *RV) {
  Parts L = parts(B, LV), R = parts(B, RV);
  switch (Op) {
  case BinaryOp::Add:
    return pair(B, B.CreateFAdd(L.Re, R.Re), B.CreateFAdd(L.Im, R.Im));
  case BinaryOp::Sub:
    return pair(B, B.CreateFSub(L.Re, R.Re), B.CreateFSub(L.Im, R.Im));
  case BinaryOp::Mul:
    if (L.IsReal)
      return pair(B, B.CreateFMul(L.Re, R.Re), B.CreateFMul(L.Re, R.Im));
    if (R.IsReal)
      return pair(B, B.CreateFMul(L.Re, R.Re), B.CreateFMul(L.Im, R.Re));
    return pair(
        B, B.CreateFSub(B.CreateFMul(L.Re, R.Re), B.CreateFMul(L.Im, R.Im)),
        B.CreateFAdd(B.CreateFMul(L.Re, R.Im), B.CreateFMul(L.Im, R.Re)));
  case BinaryOp::Div:
    if (R.IsReal)
      return pair(B, B.CreateFDiv(L.Re, R.Re), B.CreateFDiv(L.Im, R.Re));
    return divide(B, L, R);
  case BinaryOp::Eq:
    return B.CreateAnd(B.CreateFCmpOEQ(L.Re, R.Re),
                       B.CreateFCmpOEQ(L.Im, R.Im));
  case BinaryOp::Ne:
    return B.CreateOr(B.CreateFCmpUNE(L.Re, R.Re), B.CreateFCmpUNE(L.Im, R.Im));
  default: // Sema refuses the others
    return ConstantFP::getNaN(LV->getType());
  }
}

Value *emitComplexCall(IRBuilderBase &B, Builtin Fn, ArrayRef<Value *> Args,
                       MathCallEmitter CallMath) {
  if (Fn == Builtin::Complex)
    return pair(B, Args[0], Args[1]);
  Parts Z = parts(B, Args[0]);
  switch (Fn) {
  case Builtin::Re:
    return Z.Re;
  case Builtin::Im:
    return Z.Im;
  case Builtin::Conj:
    return pair(B, Z.Re, B.CreateFNeg(Z.Im));
  case Builtin::Norm:
    return B.CreateFAdd(B.CreateFMul(Z.Re, Z.Re), B.CreateFMul(Z.Im, Z.Im));
  case Builtin::Arg:
    return CallMath("vf_atan2", {Z.Im, Z.Re});
  case Builtin::Exp: {
    Value *E = CallMath("vf_exp", {Z.Re});
    return pair(B, B.CreateFMul(E, CallMath("vf_cos", {Z.Im})),
                B.CreateFMul(E, CallMath("vf_sin", {Z.Im})));
  }
  case Builtin::Sqrt:
    return sqrt(B, Z, CallMath);
  default: // abs
    return abs(B, Z, CallMath);
  }
}

} // namespace vf
