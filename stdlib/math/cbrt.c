//===- stdlib/math/cbrt.c - Cube root --------------------------------------===//
//
// vf_cbrt: write |x| = 2^(3q) m with m in [1, 8), take a coarse polynomial
// seed for m^(-1/3), refine it with division-free Newton steps
// w <- w (4 - m w^3) / 3, form y = m w^2 ~ m^(1/3), and finish with one
// correction y -= (y^3 - m) w^2 / 3 whose residual y^3 - m is computed
// exactly with fma. The last step squares an error near 2^-48, so y is far
// more accurate than the final rounding.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

double vf_cbrt(double X) {
  double AX = absD(X);
  // Subnormals: scale by 2^54 (a multiple of 3) first.
  int Sub = AX < 0x1p-1022;
  double A = Sub ? AX * 0x1p54 : AX;
  uint64_t U = asU64(A);
  // Unbiased exponent, as a double, via the shifter (vectorises on AVX2).
  double Ed = asF64(0x4330000000000000ull | (U >> 52)) - 0x1p52 - 1023.0;
  // q = floor(e/3); the small bias keeps exact thirds on the right side.
  double Qd = __builtin_floor(Ed * (1.0 / 3.0) + 0x1p-20);
  double Rem = Ed - 3.0 * Qd; // 0, 1 or 2
  double M = asF64((U & 0x000fffffffffffffull) | 0x3ff0000000000000ull);
  M = M * (Rem == 0.0 ? 1.0 : (Rem == 1.0 ? 2.0 : 4.0));

  const double *C = CbrtSeed;
  double W = C[0] + M * (C[1] + M * (C[2] + M * (C[3] + M * (C[4] +
             M * (C[5] + M * C[6])))));
  // Three Newton steps: 2^-9 -> 2^-17 -> 2^-33 -> 2^-64 (before rounding).
  for (int I = 0; I < 3; ++I) {
    double W3 = W * W * W;
    W = W * (4.0 - M * W3) * (1.0 / 3.0);
  }
  double W2 = W * W;
  double Y = M * W2;
  // Residual Y^3 - M with Y^2 and Y^3 as double-doubles.
  double Y2l;
  double Y2h = twoProd(Y, Y, &Y2l);
  double Y3l;
  double Y3h = twoProd(Y2h, Y, &Y3l);
  Y3l = fmaD(Y2l, Y, Y3l);
  double Res = (Y3h - M) + Y3l;
  Y = Y - Res * W2 * (1.0 / 3.0);

  double Q = Sub ? Qd - 18.0 : Qd;
  double R = Y * pow2i(toInt(Q));
  // +-0, +-inf and NaN are their own cube roots.
  R = (AX == 0.0 || !(AX < __builtin_inf())) ? AX + AX : R;
  return copySign(R, X);
}
