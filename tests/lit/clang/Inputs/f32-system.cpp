// A CPU-only file (the system's libstdc++) in single precision: std::exp
// and std::sqrt of a float, libstdc++'s __builtin_expf and
// __builtin_sqrtf, call the float library as in a portable build
// (single-precision.test).
#include "vf/integrand.h"
#include <cmath>
#include <vector>

VF_INTEGRAND(s, 1, 1, "") {
  std::vector<vf_real> v{x[0], 2.0f};
  out[0] = std::exp(v[0]) * std::sqrt(v[1]);
}
