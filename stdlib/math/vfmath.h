/*===- stdlib/math/vfmath.h - vegasflow portable math library ---*- C -*-===//
 *
 * The double-precision functions every .vf built-in maps to. The same C
 * sources are compiled to LLVM bitcode for x86-64 and nvptx64 (embedded in
 * the compiler and linked into each integrand module) and, for the tests,
 * natively. Accuracy: at most 1 ulp against the correctly rounded result
 * (pow, erf, erfc: 2 ulp), with the C99 Annex F special values.
 *
 * The functions are plain external definitions: the compiler links the
 * library with LinkOnlyNeeded and internalizes what it pulled in, so unused
 * functions vanish and the rest inline into the sampling loop.
 *
 *===----------------------------------------------------------------------===*/

#ifndef VF_STDLIB_MATH_VFMATH_H
#define VF_STDLIB_MATH_VFMATH_H

#ifdef __cplusplus
extern "C" {
#endif

double vf_exp(double X);
double vf_expm1(double X);
double vf_log(double X);
double vf_log1p(double X);
double vf_log10(double X);
double vf_pow(double X, double Y);
double vf_sqrt(double X);
double vf_cbrt(double X);
double vf_sin(double X);
double vf_cos(double X);
double vf_tan(double X);
double vf_asin(double X);
double vf_acos(double X);
double vf_atan(double X);
double vf_atan2(double Y, double X);
double vf_sinh(double X);
double vf_cosh(double X);
double vf_tanh(double X);
double vf_erf(double X);
double vf_erfc(double X);
double vf_floor(double X);
double vf_ceil(double X);
double vf_fabs(double X);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_STDLIB_MATH_VFMATH_H
