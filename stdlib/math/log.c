//===- stdlib/math/log.c - Natural, base-10 and log(1 + x) logarithms ------===//
//
// vf_log, vf_log10 and vf_log1p. vf_log has no table: x = 2^e m with m in
// [sqrt(1/2), sqrt2), log m = 2 atanh((m-1)/(m+1)) from one division and a
// short polynomial, and an out-of-line path for zero, negatives,
// subnormals, infinities and NaN. log10 and log1p (and pow, in pow.c) need
// a double-double log: their reduction (internal.h) picks 1/c from a
// 128-entry table so that z = m/c - 1 is exact and |z| < 2^-7, and adds
// e*ln2 - log(1/c) (exact in the high part) to log1p(z) from a short
// polynomial. Their special values are selects at the end, so the fast
// path has no branches and vectorises (the table lookup becomes a gather).
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

// vf_log's polynomial: (log((1+s)/(1-s)) - 2s) / s^3 in z = s^2 for
// |s| <= (sqrt2 - 1)/(sqrt2 + 1) (gen_tables.py, "LogS").
static inline double logAtanhPoly(double Z) {
  const double *C = LogS;
  double W = Z * Z;
  return fmaD(W,
              fmaD(W, fmaD(W, C[6], fmaD(Z, C[5], C[4])), fmaD(Z, C[3], C[2])),
              fmaD(Z, C[1], C[0]));
}

// log(X) + Eoff*ln2 for positive normal finite X, without a table: with
// X = 2^e m, m in [sqrt(1/2), sqrt2) and f = m - 1 (exact),
// log m = 2 atanh(s) with s = f/(2 + f), written as
// f - (f^2/2 - s (f^2/2 + R(s^2))) so that only small terms round
// (the classic fdlibm arrangement; Tang's table method is kept for the
// double-double logDD). Its one division is cheaper in a vector loop than
// the table's three emulated gathers. Max error 0.82 ulp (10^6 and 10^7
// points, docs/math.md).
#define VF_SQRT_HALF_BITS 0x3fe6a09e667f3bcdull
static inline double logAtanh(double X, double Eoff) {
  // The bias keeps T positive for every normal X (AVX2 has no 64-bit
  // arithmetic shift); T's top bits are the exponent relative to m's range.
  uint64_t T = asU64(X) - VF_SQRT_HALF_BITS + (1100ull << 52);
  double Ed =
      asF64(0x4330000000000000ull | (T >> 52)) - (0x1p52 + 1100.0 - Eoff);
  double M = asF64((T & 0x000fffffffffffffull) + VF_SQRT_HALF_BITS);
  double F = M - 1.0;
  double S = F / (2.0 + F);
  double Z = S * S;
  double Hf = 0.5 * F * F;
  double HfR = fmaD(Z, logAtanhPoly(Z), Hf);
  // Ed * Ln2Hi42 is exact, so the fma adds it with one rounding, as + would.
  return fmaD(Ed, VF_LN2_HI42, F - (Hf - fmaD(S, HfR, Ed * VF_LN2_LO42)));
}

// Every X that is not a positive normal finite number: subnormals are
// scaled by 2^54 (taken back off exactly in the exponent), the rest are
// the special values. Out of line, like vf__sin_big: linkMathLibrary gives
// it masked vector variants, so the vectorised loop only tests a mask.
__attribute__((noinline, const)) double vf__log_special(double X) {
  if (X > 0.0 && X < 0x1p-1022)
    return logAtanh(X * 0x1p54, -54.0);
  return logSpecial(X, X);
}

double vf_log(double X) {
  double R = logAtanh(X, 0.0);
  // One compare finds zero, negatives, subnormals, inf and NaN: the
  // positive normal finite bit patterns [2^52, 0x7ff0 << 48), shifted by
  // 2^63 - 2^52, are the signed integers below 0xffe0 << 48.
  if (__builtin_expect((int64_t)(asU64(X) + 0x7ff0000000000000ull) >=
                           (int64_t)0xffe0000000000000ull,
                       0))
    R = vf__log_special(X);
  return R;
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
