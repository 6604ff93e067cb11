// lum.cpp: a u ubar + d dbar luminosity at scale mu, weighted by alpha_s,
// from the vf_pdf handle a .vf pdf argument passes (lum.vf); the same
// formula as lum.vf's lum_vf, so the two give the same bits.
#include <vf/integrand.h>

VF_FUNCTION double lum_cpp(vf_pdf p, double x1, double x2, double mu) {
  double uu = vf_xfx(p, 2, x1, mu) * vf_xfx(p, -2, x2, mu);
  double dd = vf_xfx(p, 1, x1, mu) * vf_xfx(p, -1, x2, mu);
  return (uu + dd) * vf_alphas(p, mu) / (x1 * x2);
}
