//===- stdlib/math/hyperf.c - sinh, cosh, tanh in single precision --------===//
//
// The formulas of hyper.c on the float exp core (internalf.h), which
// returns e^|x| = 2^K (Yh + Yl) as a float-float:
//   sinh = (E + E/(E + 1)) / 2 with E = e^|x| - 1 formed exactly (no
//          cancellation for small |x|),
//   cosh = (e^|x| + e^-|x|) / 2,
//   tanh = E / (E + 2) with E = e^(2|x|) - 1,
// each quotient as a float-float from one division. For |x| >= 10 the
// e^-|x| terms are below 2^-28 relative and sinh, cosh are e^|x| / 2,
// scaled in two steps so that they overflow only where the result does.
//
//===----------------------------------------------------------------------===//

#include "internalf.h"

/// e^|x| for sinh and cosh: returns K with e^min(|x|, 90) = 2^K (Yh + Yl),
/// and Dh + Dl = e^|x| itself while it is a plain float (K <= 20, so 2^K is
/// exact; the callers take another path beyond).
static inline int32_t expAbsF(float AX, float *Yh, float *Yl, float *Dh,
                              float *Dl) {
  float A = AX > 90.0f ? 90.0f : AX;
  int32_t K = expCoreF(A, 0.0f, Yh, Yl);
  *Yh = fastTwoSumF(*Yh, *Yl, Yl);
  float S = pow2iF(K < 20 ? K : 20);
  *Dh = S * *Yh;
  *Dl = S * *Yl;
  return K;
}

float vf_sinhf(float X) {
  float AX = absF(X);
  float Yh, Yl, Dh, Dl; // e^|x| = Dh + Dl
  int32_t K = expAbsF(AX, &Yh, &Yl, &Dh, &Dl);
  float El;
  float Eh = twoSumF(Dh, -1.0f, &El);
  El += Dl; // e^|x| - 1
  float Inv = 1.0f / Dh;
  float Qh = Eh * Inv;
  float Ql = (fmaF(-Qh, Dh, Eh) + (El - Qh * Dl)) * Inv; // E/(E + 1)
  float E;
  float H = twoSumF(Eh, Qh, &E);
  float Small = 0.5f * (H + (E + (El + Ql)));
  float Big = scale2F(Yh + Yl, K - 1);
  float R = AX < 10.0f ? Small : Big;
  R = copySignF(R, X);
  // sinh x rounds to x below 2^-12; NaN in, NaN out.
  return (AX < 0x1p-12f || isNaNF(X)) ? X : R;
}

float vf_coshf(float X) {
  float AX = absF(X);
  float Yh, Yl, Dh, Dl;
  int32_t K = expAbsF(AX, &Yh, &Yl, &Dh, &Dl);
  // 1 / (Dh + Dl) as a float-float.
  float Ih = 1.0f / Dh;
  float Il = (fmaF(-Ih, Dh, 1.0f) - Ih * Dl) * Ih;
  float E;
  float H = twoSumF(Dh, Ih, &E);
  float Small = 0.5f * (H + (E + (Dl + Il)));
  float Big = scale2F(Yh + Yl, K - 1);
  float R = AX < 10.0f ? Small : Big;
  return isNaNF(X) ? X + X : R;
}

float vf_tanhf(float X) {
  float AX = absF(X);
  // tanh(10) = 1 - 2^-27.9 rounds to 1, as does everything above.
  float A = AX > 10.0f ? 10.0f : AX;
  float Yh, Yl;
  int32_t K = expCoreF(2.0f * A, 0.0f, &Yh, &Yl);
  Yh = fastTwoSumF(Yh, Yl, &Yl);
  float S = pow2iF(K);
  float Dh = S * Yh, Dl = S * Yl; // e^(2|x|)
  float El;
  float Eh = twoSumF(Dh, -1.0f, &El);
  El += Dl; // E = e^(2|x|) - 1
  float Gl;
  float Gh = twoSumF(Dh, 1.0f, &Gl);
  Gl += Dl; // E + 2
  float Inv = 1.0f / Gh;
  float Qh = Eh * Inv;
  float Ql = (fmaF(-Qh, Gh, Eh) + (El - Qh * Gl)) * Inv;
  float R = copySignF(Qh + Ql, X);
  return (AX < 0x1p-12f || isNaNF(X)) ? X : R;
}
