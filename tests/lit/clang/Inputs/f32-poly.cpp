// A whole integrand in C++ written with vf_real, arithmetic only:
// a u^2 + 3 u v + 1/3 on the unit square, 2/3 + 3/4 + 1/3 = 7/4 for
// a = 2 (tests/python/test_cpp_f32.py).
#include "vf/integrand.h"

VF_INTEGRAND(poly, 2, 1, "a = 2") {
  const vf_real u = x[0], v = x[1];
  out[0] = params[0] * u * u + 3.0f * u * v + vf_real(1) / 3;
}
