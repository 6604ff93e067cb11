/* 22 functions in double, compiled in single precision: the first 20 in
   source order, then a count (single-precision.test). */
#include "vf/integrand.h"

double half1(double a) { return a * 0.5; }
double half2(double a) { return a * 0.5; }
double half3(double a) { return a * 0.5; }
double half4(double a) { return a * 0.5; }
double half5(double a) { return a * 0.5; }
double half6(double a) { return a * 0.5; }
double half7(double a) { return a * 0.5; }
double half8(double a) { return a * 0.5; }
double half9(double a) { return a * 0.5; }
double half10(double a) { return a * 0.5; }
double half11(double a) { return a * 0.5; }
double half12(double a) { return a * 0.5; }
double half13(double a) { return a * 0.5; }
double half14(double a) { return a * 0.5; }
double half15(double a) { return a * 0.5; }
double half16(double a) { return a * 0.5; }
double half17(double a) { return a * 0.5; }
double half18(double a) { return a * 0.5; }
double half19(double a) { return a * 0.5; }
double half20(double a) { return a * 0.5; }
double half21(double a) { return a * 0.5; }

VF_INTEGRAND(f, 1, 1, "") { out[0] = x[0] * 0.5f; }

double half22(double a) { return a * 0.5; }
