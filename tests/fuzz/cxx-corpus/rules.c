#include "vf/integrand.h"
void *malloc(unsigned long);
double counter;
VF_INTEGRAND(f, 1, 1, "") {
  double *p = malloc(8);
  out[0] = x[0] + counter + (p != 0);
}
