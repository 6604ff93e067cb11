//===- stdlib/math/expf.c - e^x and e^x - 1 in single precision -----------===//
//
// Both on the float exp core (internalf.h): Cody-Waite reduction by ln2
// with an fmaf-exact first step, a near-minimax polynomial on
// |r| <= ln2/2, and the result scaled by 2^k in two normal factors, so
// that subnormal results round once and overflow happens where it should.
// No branches: out-of-range inputs are clamped so that the same arithmetic
// overflows to inf or underflows to 0, and NaN is selected at the end.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

float vf_expf(float X) {
  // e^x overflows above 88.72 and rounds to 0 below -103.98; clamping just
  // outside keeps K in scale2F's range.
  float Xc = X > 89.0f ? 89.0f : X;
  Xc = Xc < -104.0f ? -104.0f : Xc;
  float Yh, Yl;
  int32_t K = expCoreF(Xc, 0.0f, &Yh, &Yl);
  float R = scale2F(Yh + Yl, K);
  return isNaNF(X) ? X + X : R;
}

float vf_expm1f(float X) {
  // Below -20, e^x - 1 rounds to -1.
  float Xc = X > 89.0f ? 89.0f : X;
  Xc = Xc < -20.0f ? -20.0f : Xc;
  float Lo;
  float Hi = expm1CoreF(Xc, &Lo);
  // Above the float nearest ln(FLT_MAX) from below, 2^K (1 + r) - 1
  // overflows; the core's TwoSum would turn inf into NaN.
  float R = X > 0x1.62e42ep6f ? __builtin_inff() : Hi + Lo;
  // |x| < 2^-25: expm1(x) rounds to x; this also keeps the sign of -0.
  R = absF(X) < 0x1p-25f ? X : R;
  return isNaNF(X) ? X + X : R;
}
