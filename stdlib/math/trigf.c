//===- stdlib/math/trigf.c - sin, cos, tan in single precision ------------===//
//
// For |x| < 2^17, a Cody-Waite reduction inline: n = rint(x 2/pi), pi/2 in
// three floats, x - n P1 exact with fmaf, n P2 split exactly with TwoProd,
// so r = x - n pi/2 comes out as a float-float with an absolute error near
// 2^-52. Larger arguments, inf and NaN branch to out-of-line functions
// (vf__sinf_big, ...: Payne-Hanek in integer arithmetic), which
// linkMathLibrary gives masked vector variants, as for trig.c. The
// kernels are near-minimax polynomials on |r| <= pi/4 (degree 3 in r^2)
// with exact leading terms; tan divides sine by cosine as float-floats.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

// pi/2 in three floats (P1, P2 of 24 bits each, P3 rounded).
#define VF_PIO2F_1 0x1.921fb6p0f
#define VF_PIO2F_2 -0x1.777a5cp-25f
#define VF_PIO2F_3 -0x1.ee59dap-50f
#define VF_TWO_OVER_PIF 0x1.45f306p-1f

// Below this, the inline reduction keeps r's relative error under 2^-24
// even at the closest approach of a float to a multiple of pi/2.
#define VF_TRIGF_FAST 0x1p17f

// sin(Rh + Rl) = *Sh + *Sl for |Rh| <= pi/4; *Sh + *Sl rounds once. r^3 is
// formed as a float-float (its rounding would cost tan a quarter ulp).
static inline void sinKernelF(float Rh, float Rl, float *Sh, float *Sl) {
  float Ul;
  float U = twoProdF(Rh, Rh, &Ul);
  float R3l;
  float R3 = twoProdF(Rh, U, &R3l);
  R3l = fmaF(Rh, Ul, R3l);
  const float *C = SinSF;
  float P = fmaF(U * U, fmaF(U, C[3], C[2]), fmaF(U, C[1], C[0]));
  *Sh = Rh;
  // sin(Rh + Rl) = sin Rh + Rl cos Rh, cos Rh ~ 1 - U/2.
  *Sl = fmaF(R3, P, fmaF(R3l, P, Rl * (1.0f - 0.5f * U)));
}

// cos(Rh + Rl) = *Ch + *Cl for |Rh| <= pi/4: 1 - U/2 with U = Rh^2 formed
// exactly and the subtraction's error kept.
static inline void cosKernelF(float Rh, float Rl, float *Ch, float *Cl) {
  float Ul;
  float U = twoProdF(Rh, Rh, &Ul);
  const float *C = CosCF;
  float P = fmaF(U * U, fmaF(U, C[3], C[2]), fmaF(U, C[1], C[0]));
  float E;
  *Ch = fastTwoSumF(1.0f, -0.5f * U, &E);
  *Cl = E + (fmaF(U * U, P, -0.5f * Ul) - Rh * Rl);
}

// sin x (Cos = 0) or cos x (Cos = 1) from quadrant N and r.
static inline float sinCosF(int32_t N, float Rh, float Rl, int Cos) {
  float Sh, Sl, Ch, Cl;
  sinKernelF(Rh, Rl, &Sh, &Sl);
  cosKernelF(Rh, Rl, &Ch, &Cl);
  int32_t Q = (N + Cos) & 3;
  float R = (Q & 1) ? Ch + Cl : Sh + Sl;
  return (Q & 2) ? -R : R;
}

// tan x from quadrant N and r: sin r / cos r, or -cos r / sin r for odd N,
// as a float-float quotient (one division, the residual from fmaf).
static inline float tanF(int32_t N, float Rh, float Rl) {
  float Sh, Sl, Ch, Cl;
  sinKernelF(Rh, Rl, &Sh, &Sl);
  cosKernelF(Rh, Rl, &Ch, &Cl);
  // Normalized, so that 1/Dh is 1/(Dh + Dl) to first order.
  Sh = fastTwoSumF(Sh, Sl, &Sl);
  Ch = fastTwoSumF(Ch, Cl, &Cl);
  int Odd = N & 1;
  float Nh = Odd ? -Ch : Sh, Nl = Odd ? -Cl : Sl;
  float Dh = Odd ? Sh : Ch, Dl = Odd ? Sl : Cl;
  float Inv = 1.0f / Dh;
  float Q = Nh * Inv;
  float Res = fmaF(-Q, Dh, Nh) + (Nl - Q * Dl);
  return fmaF(Res, Inv, Q);
}

// n = rint(x 2/pi) and r = x - n pi/2 = *Rh + *Rl for |x| < 2^17.
static inline int32_t reduceFastF(float X, float *Rh, float *Rl) {
  float N = rintF(X * VF_TWO_OVER_PIF);
  float R1 = fmaF(-N, VF_PIO2F_1, X); // exact
  float Pl;
  float Ph = twoProdF(N, VF_PIO2F_2, &Pl);
  float Se;
  float S = twoSumF(R1, -Ph, &Se);
  float Low = (Se - Pl) - N * VF_PIO2F_3;
  *Rh = fastTwoSumF(S, Low, Rl);
  return (int32_t)N;
}

// V (|V| < 2^24, so the conversion is exact) times the power of 2 Scale.
static inline float chunkF(int64_t V, float Scale) { return (float)V * Scale; }

