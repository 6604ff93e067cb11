/* lum_f32.c: a luminosity in vf_real for single precision: vf_xfx and
   vf_alphas widen to the double densities and round once, as the .vf
   xfx and alphas do in f32, so lum_f32.vf's two forms agree bit for bit
   (tests/python/test_cpp_f32.py). */
#include <vf/integrand.h>

VF_FUNCTION vf_real lum_c(vf_pdf p, vf_real x1, vf_real x2, vf_real mu) {
  vf_real uu = vf_xfx(p, 2, x1, mu) * vf_xfx(p, -2, x2, mu);
  vf_real gg = vf_xfx(p, 0, x1, mu) * vf_xfx(p, 21, x2, mu);
  return (uu + gg) * vf_alphas(p, mu) / (x1 * x2);
}
