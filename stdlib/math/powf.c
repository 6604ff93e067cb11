//===- stdlib/math/powf.c - x^y in single precision -----------------------===//
//
// vf_powf: x^y = e^(y log|x|) with log|x| as a float-float (relative error
// below 2^-36) and the product y*log|x| kept as a float-float through the
// exponential, so the error stays near half an ulp for every |y log x| up
// to the overflow threshold. The sign and the Annex F special cases
// (integer and odd y, zeros, infinities, NaN, x = +-1) are selects after
// the main computation, as in pow.c.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

float vf_powf(float X, float Y) {
  float AX = absF(X);
  // log|x| with the infinite cases written in (the core wants a positive
  // finite argument).
  int Finite = AX > 0.0f && AX < __builtin_inff();
  float L;
  float H = logCoreAnyF(Finite ? AX : 1.0f, &L);
  H = AX == 0.0f ? -__builtin_inff() : H;
  H = AX == __builtin_inff() ? AX : H;
  // t = y log|x| as a float-float.
  float Th = Y * H;
  float Tl = fmaF(Y, H, -Th) + Y * L;
  // Out of [-104, 89] the result is 0 or inf; drop Tl there (it may be NaN
  // from inf - inf).
  int Over = Th > 89.0f;
  int Under = Th < -104.0f;
  Tl = (Over || Under) ? 0.0f : Tl;
  Th = Over ? 89.0f : (Under ? -104.0f : Th);
  float Yh, Yl;
  int32_t K = expCoreF(Th, Tl, &Yh, &Yl);
  float R = scale2F(Yh + Yl, K);

  // y integral (every |y| >= 2^24 is) and odd.
  int YInt = __builtin_truncf(Y) == Y;
  float YHalf = 0.5f * Y;
  int YOdd = YInt && __builtin_truncf(YHalf) != YHalf;
  R = (asU32(X) >> 31 && YOdd) ? -R : R;
  // Negative finite x with non-integral y has no real power.
  R = (X < 0.0f && X > -__builtin_inff() && !YInt) ? __builtin_nanf("") : R;
  R = (isNaNF(X) || isNaNF(Y)) ? X + Y : R;
  // These hold even for NaN: pow(x, +-0) = 1, pow(1, y) = 1, and
  // pow(-1, +-inf) = 1.
  R = (X == -1.0f && isInfF(Y)) ? 1.0f : R;
  R = X == 1.0f ? 1.0f : R;
  return Y == 0.0f ? 1.0f : R;
}
