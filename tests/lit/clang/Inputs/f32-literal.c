/* A double literal in single precision: x[0] * 0.5 is a double multiply
   (single-precision.test; f32-literal-float.c is the float twin). */
#include "vf/integrand.h"

VF_INTEGRAND(f, 1, 1, "") { out[0] = x[0] * 0.5; }
