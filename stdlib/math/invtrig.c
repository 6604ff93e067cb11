//===- stdlib/math/invtrig.c - asin, acos, atan, atan2 --------------------===//
//
// atan and atan2 share one core: atan(n/d) for n, d >= 0 is reduced to
// |t| <= tan(pi/8) by choosing, per lane, t = n/d (base 0),
// t = (n - d)/(n + d) (base pi/4) or t = -d/n (base pi/2), with the quotient
// formed as a double-double from one division. An odd near-minimax
// polynomial gives atan t, and the base is added exactly (TwoSum).
//
// asin and acos share the classic half-angle identity
// asin x = pi/2 - 2 asin(sqrt((1 - x)/2)) for |x| > 1/2, so one polynomial
// on [0, 1/2] serves both; the square root is carried as a double-double.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#define VF_PIO2_HI 0x1.921fb54442d18p0
#define VF_PIO2_LO 0x1.1a62633145c07p-54
#define VF_PI_HI 0x1.921fb54442d18p1
#define VF_PI_LO 0x1.1a62633145c07p-53
#define VF_PIO4_HI 0x1.921fb54442d18p-1
#define VF_PIO4_LO 0x1.1a62633145c07p-55
#define VF_TAN_PI8 0x1.a827999fcef32p-2
#define VF_TAN_3PI8 0x1.3504f333f9de6p1

// atan(N/D) in [0, pi/2] as *Lo + return value, for finite N, D >= 0 not
// both zero, scaled so that the residual N - t D stays clear of underflow.
static inline double atanCore(double N, double D, double *Lo) {
  int Low = N <= VF_TAN_PI8 * D;
  int High = N >= VF_TAN_3PI8 * D;
  double Nl, Dl;
  double Nh = twoSum(N, -D, &Nl);
  double Dh = twoSum(N, D, &Dl);
  Nh = Low ? N : (High ? -D : Nh);
  Nl = (Low || High) ? 0.0 : Nl;
  Dh = Low ? D : (High ? N : Dh);
  Dl = (Low || High) ? 0.0 : Dl;
  double BaseH = Low ? 0.0 : (High ? VF_PIO2_HI : VF_PIO4_HI);
  double BaseL = Low ? 0.0 : (High ? VF_PIO2_LO : VF_PIO4_LO);
  // t = (Nh + Nl)/(Dh + Dl) as a double-double.
  double Inv = 1.0 / Dh;
  double Th = Nh * Inv;
  double Tl = (fmaD(-Th, Dh, Nh) + (Nl - Th * Dl)) * Inv;
  // atan(th + tl) = th + th^3 A(th^2) + tl / (1 + th^2).
  double U = Th * Th;
  double U2 = U * U, U4 = U2 * U2;
  const double *C = AtanA;
  double P = C[0] + U * C[1] + U2 * (C[2] + U * C[3]) +
             U4 * (C[4] + U * C[5] + U2 * (C[6] + U * C[7])) +
             (U4 * U4) * (C[8] + U * C[9] + U2 * (C[10] + U * C[11]) +
                          U4 * (C[12] + U * C[13]));
  double E;
  double H = twoSum(BaseH, Th, &E);
  *Lo = E + (BaseL + (Th * U * P + Tl * (1.0 - U)));
  return H;
}

double vf_atan(double X) {
  double AX = absD(X);
  double Lo;
  double Hi = atanCore(AX < __builtin_inf() ? AX : 1.0, 1.0, &Lo);
  double R = Hi + Lo;
  R = isInf(X) ? VF_PIO2_HI : R;
  R = copySign(R, X);
  // Below 2^-27 atan x rounds to x (keeps -0 and subnormals exact); NaN in,
  // NaN out.
  return (AX < 0x1p-27 || isNaN(X)) ? X : R;
}

