#include <iostream>
#include "vf/integrand.h"
VF_INTEGRAND(f, 1, 1, "") { out[0] = x[0]; }
