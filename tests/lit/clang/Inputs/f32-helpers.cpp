// Double arithmetic in single precision in a helper and a comparison, each
// function reported once at its first line; what the optimiser removes
// (an unused double) is not held against the code (single-precision.test).
#include "vf/integrand.h"

static vf_real scale(vf_real a) {
  double unused = a * 2.0;
  (void)unused;
  return a * 0.1;
}

VF_INTEGRAND(g, 2, 1, "") { out[0] = scale(x[0]) + (x[1] < 0.3 ? 1.0f : 2.0f); }
