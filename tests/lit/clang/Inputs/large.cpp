// An integrand of about 5,600 of Clang's instructions (256 terms, each
// with math calls, written by macros), which on the host is compiled once
// and called from the batch entry and the sampler; its small helper is
// still inlined into it.
#include "vf/integrand.h"

static double damp(double v) { return 1 / (1 + v * v); }

#define TERM                                                                   \
  acc = 0.5 * acc + damp(x[0] * __COUNTER__) * exp(-x[1]) * sin(x[0] + acc);
#define TERM4 TERM TERM TERM TERM
#define TERM16 TERM4 TERM4 TERM4 TERM4
#define TERM64 TERM16 TERM16 TERM16 TERM16
#define TERM256 TERM64 TERM64 TERM64 TERM64

VF_INTEGRAND(large, 2, 1, "") {
  double acc = 0;
  TERM256
  out[0] = acc;
}
