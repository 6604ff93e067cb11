//===- stdlib/math/logf.c - log, log1p, log10 in single precision ---------===//
//
// All three on one float-float log without a table (a division is cheaper
// in a vector loop than the gathers of powf's table-driven core): logf
// rounds it once; log10f multiplies it by 1/ln10 as a float-float, so that
// log10(10^n) is exact; log1pf forms 1 + x as a float-float u + c and adds
// c/u. Zero, negatives, inf and NaN are selects
// after the main computation (the core runs on a harmless 1 there), so the
// functions are branch-free.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

// The result for the inputs the core does not take: log(±0) = -inf,
// log(x < 0) = NaN, log(+inf) = +inf, log(NaN) = NaN. *Special says
// whether X is one of them.
static inline float logSpecialF(float X, int *Special) {
  *Special = !(X > 0.0f) || isInfF(X);
  float R = X == 0.0f ? -__builtin_inff() : __builtin_nanf("");
  R = X == __builtin_inff() ? X : R;
  return isNaNF(X) ? X + X : R;
}

// log X for positive finite X without a table (one division costs a
// vector loop less than the core's three gathers): X = 2^e m with m in
// [sqrt(1/2), sqrt2), f = m - 1 (exact), s = f/(2 + f), and
// log m = 2 atanh(s) = f - f^2/2 + s (f^2/2 + s^2 S(s^2)), the classical
// arrangement (Muller, "Elementary Functions", and fdlibm's e_logf.c) in
// which only terms much smaller than the result round; here f^2/2 is
// exact (TwoProd) and the large sums keep their errors (TwoSum), so the
// result is a float-float (*Lo) with relative error near 2^-27.
static inline float logNoTableF(float X, float *Lo) {
  int Sub = X < 0x1p-126f;
  uint32_t U = asU32(Sub ? X * 0x1p23f : X);
  uint32_t T = U - 0x3f3504f3u; // offset from sqrt(1/2)
  int32_t Ei = ((int32_t)T >> 23) - (Sub ? 23 : 0);
  float F = asF32(U - (T & 0xff800000u)) - 1.0f;
  float S = F / (2.0f + F);
  float Z = S * S;
  const float *C = LogSF;
  float R = Z * fmaF(Z * Z, fmaF(Z, C[3], C[2]), fmaF(Z, C[1], C[0]));
  float Hl;
  float Hh = twoProdF(0.5f * F, F, &Hl);
  float Ef = (float)Ei;
  float E1, E2;
  float S1 = twoSumF(Ef * VF_LN2F_HI, F, &E1);
  float S2 = twoSumF(S1, -Hh, &E2);
  float Low = (E1 + E2) + (fmaF(S, Hh + R, -Hl) + Ef * VF_LN2F_LO);
  return fastTwoSumF(S2, Low, Lo);
}

float vf_logf(float X) {
  int Special;
  float S = logSpecialF(X, &Special);
  float Lo;
  float H = logNoTableF(Special ? 1.0f : X, &Lo);
  return Special ? S : H;
}

// 1/ln10 as a float-float.
#define VF_INV_LN10F_HI 0x1.bcb7b2p-2f
#define VF_INV_LN10F_LO -0x1.5b235ep-27f

float vf_log10f(float X) {
  int Special;
  float S = logSpecialF(X, &Special);
  float Lo;
  float H = logNoTableF(Special ? 1.0f : X, &Lo);
  float E;
  float P = twoProdF(H, VF_INV_LN10F_HI, &E);
  float R = P + (E + (H * VF_INV_LN10F_LO + Lo * VF_INV_LN10F_HI));
  return Special ? S : R;
}

float vf_log1pf(float X) {
  // 1 + x = U + C exactly; log(U + C) = log U + C/U to well below an ulp
  // (|C/U| <= 2^-24).
  float C;
  float U = twoSumF(1.0f, X, &C);
  int Special;
  float S = logSpecialF(U, &Special);
  float Lo;
  float H = logNoTableF(Special ? 1.0f : U, &Lo);
  float R = H + (Lo + C / U);
  R = Special ? S : R;
  // Keeps the sign of -0 (H + C/U would round it to +0).
  return X == 0.0f ? X : R;
}
