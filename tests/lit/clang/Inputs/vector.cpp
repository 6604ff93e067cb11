// <vector> allocates: refused for a GPU (std-headers.test).
#include "vf/integrand.h"
#include <cmath>
#include <vector>
VF_INTEGRAND(f, 1, 1, "") { out[0] = x[0]; }
