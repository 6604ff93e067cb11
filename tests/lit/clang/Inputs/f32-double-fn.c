#include "vf/integrand.h"
VF_FUNCTION double twice(double a) { return 2 * a; }
