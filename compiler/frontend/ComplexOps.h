//===- frontend/ComplexOps.h - Complex arithmetic ---------------*- C++ -*-===//
//
// The meaning of `.vf`'s complex operations (LANGUAGE.md v3, "Complex
// values") on pairs of doubles, as the reference evaluator computes them.
// codegen/ComplexGen.cpp emits the same operations in the same order, so
// that the compiled code and the evaluator agree bit for bit; change both
// together.
//
// A real operand of `*` or `/` scales both parts (as C99 Annex G does, so
// that 2 * (inf, 0) is not (inf, nan)); of `+` or `-` it is the pair (a, 0).
// Division by a complex value is Smith's (R. L. Smith, "Algorithm 116:
// Complex division", CACM 5(8):435, 1962): the larger part of the divisor
// is divided out first, so no intermediate overflows for operands near
// 1e300 where the textbook formula's c^2 + d^2 would.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_COMPLEXOPS_H
#define VF_COMPILER_FRONTEND_COMPLEXOPS_H

#include "frontend/AST.h"

#include <cmath>

namespace vf {

struct ComplexValue {
  double Re = 0, Im = 0;
};

/// (A.Re + i A.Im) / (C + i D) by Smith's method.
inline ComplexValue complexDivide(ComplexValue A, double C, double D) {
  if (std::fabs(C) >= std::fabs(D)) {
    double R = D / C, Den = C + D * R;
    return {(A.Re + A.Im * R) / Den, (A.Im - A.Re * R) / Den};
  }
  double R = C / D, Den = C * R + D;
  return {(A.Re * R + A.Im) / Den, (A.Im * R - A.Re) / Den};
}

/// |z| without overflow or underflow of the squares: the larger part M
/// times sqrt(1 + (m/M)^2); 0 and inf are returned as they are (inf/inf
/// would make a NaN).
inline double complexAbs(ComplexValue Z) {
  double A = std::fabs(Z.Re), B = std::fabs(Z.Im);
  bool AIsLarger = A >= B;
  double M = AIsLarger ? A : B, N = AIsLarger ? B : A;
  if (M == 0 || M == INFINITY)
    return M;
  double R = N / M;
  return M * std::sqrt(1 + R * R);
}

/// \p L op \p R for `+ - * / == !=` (a comparison gives 1 or 0 in Re),
/// where a part flagged real is the real number in its Re.
inline ComplexValue complexBinary(BinaryOp Op, ComplexValue L, bool LReal,
                                  ComplexValue R, bool RReal) {
  switch (Op) {
  case BinaryOp::Add:
    return {L.Re + R.Re, L.Im + R.Im};
  case BinaryOp::Sub:
    return {L.Re - R.Re, L.Im - R.Im};
  case BinaryOp::Mul:
    if (LReal)
      return {L.Re * R.Re, L.Re * R.Im};
    if (RReal)
      return {L.Re * R.Re, L.Im * R.Re};
    return {L.Re * R.Re - L.Im * R.Im, L.Re * R.Im + L.Im * R.Re};
  case BinaryOp::Div:
    if (RReal)
      return {L.Re / R.Re, L.Im / R.Re};
    return complexDivide(L, R.Re, R.Im);
  case BinaryOp::Eq:
    return {double(L.Re == R.Re && L.Im == R.Im), 0};
  case BinaryOp::Ne:
    return {double(L.Re != R.Re || L.Im != R.Im), 0};
  default: // Sema refuses the others on complex operands
    return {NAN, NAN};
  }
}

/// z^N for an integer N by binary exponentiation (the squarings and
/// multiplications in this order); a negative N divides 1 by z^|N|. Each
/// multiplication rounds a few ulp, so z^N is within about 2 log2|N| + 2
/// ulp per part where no part cancels.
inline ComplexValue complexPow(ComplexValue Z, long long N) {
  unsigned long long M = N < 0 ? 0ull - static_cast<unsigned long long>(N)
                               : static_cast<unsigned long long>(N);
  ComplexValue R{1, 0};
  bool First = true;
  for (ComplexValue Base = Z; M; M >>= 1) {
    if (M & 1) {
      R = First ? Base : complexBinary(BinaryOp::Mul, R, false, Base, false);
      First = false;
    }
    if (M > 1)
      Base = complexBinary(BinaryOp::Mul, Base, false, Base, false);
  }
  return N < 0 ? complexDivide({1, 0}, R.Re, R.Im) : R;
}

/// exp(re) (cos im, sin im).
inline ComplexValue complexExp(ComplexValue Z) {
  double E = std::exp(Z.Re);
  return {E * std::cos(Z.Im), E * std::sin(Z.Im)};
}

/// The principal square root, as C's csqrt: the branch cut on the negative
/// real axis, where the sign of im (also of -0.0) picks the side. With
/// T = sqrt(|re|/2 + |z|/2) (halved before adding, so no overflow):
/// (T, im / 2T) for re >= 0, (|im| / 2T, T with im's sign) otherwise.
inline ComplexValue complexSqrt(ComplexValue Z) {
  double T = std::sqrt(std::fabs(Z.Re) * 0.5 + complexAbs(Z) * 0.5);
  if (T == 0)
    return {0, Z.Im};
  if (Z.Re >= 0)
    return {T, Z.Im / (2 * T)};
  return {std::fabs(Z.Im) / (2 * T), std::copysign(T, Z.Im)};
}

} // namespace vf

#endif // VF_COMPILER_FRONTEND_COMPLEXOPS_H