// Payne-Hanek for |x| >= 2^17 (finite), in integer arithmetic: x = M 2^E
// with M the 24-bit significand; the bits of 2/pi that matter are a 96-bit
// window W starting two bits above the binary point of x 2/pi, so that
// x 2/pi mod 4 = M W 2^-94; the product's top 64 fraction bits give the
// quadrant and r / (pi/2) as a signed fixed-point number, converted to a
// float-float in exact 24-bit chunks and multiplied by pi/2.
// (Payne and Hanek, "Radian reduction for trigonometric functions", 1983.)
static int32_t reduceBigF(float X, float *Rh, float *Rl) {
  uint32_t U = asU32(X) & 0x7fffffffu;
  uint64_t M = (U & 0x7fffffu) | 0x800000u;
  int32_t E = (int32_t)(U >> 23) - 150;
  // The window's first bit is bit J0 = E - 1 of 2/pi (weight 2^-J0).
  int32_t B = E - 1 + 31;
  const uint32_t *W = &vf__twoopi_words[B >> 5];
  uint32_t P = (uint32_t)B & 31;
  uint64_t A0 = ((uint64_t)W[0] << 32 | W[1]) << P;
  uint64_t A1 = ((uint64_t)W[1] << 32 | W[2]) << P;
  uint64_t A2 = ((uint64_t)W[2] << 32 | W[3]) << P;
  uint64_t Lo = M * (A2 >> 32);
  uint64_t Mid = M * (A1 >> 32) + (Lo >> 32);
  uint64_t Hi = M * (A0 >> 32) + (Mid >> 32);
  // Bits 2^1, 2^0 of x 2/pi are Hi's bits 31, 30; below them the fraction.
  uint64_t F = (Hi & 0x3fffffffu) << 34 | (Mid & 0xffffffffu) << 2 |
               (Lo & 0xffffffffu) >> 30;
  // Rounding to the nearest n: a fraction >= 1/2 reads as negative.
  int32_t N = (int32_t)(((Hi >> 30) + (F >> 63)) & 3);
  int64_t Fs = (int64_t)F;
  float Fh, Fl, E1;
  Fh = twoSumF(chunkF(Fs >> 40, 0x1p-24f),
               chunkF((Fs >> 16) & 0xffffff, 0x1p-48f), &Fl);
  Fh = twoSumF(Fh, chunkF(Fs & 0xffff, 0x1p-64f), &E1);
  Fl = Fl + E1 + chunkF((int64_t)(Lo & 0x3fffffffu) >> 6, 0x1p-88f);
  Fh = fastTwoSumF(Fh, Fl, &Fl);
  // r = f pi/2 with pi/2 as a float-float.
  float Pe;
  float Ph = twoProdF(Fh, VF_PIO2F_1, &Pe);
  float Low = Pe + (Fh * VF_PIO2F_2 + Fl * VF_PIO2F_1);
  *Rh = fastTwoSumF(Ph, Low, Rl);
  if (X < 0.0f) {
    *Rh = -*Rh;
    *Rl = -*Rl;
    N = -N;
  }
  return N;
}

// The slow paths: |x| >= 2^17, inf and NaN (sin, cos, tan of which are NaN).
__attribute__((noinline, const)) float vf__sinf_big(float X) {
  float Rh, Rl;
  int32_t N = reduceBigF(isInfF(X) ? 0x1p17f : X, &Rh, &Rl);
  float R = sinCosF(N, Rh, Rl, 0);
  return absF(X) < __builtin_inff() ? R : X - X;
}

__attribute__((noinline, const)) float vf__cosf_big(float X) {
  float Rh, Rl;
  int32_t N = reduceBigF(isInfF(X) ? 0x1p17f : X, &Rh, &Rl);
  float R = sinCosF(N, Rh, Rl, 1);
  return absF(X) < __builtin_inff() ? R : X - X;
}

__attribute__((noinline, const)) float vf__tanf_big(float X) {
  float Rh, Rl;
  int32_t N = reduceBigF(isInfF(X) ? 0x1p17f : X, &Rh, &Rl);
  float R = tanF(N, Rh, Rl);
  return absF(X) < __builtin_inff() ? R : X - X;
}

float vf_sinf(float X) {
  float Rh, Rl;
  int32_t N = reduceFastF(X, &Rh, &Rl);
  float R = sinCosF(N, Rh, Rl, 0);
  // sin(-0) = -0 (the reduction's sums would give +0).
  R = X == 0.0f ? X : R;
  if (__builtin_expect(!(absF(X) < VF_TRIGF_FAST), 0))
    R = vf__sinf_big(X);
  return R;
}

float vf_cosf(float X) {
  float Rh, Rl;
  int32_t N = reduceFastF(X, &Rh, &Rl);
  float R = sinCosF(N, Rh, Rl, 1);
  if (__builtin_expect(!(absF(X) < VF_TRIGF_FAST), 0))
    R = vf__cosf_big(X);
  return R;
}

float vf_tanf(float X) {
  float Rh, Rl;
  int32_t N = reduceFastF(X, &Rh, &Rl);
  float R = tanF(N, Rh, Rl);
  R = X == 0.0f ? X : R;
  if (__builtin_expect(!(absF(X) < VF_TRIGF_FAST), 0))
    R = vf__tanf_big(X);
  return R;
}
