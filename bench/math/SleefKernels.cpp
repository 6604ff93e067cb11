//===- bench/math/SleefKernels.cpp - SLEEF d4 loops (AVX2) -----------------===//
//
// Compiled with the AVX2 flags (see CMakeLists.txt); called only when the
// CPU has them.
//
//===----------------------------------------------------------------------===//

#include "SleefKernels.h"
#include "SleefLoops.h"

#include <immintrin.h>
#include <sleef.h>

namespace vf::bench {

namespace {
// Functions, not the intrinsics themselves, as template arguments.
__m256d load(const double *P) { return _mm256_loadu_pd(P); }
void store(double *P, __m256d V) { _mm256_storeu_pd(P, V); }
using L = SleefLoops<load, store, 4>;
} // namespace

SleefKernels sleefAVX2() {
  return {L::unary<Sleef_expd4_u10>, L::unary<Sleef_logd4_u10>,
          L::unary<Sleef_sind4_u10>, L::unary<Sleef_cosd4_u10>,
          L::binary<Sleef_powd4_u10>};
}

} // namespace vf::bench
