//===- stdlib/math/powf.c - x^y in single precision -----------------------===//
//
// vf_powf: x^y = e^(y log|x|) with log|x| as a float-float (relative
// error below 2^-36, from a table: logf's table-free 2^-27 would not do)
// and the product y*log|x| kept as a float-float through the exponential,
// so the error stays near half an ulp for every |y log x| up to the
// overflow threshold. The sign and the Annex F special cases (integer and
// odd y, zeros, infinities, NaN, x = +-1) are selects after the main
// computation, as in pow.c.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

// log(X) as a float-float with relative error below 2^-36, for positive
// normal finite X.
//
// Tang's table-driven method: X = 2^e m, m in [0.7109375, 1.421875); the
// piece i of m (32 pieces in the bit domain, the one around 1 with c = 1)
// gives invc, and z = m invc - 1 is formed exactly as a float-float
// (TwoProd; m invc is within 2^-5 of 1, so the subtraction is exact). Then
// log X = e ln2 - log(invc) + log1p(z), log1p(z) = z - z^2/2 + z^3 L(z) on
// |z| < 2^-5.9, with every sum of large terms kept exact (TwoSum).
#define VF_LOGF_OFF 0x3f360000u
static inline float logCoreF(float X, float *Lo) {
  uint32_t T = asU32(X) - VF_LOGF_OFF;
  int32_t Ei = (int32_t)T >> 23;
  uint32_t I = (T >> 18) & 31;
  float M = asF32(asU32(X) - ((uint32_t)Ei << 23));
  const float *Row = &vf__logf_table[I * 3];
  float Pe;
  float P = twoProdF(M, Row[0], &Pe);
  float Zl;
  float Z = fastTwoSumF(P - 1.0f, Pe, &Zl);
  float Z2l;
  float Z2 = twoProdF(Z, Z, &Z2l);
  const float *C = LogLF;
  float Tail = Z * Z2 * fmaF(Z2, fmaF(Z, C[3], C[2]), fmaF(Z, C[1], C[0]));
  float Ef = (float)Ei;
  float E1, E2, E3;
  float S1 = twoSumF(Ef * VF_LN2F_HI, Row[1], &E1);
  float S2 = twoSumF(S1, Z, &E2);
  float S3 = twoSumF(S2, -0.5f * Z2, &E3);
  float Low = (E1 + E2 + E3) +
              (Ef * VF_LN2F_LO + Row[2] + (Zl - Z * Zl - 0.5f * Z2l + Tail));
  return fastTwoSumF(S3, Low, Lo);
}

// logCoreF for every positive finite X, subnormals included: they are
// scaled by 2^23 first and 23 ln2 taken back off.
static inline float logCoreAnyF(float X, float *Lo) {
  int Sub = X < 0x1p-126f;
  float L;
  float H = logCoreF(Sub ? X * 0x1p23f : X, &L);
  float E;
  float S = twoSumF(H, Sub ? -23.0f * VF_LN2F_HI : 0.0f, &E);
  return fastTwoSumF(S, E + (L + (Sub ? -23.0f * VF_LN2F_LO : 0.0f)), Lo);
}

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
