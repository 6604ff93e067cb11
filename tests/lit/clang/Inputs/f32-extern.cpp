// Functions f32-extern.vf calls, in vf_real: float in single precision.
#include "vf/integrand.h"

VF_FUNCTION void weight(const vf_real *p, vf_real s, vf_real *out) {
  const vf::array<2> a = vf::load<2>(p);
  out[0] = s * a[0] * a[1];
  out[1] = a[0] + 2 * a[1];
}

VF_FUNCTION vf_real cube(vf_real u) { return u * u * u; }
