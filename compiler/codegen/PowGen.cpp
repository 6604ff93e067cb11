//===- codegen/PowGen.cpp - x^c for a constant c in IR --------------------===//

#include "codegen/PowGen.h"

#include <cmath>

using namespace llvm;

namespace vf {

/// sqrt with pow(x, 0.5)'s special cases: pow(-0, 0.5) = +0 (sqrt gives
/// -0) and pow(-inf, 0.5) = +inf (sqrt gives NaN).
static Value *powHalf(IRBuilderBase &B, Value *Base, MathCallEmitter CallMath) {
  Type *T = Base->getType(); // double, or float in single precision
  Value *R = B.CreateFAdd(CallMath("vf_sqrt", {Base}), ConstantFP::get(T, 0.0));
  Value *MinusInf = B.CreateFCmpOEQ(Base, ConstantFP::get(T, -INFINITY));
  return B.CreateSelect(MinusInf, ConstantFP::get(T, INFINITY), R);
}

/// Strength-reduced where it stays within pow's 2-ulp bound: |c| <= 4 as
/// multiplications (x^4 = (x^2)^2 rounds three times, at most 1.5 ulp; a
/// longer chain drifts further, up to 36 ulp at x^64), c = +-0.5 as a
/// square root.
Value *emitPowConst(IRBuilderBase &B, Value *Base, double C,
                    MathCallEmitter CallMath) {
  Type *T = Base->getType(); // double, or float in single precision
  Value *One = ConstantFP::get(T, 1.0);
  if (C == 0)
    return One;
  if (C == 0.5)
    return powHalf(B, Base, CallMath);
  if (C == -0.5)
    return B.CreateFDiv(One, powHalf(B, Base, CallMath));
  if (C == std::floor(C) && std::fabs(C) <= 4) {
    long long N = static_cast<long long>(std::fabs(C));
    Value *R = nullptr, *P = Base;
    // Binary exponentiation: x^3 = x^2 * x.
    while (N) {
      if (N & 1)
        R = R ? B.CreateFMul(R, P) : P;
      N >>= 1;
      if (N)
        P = B.CreateFMul(P, P);
    }
    return C < 0 ? B.CreateFDiv(One, R) : R;
  }
  return CallMath("vf_pow", {Base, ConstantFP::get(T, C)});
}

} // namespace vf
