/* f32-literal.c with a float literal: float arithmetic throughout in
   single precision (single-precision.test). */
#include "vf/integrand.h"

VF_INTEGRAND(f, 1, 1, "") { out[0] = x[0] * 0.5f; }
