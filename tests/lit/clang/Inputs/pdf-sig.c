#include <vf/integrand.h>
VF_FUNCTION double lum_double(double p, double x) { return p * x; }
VF_FUNCTION double real_handle(vf_pdf p, double x) {
  return vf_xfx(p, 2, x, 91);
}
