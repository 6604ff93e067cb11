//===- stdlib/math/log.c - Natural, base-10 and log(1 + x) logarithms ------===//
//
// vf_log, vf_log10 and vf_log1p. The reduction (internal.h) writes
// x = 2^e m with m in [181/256, 181/128), picks 1/c from a 128-entry table
// so that z = m/c - 1 is exact and |z| < 2^-7, and adds e*ln2 - log(1/c)
// (exact in the high part) to log1p(z) from a short polynomial. Special
// values are applied by selects at the end, so the fast path has no
// branches and vectorises (the table lookup becomes a gather).
//
//===----------------------------------------------------------------------===//

#include "internal.h"

// log(X) for X < 0, X == 0, +inf and NaN; others pass R through.
static inline double logSpecial(double X, double R) {
  R = X < 0.0 ? __builtin_nan("") : R;
  R = X == 0.0 ? -__builtin_inf() : R;
  R = X == __builtin_inf() ? X : R;
  return isNaN(X) ? X : R;
}

double vf_log(double X) {
  double Hi, Lo;
  double Z = logReduceAny(X, &Hi, &Lo);
  // Hi + Z exactly (TwoSum); everything else is below 2^-14 relative.
  double E;
  double S = twoSum(Hi, Z, &E);
  // log1p(Z) - Z = Z^2 (Z P(Z) - 1/2), two fma. The rounding of Z^2 costs
  // at most 2^-54 Z^2, below 2^-59 of the result (|log X| >= 2^-8 where
  // 1/c != 1, ~|Z| where 1/c = 1).
  double Z2 = Z * Z;
  double T = fmaD(Z2, fmaD(Z, logPoly(Z, Z2), -0.5), Lo);
  double R = S + (E + T);
  return logSpecial(X, R);
}

#define VF_INV_LN10_HI 0x1.bcb7b1526e50ep-2
#define VF_INV_LN10_LO 0x1.95355baaafad3p-57

double vf_log10(double X) {
  double L;
  double H = logDD(X, &L);
  // (H + L) / ln10 as a double-double product.
  double Pl;
  double Ph = twoProd(H, VF_INV_LN10_HI, &Pl);
  double R = Ph + (Pl + (H * VF_INV_LN10_LO + L * VF_INV_LN10_HI));
  return logSpecial(X, R);
}

double vf_log1p(double X) {
  // u = 1 + x as a double-double; log(Uh + Ul) = log(Uh) + Ul/Uh to well
  // below an ulp, since |Ul| <= ulp(Uh)/2.
  double Ul;
  double Uh = twoSum(1.0, X, &Ul);
  // Uh <= 0 only where the special cases below take over.
  double Us = Uh > 0.0 ? Uh : 1.0;
  double L;
  double H = logDD(Us, &L);
  double R = H + (L + Ul / Us);
  R = X < -1.0 ? __builtin_nan("") : R;
  R = X == -1.0 ? -__builtin_inf() : R;
  R = X == __builtin_inf() ? X : R;
  R = isNaN(X) ? X : R;
  // log1p(x) rounds to x below 2^-54 (keeps -0 and subnormals exact).
  return absD(X) < 0x1p-54 ? X : R;
}
