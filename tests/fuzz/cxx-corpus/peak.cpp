#include "vf/integrand.h"
#include "width.h"

VF_INTEGRAND(peak, 2, 1, "a = 0.1") {
  double w = width(params[0]);
  out[0] = exp(-((x[0] - 0.5) * (x[0] - 0.5) + (x[1] - 0.5) * (x[1] - 0.5)) / (w * w));
}
