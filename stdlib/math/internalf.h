/*===- stdlib/math/internalf.h - Helpers for the float functions -*- C -*-===//
 *
 * The single-precision counterpart of internal.h: bit casts, error-free
 * transformations on floats (TwoSum, TwoProd with an explicit fmaf), and the
 * cores several float functions share: e^x of a float-float argument,
 * e^x - 1 as a float-float, and scaling by 2^k with one rounding.
 *
 * Nothing here, nor in any vf_*f function, touches a double: the point of
 * the float library is GPUs whose FP64 rate is 1/32 to 1/64 of FP32. Where a
 * float has too few bits, the code carries a float-float (hi + lo) instead.
 * MathLibraryTest checks that no instruction reachable from a vf_*f entry
 * point has a double operand.
 *
 *===----------------------------------------------------------------------===*/

#ifndef VF_STDLIB_MATH_INTERNALF_H
#define VF_STDLIB_MATH_INTERNALF_H

#include "vfmath.h"

#include <stdint.h>

//===----------------------------------------------------------------------===//
// Bits and rounding
//===----------------------------------------------------------------------===//

static inline uint32_t asU32(float X) {
  uint32_t U;
  __builtin_memcpy(&U, &X, sizeof U);
  return U;
}

static inline float asF32(uint32_t U) {
  float X;
  __builtin_memcpy(&X, &U, sizeof X);
  return X;
}

static inline float fmaF(float A, float B, float C) {
  return __builtin_fmaf(A, B, C);
}

static inline float absF(float X) { return __builtin_fabsf(X); }

static inline float copySignF(float Mag, float Sign) {
  return __builtin_copysignf(Mag, Sign);
}

static inline int isNaNF(float X) { return X != X; }

static inline int isInfF(float X) { return absF(X) == __builtin_inff(); }

// 1.5 * 2^23: adding and subtracting it rounds |X| < 2^22 to an integer.
#define VF_SHIFTER_F 0x1.8p23f

// round-to-nearest of X (|X| < 2^22), as a float.
static inline float rintF(float X) { return (X + VF_SHIFTER_F) - VF_SHIFTER_F; }

// 2^K for K in [-126, 127].
static inline float pow2iF(int32_t K) {
  return asF32((uint32_t)(K + 127) << 23);
}

// Y * 2^K for K in [-252, 254], rounded once even when the result is
// subnormal or overflows: 2^K is applied as two normal factors, and the
// first product is exact.
static inline float scale2F(float Y, int32_t K) {
  int32_t K1 = K >> 1;
  return Y * pow2iF(K1) * pow2iF(K - K1);
}

//===----------------------------------------------------------------------===//
// Error-free transformations (Knuth TwoSum, Dekker FastTwoSum, fma TwoProd)
//===----------------------------------------------------------------------===//

// S + *E == A + B exactly.
static inline float twoSumF(float A, float B, float *E) {
  float S = A + B;
  float Bv = S - A;
  *E = (A - (S - Bv)) + (B - Bv);
  return S;
}

// As twoSumF, for |A| >= |B| (or A == 0).
static inline float fastTwoSumF(float A, float B, float *E) {
  float S = A + B;
  *E = B - (S - A);
  return S;
}

// P + *E == A * B exactly (barring underflow).
static inline float twoProdF(float A, float B, float *E) {
  float P = A * B;
  *E = fmaF(A, B, -P);
  return P;
}

// C[0] + C[1] U + ... + C[6] U^6 in Estrin's scheme (shorter chains than
// Horner's), the order atan, asin and erf's small-argument kernels share.
static inline float poly6F(float U, const float *C) {
  float U2 = U * U;
  return fmaF(U2 * U2, fmaF(U, C[6], C[5]) * U + C[4],
              fmaF(U2, fmaF(U, C[3], C[2]), fmaF(U, C[1], C[0])));
}

//===----------------------------------------------------------------------===//
// Shared cores
//===----------------------------------------------------------------------===//

#include "coeffsf.inc"

// Tables (tablesf.c): for powf's log, {1/c, -log(1/c) hi, lo} for 32
// pieces of [0.7109375, 1.421875); for the Payne-Hanek reduction of sinf,
// cosf, tanf, the bits of 2/pi in 32-bit words.
extern const float vf__logf_table[32 * 3];
extern const uint32_t vf__twoopi_words[8];

// ln2 in two floats: VF_LN2F_HI has 16 significant bits, so that E * HI is
// exact for every exponent |E| < 256; VF_LN2F_LO the next 24.
#define VF_LN2F_HI 0x1.62e4p-1f
#define VF_LN2F_LO 0x1.7f7d1cp-20f
// ln2 rounded to float, and the float nearest ln2 - VF_LN2F_R: Cody-Waite
// steps with fmaf (the first one exact) for |K| <= 256.
#define VF_LN2F_R 0x1.62e430p-1f
#define VF_LN2F_RLO -0x1.05c610p-29f
#define VF_INV_LN2F 0x1.715476p0f

// e^(Xh + Xl) = 2^K (*Yh + *Yl), returning K. Requires Xh in [-112, 90]
// (callers clamp) and |Xl| <= 2^-20 |Xh| or so. The relative error of
// Yh + Yl is below 2^-30; *Yh = 1 + r rounded (exact with *Yl).
//
// Cody-Waite reduction r = x - K ln2, |r| <= ln2/2: with fmaf,
// Xh - K*ln2 is exact (its difference is a multiple of 2^-25 below 1/2),
// and the second step keeps its rounding error, so r is a float-float.
// Then e^r = 1 + r + r^2/2 + r^3 Q(r), Q near-minimax (coeffsf.inc), with
// r^2 formed exactly, so only the r^3 term rounds.
static inline int32_t expCoreF(float Xh, float Xl, float *Yh, float *Yl) {
  float Kf = rintF(Xh * VF_INV_LN2F);
  float R1 = fmaF(-Kf, VF_LN2F_R, Xh);
  float Rh = fmaF(-Kf, VF_LN2F_RLO, R1);
  float Rl = fmaF(-Kf, VF_LN2F_RLO, R1 - Rh) + Xl;
  float R2l;
  float R2 = twoProdF(Rh, Rh, &R2l);
  const float *C = ExpQF;
  float Q = fmaF(R2 * R2, fmaF(Rh, C[5], C[4]),
                 fmaF(R2, fmaF(Rh, C[3], C[2]), fmaF(Rh, C[1], C[0])));
  // e^(Rh + Rl) = e^Rh (1 + Rl).
  float T = 0.5f * R2 + (0.5f * R2l + Rh * R2 * Q); // e^Rh - 1 - Rh
  float E;
  float H = fastTwoSumF(1.0f, Rh, &E);
  *Yh = H;
  *Yl = E + (T + Rl * (1.0f + (Rh + T)));
  return (int32_t)Kf;
}

// e^x - 1 as a float-float (*Lo), for x in [-20, 89] (callers clamp): the
// subtraction of 1 is exact (TwoSum), so small x keep full relative
// accuracy. Shared by expm1, sinh and tanh.
static inline float expm1CoreF(float X, float *Lo) {
  float Yh, Yl;
  int32_t K = expCoreF(X, 0.0f, &Yh, &Yl);
  float E;
  float S = twoSumF(scale2F(Yh, K), -1.0f, &E);
  return fastTwoSumF(S, E + scale2F(Yl, K), Lo);
}

#endif // VF_STDLIB_MATH_INTERNALF_H
