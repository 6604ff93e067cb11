//===- stdlib/math/logf.c - log, log1p, log10 in single precision ---------===//
//
// All three on the float-float log core (internalf.h, Tang's table-driven
// method): logf rounds it once; log10f multiplies it by 1/ln10 as a
// float-float, so that log10(10^n) is exact; log1pf forms 1 + x as a
// float-float u + c and adds c/u. Zero, negatives, inf and NaN are selects
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

float vf_logf(float X) {
  int Special;
  float S = logSpecialF(X, &Special);
  float Lo;
  float H = logCoreAnyF(Special ? 1.0f : X, &Lo);
  return Special ? S : H;
}

// 1/ln10 as a float-float.
#define VF_INV_LN10F_HI 0x1.bcb7b2p-2f
#define VF_INV_LN10F_LO -0x1.5b235ep-27f

float vf_log10f(float X) {
  int Special;
  float S = logSpecialF(X, &Special);
  float Lo;
  float H = logCoreAnyF(Special ? 1.0f : X, &Lo);
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
  float H = logCoreF(Special ? 1.0f : U, &Lo);
  float R = H + (Lo + C / U);
  R = Special ? S : R;
  // Keeps the sign of -0 (H + C/U would round it to +0).
  return X == 0.0f ? X : R;
}
