/* lum.c: lum.cpp's luminosity in C11, with the gluon as flavour 0. */
#include <vf/integrand.h>

VF_FUNCTION double lum_c(vf_pdf p, double x1, double x2, double mu) {
  double uu = vf_xfx(p, 2, x1, mu) * vf_xfx(p, -2, x2, mu);
  double dd = vf_xfx(p, 1, x1, mu) * vf_xfx(p, -1, x2, mu);
  double gg = vf_xfx(p, 0, x1, mu) * vf_xfx(p, 21, x2, mu);
  return (uu + dd + gg) * vf_alphas(p, mu) / (x1 * x2);
}
