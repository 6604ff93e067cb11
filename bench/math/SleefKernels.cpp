//===- bench/math/SleefKernels.cpp - SLEEF d4 loops (AVX2) -----------------===//
//
// Compiled with the AVX2 flags (see CMakeLists.txt); called only when the
// CPU has them.
//
//===----------------------------------------------------------------------===//

#include "SleefKernels.h"

#include <immintrin.h>
#include <sleef.h>

namespace vf::bench {

// sleef.h declares the functions with a const-qualified return type, so
// they are taken as `auto` template arguments.
namespace {

template <auto F>
void unary(double *Out, const double *In, const double *, size_t N) {
  for (size_t I = 0; I < N; I += 4)
    _mm256_storeu_pd(Out + I, F(_mm256_loadu_pd(In + I)));
}

template <auto F>
void binary(double *Out, const double *In, const double *In2, size_t N) {
  for (size_t I = 0; I < N; I += 4)
    _mm256_storeu_pd(Out + I, F(_mm256_loadu_pd(In + I), _mm256_loadu_pd(In2 + I)));
}

} // namespace

SleefKernels sleefAVX2() {
  return {unary<Sleef_expd4_u10>, unary<Sleef_logd4_u10>,
          unary<Sleef_sind4_u10>, unary<Sleef_cosd4_u10>,
          binary<Sleef_powd4_u10>};
}

} // namespace vf::bench
