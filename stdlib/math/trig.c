//===- stdlib/math/trig.c - sin, cos, tan ---------------------------------===//
//
// vf_sin, vf_cos and vf_tan share two argument reductions and one pair of
// polynomials on |r| <= pi/4.
//
// For |x| < 2^30 the reduction is Cody-Waite (reduceCW), inline and
// branch-free. Beyond, and for infinities and NaN, the entry point calls
// vf__sin_big (cos, tan), which are noinline: compiler/bitcode/
// MathLibrary.cpp gives them masked vector variants, so a vectorized loop
// stays vectorized and runs the slow path only in the lanes that need it,
// with the same scalar code as an unvectorized loop.
//
// The big path is a branch-free Payne-Hanek: for |x| = M 2^E (M a 53-bit
// integer), a table indexed by the exponent holds (2/pi) 2^E mod 4 cut into
// four doubles at fixed bit positions (2^-50, 2^-103, 2^-156, 2^-209). The
// products of M with the chunks are split exactly with fma; the part that
// is a multiple of 4 is dropped exactly, the nearest integer n is removed
// exactly, and the remaining fraction is summed with TwoSum so that it keeps
// ~150 bits absolute even after the worst cancellation (|x mod pi/2| can be
// as small as 2^-61). The same straight-line code serves every finite x.
//
// sin and cos of the reduced r = rh + rl are evaluated with a shared
// coefficient vector (the sin or the cos polynomial, chosen per lane by the
// quadrant) and an exact leading term, so the result is within ~0.6 ulp.
// tan divides the two as double-doubles.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

extern const double vf__trig_table[];
#define VF_TRIG_EMIN 995

#define VF_PIO2_HI 0x1.921fb54442d18p0
#define VF_PIO2_LO 0x1.1a62633145c07p-54

// Reduces AX (positive, finite, >= 2^-28) to AX = (n + f) pi/2 with
// |f| <= 1/2; returns n mod 4 and sets *Rh + *Rl = f pi/2.
static inline uint64_t reduce(double AX, double *Rh, double *Rl) {
  uint64_t U = asU64(AX);
  const double *T = &vf__trig_table[((U >> 52) - VF_TRIG_EMIN) * 4];
  // M = the 53-bit integer significand of AX, as a double.
  double M = asF64((U & 0x000fffffffffffffull) | 0x4330000000000000ull);
  // M*c0 is a multiple of 2^-50 below 2^55: drop the multiple of 4 exactly.
  double L0;
  double H0 = twoProd(M, T[0], &L0);
  double A = (H0 - 4.0 * __builtin_rint(H0 * 0.25)) + L0; // exact, |A| <= 6
  double L1;
  double H1 = twoProd(M, T[1], &L1); // |H1| < 8
  double Es;
  double S = twoSum(A, H1, &Es);
  double N = __builtin_rint(S);
  double D = S - N; // exact, |D| <= 1/2
  double L2;
  double H2 = twoProd(M, T[2], &L2); // |H2| < 2^-50
  double P3 = M * T[3];               // |P3| < 2^-103
  // Sum the fraction D + Es + L1 + H2 + (tiny) with every big rounding error
  // kept: when D cancels against the others, what survives is exact.
  double Ea, Eb, Ec;
  double Sa = twoSum(Es, L1, &Ea);
  double Sb = twoSum(Sa, H2, &Eb);
  double Sc = twoSum(D, Sb, &Ec);
  double Tail = ((Ea + Eb) + Ec) + (L2 + P3);
  double Fl;
  double Fh = fastTwoSum(Sc, Tail, &Fl);
  // r = f * pi/2 as a double-double.
  double Pl;
  double Ph = twoProd(Fh, VF_PIO2_HI, &Pl);
  *Rh = Ph;
  *Rl = Pl + (Fh * VF_PIO2_LO + Fl * VF_PIO2_HI);
  return asU64(N + VF_SHIFTER) & 3;
}

// For IsSin (per lane): sin(rh + rl), else cos(rh + rl); |r| <= pi/4. The
// result is *Lo + the return value, with the return value the exact leading
// term.
static inline double sinOrCos(int IsSin, double Rh, double Rl, double *Lo) {
  double U = Rh * Rh;
  double U2 = U * U;
  double C[7];
  for (int I = 0; I < 7; ++I)
    C[I] = IsSin ? SinS[I] : CosC[I];
  double P = C[0] + U * C[1] + U2 * (C[2] + U * C[3]) +
             (U2 * U2) * (C[4] + U * C[5] + U2 * C[6]);
  // sin r = rh + (rh^3 S(u) + rl (1 - u/2)).
  double SinLo = Rh * U * P + Rl * (1.0 - 0.5 * U);
  // cos r = 1 - rh^2/2 + rh^4 C(u) - rh rl, with 1 - u/2 split exactly and
  // the rounding error of u = rh^2 put back.
  double Ue = fmaD(Rh, Rh, -U);
  double Hz = 0.5 * U;
  double W = 1.0 - Hz;
  double CosLo = ((1.0 - W) - Hz) + (U2 * P - (Rh * Rl + 0.5 * Ue));
  *Lo = IsSin ? SinLo : CosLo;
  return IsSin ? Rh : W;
}

// AX reduced for the table: tiny, infinite and NaN arguments get a harmless
// stand-in (their results are selected separately).
static inline double tableArg(double AX) {
  return (AX >= 0x1p-28 && AX < __builtin_inf()) ? AX : 1.0;
}

// Below this bound the Cody-Waite reduction is used; at and above it (and
// for infinities and NaN) the vf__*_big functions.
#define VF_TRIG_CW_MAX 0x1p30

