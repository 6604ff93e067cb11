/*===- vf/integrand.h - C and C++ integrands for vegasflow ------*- C++ -*-===//
//
// The one header a C or C++ integrand includes. vegasc compiles such a file
// with Clang in its own process, for the host and for nvptx64-nvidia-cuda,
// and sees no system header: this header declares what a GPU can run.
//
//  - vf_real is the integrand's real: double, or float when vegasc
//    compiles the file for single precision (--precision f32, which
//    defines __VF_SINGLE__). Write the functions with it, and float
//    literals (1.0f) where a literal meets one: in single precision any
//    double arithmetic left in the code is an error.
//  - The math functions (exp, log, sin, pow, sqrt, ... and std:: in C++)
//    take and return vf_real: they are vegasflow's own math library
//    (docs/math.md), vf_exp or in single precision vf_expf, the functions
//    a .vf integrand calls, so CPU and GPU compute the same values.
//    M_PI, M_E, NAN and INFINITY are vf_real too.
//  - VF_INTEGRAND(NAME, DIM, OUTPUTS, "p = 1.0, q = 2") opens the definition
//    of an integrand on the unit cube [0, 1]^DIM with OUTPUTS values and the
//    listed run-time parameters and their defaults; its body reads x[0..DIM),
//    params[k] (the k-th parameter, in the listed order) and writes
//    out[0..OUTPUTS), all vf_real. DIM and OUTPUTS are integer literals.
//  - VF_FUNCTION marks a function a .vf file calls through
//    `extern "file.cpp" fn NAME(...)`: arrays arrive as `const vf_real *`,
//    reals as `vf_real`; an array result `-> [n]` is written to a last
//    `vf_real *out` argument (the function returns void), a real result is
//    returned.
//  - vf::array<N> (C++): a fixed-size array of vf_real with value
//    semantics.
//
// Compiled by anything but vegasflow (no __VEGASFLOW__), the header takes
// <math.h> instead, so the same file builds in an ordinary host program;
// so does vegasflow's CPU-only build of a file that includes a header
// needing the C++ run-time library (__VF_SYSTEM_LIBRARY__), which then
// binds the calls of exp, sin, ... to the math library itself.
//
//===----------------------------------------------------------------------===*/
#ifndef VF_INTEGRAND_H
#define VF_INTEGRAND_H

#ifdef __cplusplus
#define VF_EXTERN_C extern "C"
#else
#define VF_EXTERN_C
#endif

#define VF_FUNCTION VF_EXTERN_C

#ifdef __VF_SINGLE__
typedef float vf_real;
#else
typedef double vf_real;
#endif

/* The symbol of an integrand's entry (vf_cxx_NAME), which vegasc calls. */
#define VF_INTEGRAND(NAME, DIM, OUTPUTS, PARAMS)                               \
  VF_EXTERN_C void vf_cxx_##NAME(const vf_real *x, const vf_real *params,      \
                                 vf_real *out)

#if defined(__VEGASFLOW__) && !defined(__VF_SYSTEM_LIBRARY__)
/* Each function is the math library's vf_NAME (stdlib/math/vfmath.h), or
   in single precision its float version vf_NAMEf. */
#ifdef __VF_SINGLE__
#define VF_MATH_SUFFIX "f"
#else
#define VF_MATH_SUFFIX ""
#endif
#define VF_MATH1(F) vf_real F(vf_real) __asm__("vf_" #F VF_MATH_SUFFIX);
#define VF_MATH2(F)                                                            \
  vf_real F(vf_real, vf_real) __asm__("vf_" #F VF_MATH_SUFFIX);
#ifdef __cplusplus
extern "C" {
#endif
VF_MATH1(exp) VF_MATH1(expm1) VF_MATH1(log) VF_MATH1(log1p) VF_MATH1(log10)
VF_MATH2(pow) VF_MATH1(sqrt) VF_MATH1(cbrt) VF_MATH1(sin) VF_MATH1(cos)
VF_MATH1(tan) VF_MATH1(asin) VF_MATH1(acos) VF_MATH1(atan) VF_MATH2(atan2)
VF_MATH1(sinh) VF_MATH1(cosh) VF_MATH1(tanh) VF_MATH1(erf) VF_MATH1(erfc)
VF_MATH1(floor) VF_MATH1(ceil) VF_MATH1(fabs)
#ifdef __cplusplus
}
#endif
#undef VF_MATH1
#undef VF_MATH2
#undef VF_MATH_SUFFIX
#define M_PI ((vf_real)3.14159265358979323846)
#define M_E ((vf_real)2.7182818284590452354)
#ifdef __VF_SINGLE__
#define NAN __builtin_nanf("")
#define INFINITY __builtin_inff()
#else
#define NAN __builtin_nan("")
#define INFINITY __builtin_inf()
#endif
#else
#include <math.h>
#endif

/* A .vf `pdf` argument (`extern "f.c" fn lum(p: pdf, ...)`): the program's
   block of members (docs/pdf.md) and the pdf item's own member in it.
   vf_xfx and vf_alphas are the functions the .vf xfx and alphas call, so
   they give the same bits; the gluon is 21 or 0, as in .vf. The parton
   densities are double in either precision: in single precision the
   arguments are widened and the result rounded once, as in .vf. */
struct vf_pdf_handle {
  const void *table;
  unsigned member;
};
typedef const struct vf_pdf_handle *vf_pdf;

VF_EXTERN_C double vf_pdf_table_xfx(const void *table, unsigned member, int id,
                                    double x, double q);
VF_EXTERN_C double vf_pdf_table_alphas(const void *table, unsigned member,
                                       double q);

static inline vf_real vf_xfx(vf_pdf p, int id, vf_real x, vf_real q) {
  return (vf_real)vf_pdf_table_xfx(p->table, p->member, id, x, q);
}

static inline vf_real vf_alphas(vf_pdf p, vf_real q) {
  return (vf_real)vf_pdf_table_alphas(p->table, p->member, q);
}

#ifdef __cplusplus
#if defined(__VEGASFLOW__) && !defined(__VF_SYSTEM_LIBRARY__)
namespace std {
using ::acos; using ::asin; using ::atan; using ::atan2; using ::cbrt;
using ::ceil; using ::cos; using ::cosh; using ::erf; using ::erfc;
using ::exp; using ::expm1; using ::fabs; using ::floor; using ::log;
using ::log10; using ::log1p; using ::pow; using ::sin; using ::sinh;
using ::sqrt; using ::tan; using ::tanh;
inline vf_real abs(vf_real X) { return ::fabs(X); }
} // namespace std
#endif

namespace vf {

/// N vf_reals with value semantics (copy, return), indexable; what a .vf
/// `[N]` is. Loops over it with constant bounds unroll to registers.
template <int N> struct array {
  vf_real v[N];
  constexpr vf_real &operator[](int I) { return v[I]; }
  constexpr const vf_real &operator[](int I) const { return v[I]; }
  static constexpr int size() { return N; }
  vf_real *data() { return v; }
  const vf_real *data() const { return v; }
};

/// The first N values at P, as an array (for `const vf_real *` arguments).
template <int N> constexpr array<N> load(const vf_real *P) {
  array<N> A{};
  for (int I = 0; I < N; ++I)
    A[I] = P[I];
  return A;
}

/// Writes A to P (for an `out` argument).
template <int N> constexpr void store(const array<N> &A, vf_real *P) {
  for (int I = 0; I < N; ++I)
    P[I] = A[I];
}

} // namespace vf
#endif

#endif /* VF_INTEGRAND_H */
