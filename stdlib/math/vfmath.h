/*===- stdlib/math/vfmath.h - vegasflow portable math library ---*- C -*-===//
 *
 * The functions every .vf built-in maps to, in double precision (vf_<name>)
 * and single precision (vf_<name>f). The same C
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

// Single precision (--precision f32): the same functions on floats, with
// float arithmetic only (no double operation anywhere, for GPUs with slow
// FP64) and the same bounds in float ulps.
float vf_expf(float X);
float vf_expm1f(float X);
float vf_logf(float X);
float vf_log1pf(float X);
float vf_log10f(float X);
float vf_powf(float X, float Y);
float vf_sqrtf(float X);
float vf_cbrtf(float X);
float vf_sinf(float X);
float vf_cosf(float X);
float vf_tanf(float X);
float vf_asinf(float X);
float vf_acosf(float X);
float vf_atanf(float X);
float vf_atan2f(float Y, float X);
float vf_sinhf(float X);
float vf_coshf(float X);
float vf_tanhf(float X);
float vf_erff(float X);
float vf_erfcf(float X);
float vf_floorf(float X);
float vf_ceilf(float X);
float vf_fabsf(float X);

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_STDLIB_MATH_VFMATH_H
