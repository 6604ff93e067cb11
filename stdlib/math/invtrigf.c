//===- stdlib/math/invtrigf.c - asin, acos, atan, atan2 in single precision
//===//
//
// The method of invtrig.c in floats: atan and atan2 share one core,
// atan(n/d) for n, d >= 0 reduced to |t| <= tan(pi/8) by choosing per lane
// t = n/d (base 0), (n - d)/(n + d) (base pi/4) or -d/n (base pi/2), the
// quotient a float-float from one division, an odd near-minimax polynomial,
// the base added exactly (TwoSum). asin and acos use the half-angle
// identity asin x = pi/2 - 2 asin(sqrt((1 - x)/2)) for |x| > 1/2, with the
// square root as a float-float, so one polynomial on [0, 1/2] serves both.
// Both reductions are the classical ones (Muller, "Elementary Functions").
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

#define VF_PIO2F_HI 0x1.921fb6p0f
#define VF_PIO2F_LO -0x1.777a5cp-25f
#define VF_PIF_HI 0x1.921fb6p1f
#define VF_PIF_LO -0x1.777a5cp-24f
#define VF_PIO4F_HI 0x1.921fb6p-1f
#define VF_PIO4F_LO -0x1.777a5cp-26f
#define VF_TAN_PI8F 0x1.a8279ap-2f
#define VF_TAN_3PI8F 0x1.3504f4p1f

// atan(N/D) in [0, pi/2] as return value + *Lo, for finite N, D >= 0 not
// both zero, scaled so that the residual N - t D stays clear of underflow.
static inline float atanCoreF(float N, float D, float *Lo) {
  int Low = N <= VF_TAN_PI8F * D;
  int High = N >= VF_TAN_3PI8F * D;
  float Nl, Dl;
  float Nh = twoSumF(N, -D, &Nl);
  float Dh = twoSumF(N, D, &Dl);
  Nh = Low ? N : (High ? -D : Nh);
  Nl = (Low || High) ? 0.0f : Nl;
  Dh = Low ? D : (High ? N : Dh);
  Dl = (Low || High) ? 0.0f : Dl;
  float BaseH = Low ? 0.0f : (High ? VF_PIO2F_HI : VF_PIO4F_HI);
  float BaseL = Low ? 0.0f : (High ? VF_PIO2F_LO : VF_PIO4F_LO);
  // t = (Nh + Nl)/(Dh + Dl) as a float-float.
  float Inv = 1.0f / Dh;
  float Th = Nh * Inv;
  float Tl = (fmaF(-Th, Dh, Nh) + (Nl - Th * Dl)) * Inv;
  // atan(th + tl) = th + th^3 A(th^2) + tl / (1 + th^2).
  float U = Th * Th;
  const float *C = AtanAF;
  float P = poly6F(U, C);
  float E;
  float H = twoSumF(BaseH, Th, &E);
  *Lo = E + (BaseL + fmaF(Th * U, P, Tl * (1.0f - U)));
  return H;
}

float vf_atanf(float X) {
  float AX = absF(X);
  float Lo;
  float Hi = atanCoreF(AX < __builtin_inff() ? AX : 1.0f, 1.0f, &Lo);
  float R = Hi + Lo;
  R = isInfF(X) ? VF_PIO2F_HI : R;
  R = copySignF(R, X);
  // Below 2^-13 atan x rounds to x (keeps -0 and subnormals exact); NaN in,
  // NaN out.
  return (AX < 0x1p-13f || isNaNF(X)) ? X : R;
}

