//===- bench/math/SleefKernels512.cpp - SLEEF d8 loops (AVX-512) -----------===//
//
// Compiled with the AVX-512 flags (see CMakeLists.txt); called only when the
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
  for (size_t I = 0; I < N; I += 8)
    _mm512_storeu_pd(Out + I, F(_mm512_loadu_pd(In + I)));
}

template <auto F>
void binary(double *Out, const double *In, const double *In2, size_t N) {
  for (size_t I = 0; I < N; I += 8)
    _mm512_storeu_pd(Out + I, F(_mm512_loadu_pd(In + I), _mm512_loadu_pd(In2 + I)));
}

} // namespace

SleefKernels sleefAVX512() {
  return {unary<Sleef_expd8_u10>, unary<Sleef_logd8_u10>,
          unary<Sleef_sind8_u10>, unary<Sleef_cosd8_u10>,
          binary<Sleef_powd8_u10>};
}

} // namespace vf::bench
