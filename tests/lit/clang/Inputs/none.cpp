#include "vf/integrand.h"
double f(double x) { return x; }
