//===- stdlib/math/erf.c - Error function and its complement ---------------===//
//
// |x| <= 3/4: erf x = x (2/sqrt(pi) + x^2 E(x^2)), E near-minimax, with the
// leading product kept as a double-double so that 1 - erf x stays accurate
// (erfc uses it only up to 1/2, where 1 - erf x > 0.47).
// Beyond: erfc x = e^(-x^2) g(x), where g(x) = erfc(x) e^(x^2) is smooth
// and slowly varying; it is approximated piecewise (nine pieces up to 28,
// degree 17 in x - mid, coefficients in coeffs.inc). x^2 is formed exactly
// (TwoProd) and passed as a double-double to the exp core, which avoids the
// usual loss for large x. Both paths are computed and the result selected,
// so there is no branch.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

#define VF_2_SQRTPI_HI 0x1.20dd750429b6dp0
#define VF_2_SQRTPI_LO 0x1.1ae3a914fed8p-56

// erf(AX) as *Lo + return value, for AX <= 3/4.
static inline double erfSmall(double AX, double *Lo) {
  double U = AX * AX;
  double U2 = U * U, U4 = U2 * U2;
  const double *C = ErfE;
  double P = C[0] + U * C[1] + U2 * (C[2] + U * C[3]) +
             U4 * (C[4] + U * C[5] + U2 * (C[6] + U * C[7])) +
             (U4 * U4) * (C[8] + U * C[9] + U2 * (C[10] + U * C[11]) +
                          U4 * C[12]);
  double Pl;
  double Ph = twoProd(AX, VF_2_SQRTPI_HI, &Pl);
  *Lo = Pl + AX * (VF_2_SQRTPI_LO + U * P);
  return Ph;
}

// erfc(A) for A in [1/2, 28); underflows to 0 past 27.3. Always inlined
// (as erff.c's erfcLargeF): left a call, it kept a loop of erf or erfc
// from vectorizing.
__attribute__((always_inline)) static inline double erfcLarge(double A) {
  int J = 0;
  for (int I = 1; I < 9; ++I)
    J += A >= ErfcBreaks[I];
  double S = A - ErfcMid[J];
  const double *C = ErfcG[J];
  double G = C[17];
  for (int I = 16; I >= 1; --I)
    G = fmaD(G, S, C[I]);
  // Last Horner step and the product with e^(-x^2) as double-doubles: the
  // only rounding left is the final one.
  double Pl;
  double Ph = twoProd(G, S, &Pl);
  double Gl;
  double Gh = twoSum(C[0], Ph, &Gl);
  Gl += Pl;
  double Ql;
  double Qh = twoProd(A, A, &Ql);
  double Yh, Yl;
  double Kd = expCore(-Qh, -Ql, &Yh, &Yl);
  double Rl;
  double Rh = twoProd(Yh, Gh, &Rl);
  return scale2(Rh + (Rl + (Yh * Gl + Yl * Gh)), Kd);
}

double vf_erf(double X) {
  double AX = absD(X);
  double Lo;
  double Hi = erfSmall(AX <= 0.75 ? AX : 0.75, &Lo);
  double Small = Hi + Lo;
  double A = AX > 27.9 ? 27.9 : (AX < 0.75 ? 0.75 : AX);
  double Large = 1.0 - erfcLarge(A);
  double R = AX <= 0.75 ? Small : Large;
  R = copySign(R, X);
  // erf x ~ 2x/sqrt(pi) for tiny x (one rounding, so subnormals are right);
  // NaN passes through.
  R = AX < 0x1p-60 ? X * VF_2_SQRTPI_HI : R;
  return isNaN(X) ? X : R;
}

double vf_erfc(double X) {
  double AX = absD(X);
  double Lo;
  double Hi = erfSmall(AX <= 0.5 ? AX : 0.5, &Lo);
  // 1 -+ erf |x| with the subtraction exact in the high part.
  double E;
  double H = twoSum(1.0, signBit(X) ? Hi : -Hi, &E);
  double Small = H + (E + (signBit(X) ? Lo : -Lo));
  double A = AX > 27.9 ? 27.9 : (AX < 0.5 ? 0.5 : AX);
  double C = erfcLarge(A);
  double Large = signBit(X) ? 2.0 - C : C;
  double R = AX <= 0.5 ? Small : Large;
  return isNaN(X) ? X : R;
}
