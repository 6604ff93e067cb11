#include "vf/integrand.h"
VF_FUNCTION double twice(double v) { return 2 * v; }
VF_FUNCTION double wrong(const double *p) { return p[0]; }
double notC(double v) { return v; }
