//===- stdlib/math/erff.c - erf, erfc in single precision -----------------===//
//
// As erf.c: erf(x) = x (2/sqrt(pi) + x^2 E(x^2)) for |x| <= 3/4, as a
// float-float so that 1 - erf stays accurate; beyond,
// erfc(x) = e^(-x^2) g(x) with g = erfc e^(x^2) in eight polynomial pieces
// up to 10.125 (where erfc has underflowed), x^2 exact (TwoProd) and the
// last Horner step and the product as float-floats. Both paths are
// computed and the result selected, so there is no branch.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

#define VF_2_SQRTPIF_HI 0x1.20dd76p0f
#define VF_2_SQRTPIF_LO -0x1.f7ac92p-25f

// erf(AX) as return value + *Lo, for AX <= 3/4.
static inline float erfSmallF(float AX, float *Lo) {
  float U = AX * AX;
  const float *C = ErfEF;
  float P = poly6F(U, C);
  float Pl;
  float Ph = twoProdF(AX, VF_2_SQRTPIF_HI, &Pl);
  *Lo = Pl + AX * fmaF(U, P, VF_2_SQRTPIF_LO);
  return Ph;
}

// erfc(A) for A in [1/2, 10.125]; underflows to 0 past 10.05. Always
// inlined: erff and erfcf both call it, and left a call it would stop the
// loop vectorizer (linkMathLibrary marks only the entry points).
__attribute__((always_inline)) static inline float erfcLargeF(float A) {
  int J = 0;
  for (int I = 1; I < 9; ++I)
    J += A >= ErfcBreaksF[I];
  float S = A - ErfcMidF[J];
  const float *C = &ErfcGF[J * 11];
  float G = C[9];
  for (int I = 8; I >= 1; --I)
    G = fmaF(G, S, C[I]);
  // Last Horner step and the product with e^(-x^2) as float-floats: the
  // only rounding left is the final one.
  float Pl;
  float Ph = twoProdF(G, S, &Pl);
  float Gl;
  float Gh = twoSumF(C[0], Ph, &Gl);
  Gl += Pl + C[10];
  float Ql;
  float Qh = twoProdF(A, A, &Ql);
  float Yh, Yl;
  int32_t K = expCoreF(-Qh, -Ql, &Yh, &Yl);
  float Rl;
  float Rh = twoProdF(Yh, Gh, &Rl);
  return scale2F(Rh + (Rl + (Yh * Gl + Yl * Gh)), K);
}

float vf_erff(float X) {
  float AX = absF(X);
  float Lo;
  float Hi = erfSmallF(AX <= 0.75f ? AX : 0.75f, &Lo);
  float Small = Hi + Lo;
  float A = AX > 10.125f ? 10.125f : (AX < 0.5f ? 0.5f : AX);
  float Large = 1.0f - erfcLargeF(A);
  float R = AX <= 0.75f ? Small : Large;
  R = copySignF(R, X);
  // erf x ~ 2x/sqrt(pi) for tiny x (one rounding, so subnormals are right);
  // NaN passes through.
  float Tiny = fmaF(AX, VF_2_SQRTPIF_HI, AX * VF_2_SQRTPIF_LO);
  R = AX < 0x1p-30f ? copySignF(Tiny, X) : R;
  return isNaNF(X) ? X : R;
}

float vf_erfcf(float X) {
  float AX = absF(X);
  float Lo;
  // Only up to 1/2: nearer 3/4, 1 - erf would lose the polynomial's error.
  float Hi = erfSmallF(AX <= 0.5f ? AX : 0.5f, &Lo);
  // 1 -+ erf |x| with the subtraction exact in the high part.
  int Neg = asU32(X) >> 31;
  float E;
  float H = twoSumF(1.0f, Neg ? Hi : -Hi, &E);
  float Small = H + (E + (Neg ? Lo : -Lo));
  float A = AX > 10.125f ? 10.125f : (AX < 0.5f ? 0.5f : AX);
  float C = erfcLargeF(A);
  float Large = Neg ? 2.0f - C : C;
  float R = AX <= 0.5f ? Small : Large;
  return isNaNF(X) ? X : R;
}
