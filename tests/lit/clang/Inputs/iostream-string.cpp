#include <iostream>
#include <string>
#include "vf/integrand.h"
VF_INTEGRAND(f, 1, 1, "") { out[0] = std::string("abc").size() * x[0]; }
