#include "vf/integrand.h"
VF_INTEGRAND(f, 0, 1, "") { out[0] = x[0]; }
VF_INTEGRAND(g, 1, n, "") { out[0] = x[0]; }
VF_INTEGRAND(h, 1, 1, "a = one") { out[0] = x[0]; }
VF_INTEGRAND(k, 1, 1, "a = nan") { out[0] = x[0]; }
