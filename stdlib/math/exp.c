//===- stdlib/math/exp.c - e^x and e^x - 1 ---------------------------------===//
//
// vf_exp: a short fast path for |x| < 708 (the result is normal and 2^k one
// double), and the double-double core (internal.h) out of line for the
// rest: overflow, subnormal results rounded once, infinities, NaN.
// vf_expm1 on the core alone: Cody-Waite reduction by ln2 with an
// fma-exact first step, a near-minimax polynomial on |r| <= ln2/2, and the
// result scaled by 2^k in two normal factors. No branches there:
// out-of-range inputs are clamped so that the same arithmetic overflows to
// inf or underflows to 0, and NaN flows through.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

// e^x for |x| < 708, where 2^K is normal and the result is too: r = x - K ln2
// as a double-double (Cody-Waite, the second step's rounding kept),
// e^r = (1 + r) + (r^2 (1/2 + r Q9(r)) + r_lo) with 1 + r exact (FastTwoSum),
// so only the last addition rounds, then an exact scaling by 2^K. About 30
// vector operations, half of the core's.
static inline double expFast(double X) {
  // K = round(x / ln2) sits in the low bits of Ks.
  double Ks = fmaD(X, VF_INV_LN2, VF_SHIFTER);
  double Kd = Ks - VF_SHIFTER;
  double R1 = fmaD(-Kd, VF_LN2_HI, X);
  double R = fmaD(-Kd, VF_LN2_LO, R1);
  double Rl = fmaD(-Kd, VF_LN2_LO, R1 - R);
  double R2 = R * R;
  double R4 = R2 * R2;
  const double *C = ExpQ9;
  double Q03 = fmaD(R2, fmaD(R, C[3], C[2]), fmaD(R, C[1], C[0]));
  double Q47 = fmaD(R2, fmaD(R, C[7], C[6]), fmaD(R, C[5], C[4]));
  double Q = fmaD(R4, fmaD(R4, fmaD(R, C[9], C[8]), Q47), Q03);
  // 1 + r exactly as H + E (FastTwoSum), so only the last addition rounds.
  double E;
  double H = fastTwoSum(1.0, R, &E);
  double Y = H + (E + fmaD(R2, fmaD(R, Q, 0.5), Rl));
  return Y * asF64((asU64(Ks) - asU64(VF_SHIFTER) + 1023) << 52);
}

// Everything else: overflow, underflow (subnormal results rounded once),
// infinities and NaN, through the double-double core. Out of line, like
// vf__log_special (masked vector variants from linkMathLibrary).
__attribute__((noinline, const)) double vf__exp_special(double X) {
  // exp overflows above 709.78 and underflows below -745.13; clamping just
  // outside keeps K in range. NaN fails both compares and passes through.
  double Xc = X > 709.8 ? 709.8 : X;
  Xc = Xc < -745.2 ? -745.2 : Xc;
  double Yh, Yl;
  double Kd = expCore(Xc, 0.0, &Yh, &Yl);
  return scale2(Yh + Yl, Kd);
}

double vf_exp(double X) {
  double R = expFast(X);
  if (__builtin_expect(!(absD(X) < 708.0), 0))
    R = vf__exp_special(X);
  return R;
}

double vf_expm1(double X) {
  // Below -40, e^x - 1 rounds to -1; above 709, to e^x.
  double Xc = X > 709.8 ? 709.8 : X;
  Xc = Xc < -40.0 ? -40.0 : Xc;
  double Yh, Yl;
  double Kd = expCore(Xc, 0.0, &Yh, &Yl);
  // 2^K (Yh + Yl) - 1 with the subtraction of 1 exact (TwoSum); for K = 0
  // this is Yh - 1 + Yl, which keeps full relative accuracy for small x.
  double Kc = Kd > 1000.0 ? 1000.0 : Kd;
  double S = pow2i(toInt(Kc));
  double E;
  double H = twoSum(S * Yh, -1.0, &E);
  double Small = H + (E + S * Yl);
  // Where 2^K is not representable the -1 no longer matters.
  double Big = scale2(Yh + Yl, Kd);
  double R = Kd > 1000.0 ? Big : Small;
  // |x| < 2^-54: expm1(x) rounds to x; this also keeps the sign of -0.
  return absD(X) < 0x1p-54 ? X : R;
}