#define VF_INV_PIO2 0x1.45f306dc9c883p-1
#define VF_PIO2_3 -0x1.f1976b7ed8fbcp-110

// Cody-Waite: reduces AX (0 <= AX < 2^30; anything else gives a harmless
// garbage result, replaced by the caller) to AX = n pi/2 + (*Rh + *Rl) and
// returns n mod 4. pi/2 is P1 + P2 + P3 (161 bits). n < 2^30: n P1 is exact in
// the fma, and AX - n P1 (below 1, a multiple of the smaller of ulp(AX) and
// 2^-52) is exact; n P2 is split exactly; n P3 and the bits of pi/2 beyond P3
// cost < 2^-129 absolute. The reduced argument of a double below 2^30 is never
// below 2^-60.5 (x = 29 pi/2 rounded; continued fractions of 2^k pi/2), so r
// keeps a relative error below 2^-68.
static inline uint64_t reduceCW(double AX, double *Rh, double *Rl) {
  double Nd = __builtin_rint(AX * VF_INV_PIO2);
  double R1 = fmaD(-Nd, VF_PIO2_HI, AX);
  double Pl;
  double Ph = twoProd(Nd, VF_PIO2_LO, &Pl);
  double E;
  double S = twoSum(R1, -Ph, &E);
  double Tail = E - (Pl + Nd * VF_PIO2_3);
  *Rh = fastTwoSum(S, Tail, Rl);
  return asU64(Nd + VF_SHIFTER) & 3;
}

// sin, cos, tan of the reduced argument in quadrant Q, with the sign and
// the tiny-argument cases applied; infinite and NaN X are the caller's.
static inline double sinFinish(double X, double AX, uint64_t Q, double Rh,
                               double Rl) {
  // sin: quadrant 0 -> sin r, 1 -> cos r, 2 -> -sin r, 3 -> -cos r.
  double Lo;
  double Hi = sinOrCos((Q & 1) == 0, Rh, Rl, &Lo);
  double R = Hi + Lo;
  R = (Q & 2) ? -R : R;
  R = copySign(1.0, X) * R;
  return AX < 0x1p-28 ? X : R;
}

static inline double cosFinish(double AX, uint64_t Q, double Rh, double Rl) {
  // cos: quadrant 0 -> cos r, 1 -> -sin r, 2 -> -cos r, 3 -> sin r.
  double Lo;
  double Hi = sinOrCos((Q & 1) == 1, Rh, Rl, &Lo);
  double R = Hi + Lo;
  R = ((Q + 1) & 2) ? -R : R;
  return AX < 0x1p-28 ? 1.0 : R;
}

static inline double tanFinish(double X, double AX, uint64_t Q, double Rh,
                               double Rl) {
  double Sl, Cl;
  double Sh = sinOrCos(1, Rh, Rl, &Sl);
  double Ch = sinOrCos(0, Rh, Rl, &Cl);
  Sh = fastTwoSum(Sh, Sl, &Sl);
  Ch = fastTwoSum(Ch, Cl, &Cl);
  // tan = sin r / cos r in even quadrants, -cos r / sin r in odd ones.
  int Odd = (Q & 1) != 0;
  double Nh = Odd ? Ch : Sh, Nl = Odd ? Cl : Sl;
  double Dh = Odd ? Sh : Ch, Dl = Odd ? Sl : Cl;
  // Double-double quotient: one division, the rest fma.
  double Inv = 1.0 / Dh;
  double Th = Nh * Inv;
  double Tl = (fmaD(-Th, Dh, Nh) + (Nl - Th * Dl)) * Inv;
  double R = Th + Tl;
  R = Odd ? -R : R;
  R = copySign(1.0, X) * R;
  return AX < 0x1p-28 ? X : R;
}

// The big-argument paths: Payne-Hanek, for |X| >= 2^30, infinities and NaN.
// They stay out of line (noinline): compiler/bitcode/MathLibrary.cpp gives
// each a masked vector variant, so a vectorized loop calls them only for the
// lanes that need them.
__attribute__((noinline, const)) double vf__sin_big(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduce(tableArg(AX), &Rh, &Rl);
  double R = sinFinish(X, AX, Q, Rh, Rl);
  return AX < __builtin_inf() ? R : X - X;
}

__attribute__((noinline, const)) double vf__cos_big(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduce(tableArg(AX), &Rh, &Rl);
  double R = cosFinish(AX, Q, Rh, Rl);
  return AX < __builtin_inf() ? R : X - X;
}

__attribute__((noinline, const)) double vf__tan_big(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduce(tableArg(AX), &Rh, &Rl);
  double R = tanFinish(X, AX, Q, Rh, Rl);
  return AX < __builtin_inf() ? R : X - X;
}

double vf_sin(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduceCW(AX, &Rh, &Rl);
  double R = sinFinish(X, AX, Q, Rh, Rl);
  if (__builtin_expect(!(AX < VF_TRIG_CW_MAX), 0))
    R = vf__sin_big(X);
  return R;
}

double vf_cos(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduceCW(AX, &Rh, &Rl);
  double R = cosFinish(AX, Q, Rh, Rl);
  if (__builtin_expect(!(AX < VF_TRIG_CW_MAX), 0))
    R = vf__cos_big(X);
  return R;
}

double vf_tan(double X) {
  double AX = absD(X);
  double Rh, Rl;
  uint64_t Q = reduceCW(AX, &Rh, &Rl);
  double R = tanFinish(X, AX, Q, Rh, Rl);
  if (__builtin_expect(!(AX < VF_TRIG_CW_MAX), 0))
    R = vf__tan_big(X);
  return R;
}