float vf_atan2f(float Y, float X) {
  float AY = absF(Y), AX = absF(X);
  // Scale both by a power of 2 that brings the larger into [1, 4): the
  // ratio is unchanged, and the core's residuals stay clear of the
  // subnormal range unless the result is tiny.
  float Big = AY > AX ? AY : AX;
  int32_t Field = 254 - (int32_t)(asU32(Big) >> 23);
  float Scale = asF32((uint32_t)(Field < 1 ? 1 : Field) << 23);
  float N = AY * Scale, D = AX * Scale;
  int Finite = AY < __builtin_inff() && AX < __builtin_inff() && AY > 0.0f;
  float Lo;
  float Hi = atanCoreF(Finite ? N : 1.0f, Finite ? D : 1.0f, &Lo);
  // Infinities and zeros: atan2(+-0, x) = 0 before the quadrant fix-up.
  int YInf = isInfF(Y), XInf = isInfF(X);
  Hi = (YInf && !XInf) ? VF_PIO2F_HI : Hi;
  Lo = (YInf && !XInf) ? VF_PIO2F_LO : Lo;
  Hi = (YInf && XInf) ? VF_PIO4F_HI : Hi;
  Lo = (YInf && XInf) ? VF_PIO4F_LO : Lo;
  // |y| < 2^-13 |x|: atan(y/x) rounds as y/x does, and the division of the
  // unscaled values rounds once where the result is subnormal (the scaled
  // N would have lost bits there).
  int TinyQ = AY < 0x1p-13f * AX;
  Hi = TinyQ ? AY / AX : Hi;
  Lo = TinyQ ? 0.0f : Lo;
  int Zero = AY == 0.0f || (XInf && !YInf);
  Hi = Zero ? 0.0f : Hi;
  Lo = Zero ? 0.0f : Lo;
  // x < 0 or x = -0: pi - atan(|y|/|x|), again exact in the high part.
  float E;
  float Ph = twoSumF(VF_PIF_HI, -Hi, &E);
  float R = (asU32(X) >> 31) ? Ph + (E + (VF_PIF_LO - Lo)) : Hi + Lo;
  R = copySignF(R, Y);
  return (isNaNF(X) || isNaNF(Y)) ? X + Y : R;
}

// asin of W + Wl where W^2 ~ U (U in [0, 1/4]): returns the part that is
// not W (so asin = W + return value).
static inline float asinTailF(float W, float Wl, float U) {
  const float *C = AsinPF;
  float P = poly6F(U, C);
  return fmaF(W * U, P, Wl);
}

// The shared reduction: for |x| <= 1/2, W = |x|, U = x^2; otherwise
// W + Wl = sqrt((1 - |x|)/2) and U = (1 - |x|)/2 (exact).
static inline float asinReduceF(float AX, float *Wl, float *U) {
  int Small = AX <= 0.5f;
  float Z = 0.5f * (1.0f - AX);
  float S = __builtin_sqrtf(Z);
  // Wl = (Z - S^2) / (2S), the square root's missing bits.
  float Sl = fmaF(-S, S, Z) / (S > 0.0f ? 2.0f * S : 1.0f);
  *Wl = Small ? 0.0f : Sl;
  *U = Small ? AX * AX : Z;
  return Small ? AX : S;
}

float vf_asinf(float X) {
  float AX = absF(X);
  float Wl, U;
  float W = asinReduceF(AX, &Wl, &U);
  float T = asinTailF(W, Wl, U);
  // |x| > 1/2: pi/2 - 2 (W + T).
  float E;
  float Bh = twoSumF(VF_PIO2F_HI, -2.0f * W, &E);
  float Big = Bh + (E + (VF_PIO2F_LO - 2.0f * T));
  float R = AX <= 0.5f ? W + T : Big;
  R = copySignF(R, X);
  // |x| > 1 already gives NaN through sqrt of a negative number.
  return AX < 0x1p-12f ? X : R;
}

float vf_acosf(float X) {
  float AX = absF(X);
  float Wl, U;
  float W = asinReduceF(AX, &Wl, &U);
  float T = asinTailF(W, Wl, U);
  // |x| <= 1/2: pi/2 - asin x, with the sign of x on W + T.
  float Ws = copySignF(W, X), Ts = copySignF(1.0f, X) * T;
  float E1;
  float H1 = twoSumF(VF_PIO2F_HI, -Ws, &E1);
  float Mid = H1 + (E1 + (VF_PIO2F_LO - Ts));
  // x > 1/2: 2 asin(sqrt((1 - x)/2)); x < -1/2: pi - that.
  float Pos = 2.0f * (W + T);
  float E2;
  float H2 = twoSumF(VF_PIF_HI, -2.0f * W, &E2);
  float Neg = H2 + (E2 + (VF_PIF_LO - 2.0f * T));
  float R = AX <= 0.5f ? Mid : (X > 0.0f ? Pos : Neg);
  return isNaNF(X) ? X : R;
}