double vf_atan2(double Y, double X) {
  double AY = absD(Y), AX = absD(X);
  // Scale both by a power of 2 that brings the larger into [1, 4): the
  // ratio is unchanged, and the core's residuals (about 2^-53 of the
  // smaller) stay clear of the subnormal range unless the result is tiny.
  double Big = AY > AX ? AY : AX;
  int64_t Field = 2046 - (int64_t)(asU64(Big) >> 52);
  double Scale = asF64((uint64_t)(Field < 1 ? 1 : Field) << 52);
  double N = AY * Scale, D = AX * Scale;
  int Finite = AY < __builtin_inf() && AX < __builtin_inf() && AY > 0.0;
  double Lo;
  double Hi = atanCore(Finite ? N : 1.0, Finite ? D : 1.0, &Lo);
  // Infinities and zeros: atan2(+-0, x) = 0 before the quadrant fix-up.
  int YInf = isInf(Y), XInf = isInf(X);
  Hi = (YInf && !XInf) ? VF_PIO2_HI : Hi;
  Lo = (YInf && !XInf) ? VF_PIO2_LO : Lo;
  Hi = (YInf && XInf) ? VF_PIO4_HI : Hi;
  Lo = (YInf && XInf) ? VF_PIO4_LO : Lo;
  int Zero = AY == 0.0 || (XInf && !YInf);
  Hi = Zero ? 0.0 : Hi;
  Lo = Zero ? 0.0 : Lo;
  // x < 0 or x = -0: pi - atan(|y|/|x|), again exact in the high part.
  double E;
  double Ph = twoSum(VF_PI_HI, -Hi, &E);
  double R = signBit(X) ? Ph + (E + (VF_PI_LO - Lo)) : Hi + Lo;
  R = copySign(R, Y);
  return (isNaN(X) || isNaN(Y)) ? X + Y : R;
}

// asin of W + Wl where W^2 ~ U (U in [0, 1/4]): returns the part that is
// not W (so asin = W + return value).
static inline double asinTail(double W, double Wl, double U) {
  double U2 = U * U, U4 = U2 * U2, U8 = U4 * U4;
  const double *C = AsinP;
  double P = C[0] + U * C[1] + U2 * (C[2] + U * C[3]) +
             U4 * (C[4] + U * C[5] + U2 * (C[6] + U * C[7])) +
             U8 * (C[8] + U * C[9] + U2 * (C[10] + U * C[11]) +
                   U4 * (C[12] + U * C[13] + U2 * (C[14] + U * C[15])));
  return W * U * P + Wl;
}

// The shared reduction: for |x| <= 1/2, W = |x|, U = x^2; otherwise
// W + Wl = sqrt((1 - |x|)/2) and U = (1 - |x|)/2 (exact).
static inline double asinReduce(double AX, double *Wl, double *U) {
  int Small = AX <= 0.5;
  double Z = 0.5 * (1.0 - AX);
  double S = __builtin_sqrt(Z);
  // Wl = (Z - S^2) / (2S), the square root's missing bits.
  double Sl = fmaD(-S, S, Z) / (S > 0.0 ? 2.0 * S : 1.0);
  *Wl = Small ? 0.0 : Sl;
  *U = Small ? AX * AX : Z;
  return Small ? AX : S;
}

double vf_asin(double X) {
  double AX = absD(X);
  double Wl, U;
  double W = asinReduce(AX, &Wl, &U);
  double T = asinTail(W, Wl, U);
  // |x| > 1/2: pi/2 - 2 (W + T).
  double E;
  double Bh = twoSum(VF_PIO2_HI, -2.0 * W, &E);
  double Big = Bh + (E + (VF_PIO2_LO - 2.0 * T));
  double R = AX <= 0.5 ? W + T : Big;
  R = copySign(R, X);
  // |x| > 1 already gives NaN through sqrt of a negative number.
  return AX < 0x1p-27 ? X : R;
}

double vf_acos(double X) {
  double AX = absD(X);
  double Wl, U;
  double W = asinReduce(AX, &Wl, &U);
  double T = asinTail(W, Wl, U);
  // |x| <= 1/2: pi/2 - asin x, with the sign of x on W + T.
  double Ws = copySign(W, X), Ts = copySign(1.0, X) * T;
  double E1;
  double H1 = twoSum(VF_PIO2_HI, -Ws, &E1);
  double Mid = H1 + (E1 + (VF_PIO2_LO - Ts));
  // x > 1/2: 2 asin(sqrt((1 - x)/2)); x < -1/2: pi - that.
  double Pos = 2.0 * (W + T);
  double E2;
  double H2 = twoSum(VF_PI_HI, -2.0 * W, &E2);
  double Neg = H2 + (E2 + (VF_PI_LO - 2.0 * T));
  double R = AX <= 0.5 ? Mid : (X > 0.0 ? Pos : Neg);
  return isNaN(X) ? X : R;
}
