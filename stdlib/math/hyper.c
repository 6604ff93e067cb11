//===- stdlib/math/hyper.c - sinh, cosh, tanh ------------------------------===//
//
// All three use the exp core (internal.h) on |x|, which returns
// e^|x| = 2^K (Yh + Yl) with ~2^-62 relative error:
//   sinh = (E + E/(E + 1)) / 2 with E = e^|x| - 1 formed exactly from the
//          core (no cancellation for small |x|),
//   cosh = (e^|x| + e^-|x|) / 2,
//   tanh = E / (E + 2) with E = e^(2|x|) - 1,
// each quotient as a double-double from one division. For |x| >= 22 the
// e^-|x| terms are below 2^-63 relative and sinh, cosh are e^|x| / 2,
// scaled in two steps so that they overflow only where the result does.
//
//===----------------------------------------------------------------------===//

#include "internal.h"

/// e^|x| for sinh and cosh: returns K with e^min(|x|, 711) = 2^K (Yh + Yl),
/// and Dh + Dl = e^|x| itself while it is a plain double (|x| small:
/// K <= 32, so 2^K is exact; the callers take another path beyond).
static inline double expAbs(double AX, double *Yh, double *Yl, double *Dh,
                            double *Dl) {
  double A = AX > 711.0 ? 711.0 : AX;
  double Kd = expCore(A, 0.0, Yh, Yl);
  *Yh = fastTwoSum(*Yh, *Yl, Yl);
  double S = pow2i(toInt(Kd < 40.0 ? Kd : 40.0));
  *Dh = S * *Yh;
  *Dl = S * *Yl;
  return Kd;
}

double vf_sinh(double X) {
  double AX = absD(X);
  double Yh, Yl, Dh, Dl; // e^|x| = Dh + Dl
  double Kd = expAbs(AX, &Yh, &Yl, &Dh, &Dl);
  double El;
  double Eh = twoSum(Dh, -1.0, &El);
  El += Dl; // e^|x| - 1
  double Inv = 1.0 / Dh;
  double Qh = Eh * Inv;
  double Ql = (fmaD(-Qh, Dh, Eh) + (El - Qh * Dl)) * Inv; // E/(E + 1)
  double E;
  double H = twoSum(Eh, Qh, &E);
  double Small = 0.5 * (H + (E + (El + Ql)));
  double Big = scale2(Yh + Yl, Kd - 1.0);
  double R = AX < 22.0 ? Small : Big;
  R = copySign(R, X);
  // sinh x rounds to x below 2^-28; NaN passes through Big.
  return AX < 0x1p-28 ? X : R;
}

double vf_cosh(double X) {
  double AX = absD(X);
  double Yh, Yl, Dh, Dl;
  double Kd = expAbs(AX, &Yh, &Yl, &Dh, &Dl);
  // 1 / (Dh + Dl) as a double-double.
  double Ih = 1.0 / Dh;
  double Il = (fmaD(-Ih, Dh, 1.0) - Ih * Dl) * Ih;
  double E;
  double H = twoSum(Dh, Ih, &E);
  double Small = 0.5 * (H + (E + (Dl + Il)));
  double Big = scale2(Yh + Yl, Kd - 1.0);
  return AX < 22.0 ? Small : Big;
}

double vf_tanh(double X) {
  double AX = absD(X);
  // tanh(20) = 1 - 2^-56.7 rounds to 1, as does everything above.
  double A = AX > 20.0 ? 20.0 : AX;
  double Yh, Yl;
  double Kd = expCore(2.0 * A, 0.0, &Yh, &Yl);
  Yh = fastTwoSum(Yh, Yl, &Yl);
  double S = pow2i(toInt(Kd));
  double Dh = S * Yh, Dl = S * Yl; // e^(2|x|)
  double El;
  double Eh = twoSum(Dh, -1.0, &El);
  El += Dl; // E = e^(2|x|) - 1
  double Gl;
  double Gh = twoSum(Dh, 1.0, &Gl);
  Gl += Dl; // E + 2
  double Inv = 1.0 / Gh;
  double Qh = Eh * Inv;
  double Ql = (fmaD(-Qh, Gh, Eh) + (El - Qh * Gl)) * Inv;
  double R = copySign(Qh + Ql, X);
  return AX < 0x1p-28 ? X : R;
}
