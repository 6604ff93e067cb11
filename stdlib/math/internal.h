/*===- stdlib/math/internal.h - Shared helpers for the math library -*- C -*-//
 *
 * Bit casts, error-free transformations (TwoSum, TwoProd with an explicit
 * fma) and the cores several functions share: e^x on a double-double
 * argument, log as a double-double, and scaling by 2^k without spurious
 * overflow. Everything here is `static inline`, so each function's bitcode
 * carries exactly what it uses.
 *
 * Only explicit __builtin_fma is used, never contraction: the library is
 * built with -ffp-contract=off so that x86-64 and nvptx64 round alike, and a
 * written fma rounds once on both.
 *
 *===----------------------------------------------------------------------===*/

#ifndef VF_STDLIB_MATH_INTERNAL_H
#define VF_STDLIB_MATH_INTERNAL_H

#include "vfmath.h"

#include <stdint.h>

//===----------------------------------------------------------------------===//
// Bits and rounding
//===----------------------------------------------------------------------===//

static inline uint64_t asU64(double X) {
  uint64_t U;
  __builtin_memcpy(&U, &X, sizeof U);
  return U;
}

static inline double asF64(uint64_t U) {
  double X;
  __builtin_memcpy(&X, &U, sizeof X);
  return X;
}

static inline double fmaD(double A, double B, double C) {
  return __builtin_fma(A, B, C);
}

static inline double absD(double X) { return __builtin_fabs(X); }

static inline double copySign(double Mag, double Sign) {
  return __builtin_copysign(Mag, Sign);
}

static inline int signBit(double X) { return (int)(asU64(X) >> 63); }

static inline int isNaN(double X) { return X != X; }

static inline int isInf(double X) { return absD(X) == __builtin_inf(); }

// 1.5 * 2^52: adding and subtracting it rounds |X| < 2^51 to an integer, and
// the low bits of X + Shifter then hold that integer in two's complement.
#define VF_SHIFTER 0x1.8p52

// Integer held by Kd (an integral double with |Kd| < 2^51), read from the
// bits of Kd + Shifter; vectorises where a float-to-int64 convert does not
// (AVX2 has no vcvtpd2qq).
static inline int64_t toInt(double Kd) {
  return (int64_t)(asU64(Kd + VF_SHIFTER) - asU64(VF_SHIFTER));
}

// 2^K for K in [-1022, 1023].
static inline double pow2i(int64_t K) {
  return asF64((uint64_t)(K + 1023) << 52);
}

// Y * 2^K for K in [-1100, 1100], rounded once even when the result is
// subnormal or overflows: 2^K is applied as two factors that are both
// normal, and Y * 2^K1 is exact.
static inline double scale2(double Y, double Kd) {
  int64_t K = toInt(Kd);
  // Halve with a logical shift on a positive value: AVX2 has no 64-bit
  // arithmetic right shift.
  int64_t K1 = (int64_t)((uint64_t)(K + 2048) >> 1) - 1024;
  return Y * pow2i(K1) * pow2i(K - K1);
}

//===----------------------------------------------------------------------===//
// Error-free transformations (Knuth TwoSum, Dekker FastTwoSum, fma TwoProd)
//===----------------------------------------------------------------------===//

// S + *E == A + B exactly.
static inline double twoSum(double A, double B, double *E) {
  double S = A + B;
  double Bv = S - A;
  *E = (A - (S - Bv)) + (B - Bv);
  return S;
}

// As twoSum, for |A| >= |B| (or A == 0).
static inline double fastTwoSum(double A, double B, double *E) {
  double S = A + B;
  *E = B - (S - A);
  return S;
}

// P + *E == A * B exactly (barring underflow).
static inline double twoProd(double A, double B, double *E) {
  double P = A * B;
  *E = fmaD(A, B, -P);
  return P;
}

//===----------------------------------------------------------------------===//
// Shared cores
//===----------------------------------------------------------------------===//

// ln2 split: Ln2Hi is the double nearest ln2; Ln2Lo the next 53 bits.
#define VF_LN2_HI 0x1.62e42fefa39efp-1
#define VF_LN2_LO 0x1.abc9e3b39803fp-56
#define VF_INV_LN2 0x1.71547652b82fep0

#include "coeffs.inc"

