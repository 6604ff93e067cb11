//===- stdlib/math/pow.c - x^y -------------------------------------------===//
//
// vf_pow: x^y = e^(y log|x|) with log|x| as a double-double (relative error
// below 2^-66) and the product y*log|x| kept as a double-double through the
// exponential, so the error stays near half an ulp for every |y log x| up to
// the overflow threshold. The sign and the Annex F special cases (integer
// and odd y, zeros, infinities, NaN, x = +-1) are selects after the fast
// path.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

double vf_pow(double X, double Y) {
  double AX = absD(X);
  // log|x| with the infinite cases written in (the reduction wants a
  // positive finite argument).
  int Finite = AX > 0.0 && AX < __builtin_inf();
  double L;
  double H = logDD(Finite ? AX : 1.0, &L);
  H = AX == 0.0 ? -__builtin_inf() : H;
  H = AX == __builtin_inf() ? AX : H;
  // t = y log|x| as a double-double.
  double Th = Y * H;
  double Tl = fmaD(Y, H, -Th) + Y * L;
  // Out of [-745.2, 709.8] the result is 0 or inf; drop Tl there (it may be
  // NaN from inf - inf).
  int Over = Th > 709.8;
  int Under = Th < -745.2;
  Tl = (Over || Under) ? 0.0 : Tl;
  Th = Over ? 709.8 : (Under ? -745.2 : Th);
  double Yh, Yl;
  double Kd = expCore(Th, Tl, &Yh, &Yl);
  double R = scale2(Yh + Yl, Kd);

  // y integral (every |y| >= 2^53 is) and odd.
  int YInt = __builtin_trunc(Y) == Y;
  double YHalf = 0.5 * Y;
  int YOdd = YInt && __builtin_trunc(YHalf) != YHalf;
  R = (signBit(X) && YOdd) ? -R : R;
  // Negative finite x with non-integral y has no real power.
  R = (X < 0.0 && X > -__builtin_inf() && !YInt) ? __builtin_nan("") : R;
  R = (isNaN(X) || isNaN(Y)) ? X + Y : R;
  // These hold even for NaN: pow(x, +-0) = 1, pow(1, y) = 1, and
  // pow(-1, +-inf) = 1.
  R = (X == -1.0 && isInf(Y)) ? 1.0 : R;
  R = X == 1.0 ? 1.0 : R;
  return Y == 0.0 ? 1.0 : R;
}
