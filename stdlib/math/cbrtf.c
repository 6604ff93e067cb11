//===- stdlib/math/cbrtf.c - Cube root in single precision ----------------===//
//
// As cbrt.c: x = 2^(3q + rem) m, a polynomial seed for (2^rem m)^(-1/3),
// two division-free Newton steps (w' = w (4 - a w^3) / 3, quadratic
// convergence: 2^-7.7 -> 2^-15 -> 2^-30), y = a w^2, then one correction
// y - (y^3 - a) w^2 / 3 with the residual y^3 - a formed exactly from
// TwoProds, so the result is within a hair of correctly rounded (Newton's
// iteration for a^(-1/3), as in Muller, "Elementary Functions").
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

float vf_cbrtf(float X) {
  float AX = absF(X);
  // Subnormals: scale by 2^24 (a multiple of 3) first.
  int Sub = AX < 0x1p-126f;
  float A = Sub ? AX * 0x1p24f : AX;
  uint32_t U = asU32(A);
  // e + 150 is in [1, 277]; 21846 / 2^16 divides it by 3 exactly enough
  // that the floor is right for every such value.
  int32_t Eb = (int32_t)(U >> 23) + 23;
  int32_t Q3 = (Eb * 21846) >> 16;
  int32_t Rem = Eb - 3 * Q3;
  float M = asF32((U & 0x7fffffu) | 0x3f800000u);
  M = M * (Rem == 0 ? 1.0f : (Rem == 1 ? 2.0f : 4.0f));

  const float *C = CbrtSeedF;
  float W = fmaF(M * M, fmaF(M, fmaF(M, C[5], C[4]), C[3]) * M + C[2],
                 fmaF(M, C[1], C[0]));
  for (int I = 0; I < 2; ++I) {
    float W3 = W * W * W;
    W = W * (4.0f - M * W3) * (1.0f / 3.0f);
  }
  float W2 = W * W;
  float Y = M * W2;
  // Residual Y^3 - M with Y^2 and Y^3 as float-floats.
  float Y2l;
  float Y2h = twoProdF(Y, Y, &Y2l);
  float Y3l;
  float Y3h = twoProdF(Y2h, Y, &Y3l);
  Y3l = fmaF(Y2l, Y, Y3l);
  float Res = (Y3h - M) + Y3l;
  Y = Y - Res * W2 * (1.0f / 3.0f);

  int32_t Q = Q3 - 50 - (Sub ? 8 : 0);
  float R = Y * pow2iF(Q);
  // +-0, +-inf and NaN are their own cube roots.
  R = (AX == 0.0f || !(AX < __builtin_inff())) ? AX + AX : R;
  return copySignF(R, X);
}