// e^(Xh + Xl) = 2^K * (*Yh + *Yl), returning K as a double. Requires
// Xh in [-746, 710] (callers clamp) and |Xl| <= 2^-40 |Xh| or so. The
// relative error of Yh + Yl is below 2^-62; the pair is not normalized
// (*Yl holds the polynomial part, up to 0.07 *Yh), so callers that divide
// by it renormalize first.
//
// Cody-Waite reduction r = x - K ln2 with |r| <= ln2/2: with fma,
// Xh - K*Ln2Hi is exact (the difference is a multiple of 2^-54 below 1/2),
// and the second step keeps its rounding error, so r is a double-double.
// Then e^r = 1 + r + r^2/2 + r^3 Q(r), Q a near-minimax polynomial
// (coeffs.inc), with r^2 formed exactly so that only the r^3 term rounds.
static inline double expCore(double Xh, double Xl, double *Yh, double *Yl) {
  double Kd = (Xh * VF_INV_LN2 + VF_SHIFTER) - VF_SHIFTER;
  double R1 = fmaD(-Kd, VF_LN2_HI, Xh);
  double Rh = fmaD(-Kd, VF_LN2_LO, R1);
  double Rl = fmaD(-Kd, VF_LN2_LO, R1 - Rh) + Xl;
  double R2l;
  double R2 = twoProd(Rh, Rh, &R2l);
  const double *C = ExpQ;
  double R4 = R2 * R2;
  // Estrin-like split keeps the dependency chain short.
  double QLo = C[0] + Rh * C[1] + R2 * (C[2] + Rh * C[3]) +
               R4 * (C[4] + Rh * C[5] + R2 * (C[6] + Rh * C[7]));
  double QHi = C[8] + Rh * C[9] + R2 * C[10];
  double Q = QLo + (R4 * R4) * QHi;
  // e^(Rh + Rl) = e^Rh (1 + Rl): Rl reaches 2^-43 when Xl carries the low
  // half of a product (pow, erfc), so it is scaled by all of e^Rh.
  double T = 0.5 * R2 + (0.5 * R2l + Rh * R2 * Q); // e^Rh - 1 - Rh
  double E;
  double H = fastTwoSum(1.0, Rh, &E);
  *Yh = H;
  *Yl = E + (T + Rl * (1.0 + (Rh + T)));
  return Kd;
}

// log table: {1/c, -log(1/c) hi, lo} for 128 pieces of [181/256, 181/128).
extern const double vf__log_table[128 * 3];

// The pieces of log(X) for positive finite normal X:
// log X = Ed*ln2 + (-log invc) + log1p(Z), with Z = m*invc - 1 exact.
// *Hi = Ed*Ln2Hi42 + logc_hi is exact (both on the 2^-42 grid);
// *Lo collects the low parts.
//
// Technique: table-driven reduction as in Tang's method, with invc kept to
// 8 bits so that the fma computing Z is exact.
#define VF_LN2_HI42 0x1.62e42fefa3800p-1
#define VF_LN2_LO42 0x1.ef35793c7673p-45
static inline double logReduce(double X, double *Hi, double *Lo) {
  uint64_t U = asU64(X);
  // Offset of X from 181/256 in the bit domain, biased so it stays positive:
  // its top bits are the exponent relative to [181/256, 181/128).
  uint64_t T = U - 0x3fe6a00000000000ull + (1100ull << 52);
  uint64_t Ei = T >> 52;
  double Ed = asF64(0x4330000000000000ull | Ei) - 0x1p52 - 1100.0;
  uint64_t I = (T >> 45) & 127;
  double M = asF64(U - ((Ei - 1100) << 52));
  const double *Row = &vf__log_table[I * 3];
  double Z = fmaD(M, Row[0], -1.0);
  *Hi = Ed * VF_LN2_HI42 + Row[1];
  *Lo = Ed * VF_LN2_LO42 + Row[2];
  return Z;
}

// logReduce for every positive finite X, subnormals included: they are
// scaled by 2^54 first and 54 ln2 taken back off (exactly, in Hi).
static inline double logReduceAny(double X, double *Hi, double *Lo) {
  int Sub = X < 0x1p-1022;
  double Z = logReduce(Sub ? X * 0x1p54 : X, Hi, Lo);
  *Lo = Sub ? *Lo - 54.0 * VF_LN2_LO42 : *Lo;
  *Hi = Sub ? *Hi - 54.0 * VF_LN2_HI42 : *Hi;
  return Z;
}

// (log1p(Z) - Z + Z^2/2) / Z^3 for the reduced Z (|Z| < 2^-7), given
// Z2 = Z * Z. Estrin's scheme with explicit fma: the chain stays short and
// each step rounds once.
static inline double logPoly(double Z, double Z2) {
  const double *C = LogL;
  return fmaD(Z2 * Z2, fmaD(Z2, fmaD(Z, C[7], C[6]), fmaD(Z, C[5], C[4])),
              fmaD(Z2, fmaD(Z, C[3], C[2]), fmaD(Z, C[1], C[0])));
}

// log1p(Z) - Z + Z^2/2 for the reduced Z (|Z| < 2^-7).
static inline double logTail(double Z) {
  double Z2 = Z * Z;
  return Z * Z2 * logPoly(Z, Z2);
}

// log(X) as a double-double with relative error below 2^-66, for positive
// finite X (subnormals included). pow and log10 need the extra bits.
static inline double logDD(double X, double *Lo) {
  double Hi, L;
  double Z = logReduceAny(X, &Hi, &L);
  // Hi + Z - Z^2/2 with every rounding error kept.
  double Zl;
  double Zh2 = twoProd(Z, Z, &Zl);
  double E1, E2;
  double S1 = twoSum(Hi, Z, &E1);
  double S2 = twoSum(S1, -0.5 * Zh2, &E2);
  double Tail = (E1 + E2) + (L - 0.5 * Zl + logTail(Z));
  double E;
  double H = fastTwoSum(S2, Tail, &E);
  *Lo = E;
  return H;
}

#endif // VF_STDLIB_MATH_INTERNAL_H
