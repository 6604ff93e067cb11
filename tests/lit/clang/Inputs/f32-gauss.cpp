// A C++ integrand written with vf_real that calls the math library: in
// single precision exp and sqrt are vf_expf and vf_sqrtf, M_PI a float;
// erf(0.5 / a)^2 on the unit square (tests/python/test_cpp_f32.py,
// single-precision.test).
#include "vf/integrand.h"

static vf_real gauss(vf_real x, vf_real a) {
  return exp(-(x - 0.5f) * (x - 0.5f) / (a * a)) / (a * sqrt(M_PI));
}

VF_INTEGRAND(gauss2, 2, 1, "a = 0.1") {
  out[0] = gauss(x[0], params[0]) * gauss(x[1], params[0]);
}
