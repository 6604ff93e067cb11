//===- stdlib/math/exp.c - e^x and e^x - 1 ---------------------------------===//
//
// vf_exp and vf_expm1 on the shared core (internal.h): Cody-Waite reduction
// by ln2 with an fma-exact first step, a near-minimax polynomial on
// |r| <= ln2/2, and the result scaled by 2^k in two normal factors so the
// subnormal range rounds once. No branches: out-of-range inputs are clamped
// so that the same arithmetic overflows to inf or underflows to 0, and NaN
// flows through.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

double vf_exp(double X) {
  // exp overflows above 709.78 and underflows below -745.13; clamping just
  // outside keeps K in range. NaN fails both compares and passes through.
  double Xc = X > 709.8 ? 709.8 : X;
  Xc = Xc < -745.2 ? -745.2 : Xc;
  double Yh, Yl;
  double Kd = expCore(Xc, 0.0, &Yh, &Yl);
  return scale2(Yh + Yl, Kd);
}

double vf_expm1(double X) {
  // Below -40, e^x - 1 rounds to -1; above 709, to e^x.
  double Xc = X > 709.8 ? 709.8 : X;
  Xc = Xc < -40.0 ? -40.0 : Xc;
  double Yh, Yl;
  double Kd = expCore(Xc, 0.0, &Yh, &Yl);
  // 2^K (Yh + Yl) - 1 with the subtraction of 1 exact (TwoSum); for K = 0
  // this is Yh - 1 + Yl, which keeps full relative accuracy for small x.
  double Kc = Kd > 1000.0 ? 1000.0 : Kd;
  double S = pow2i(toInt(Kc));
  double E;
  double H = twoSum(S * Yh, -1.0, &E);
  double Small = H + (E + S * Yl);
  // Where 2^K is not representable the -1 no longer matters.
  double Big = scale2(Yh + Yl, Kd);
  double R = Kd > 1000.0 ? Big : Small;
  // |x| < 2^-54: expm1(x) rounds to x; this also keeps the sign of -0.
  return absD(X) < 0x1p-54 ? X : R;
}
