//===- bench/math/SleefKernels512.cpp - SLEEF d8 loops (AVX-512) -----------===//
//
// Compiled with the AVX-512 flags (see CMakeLists.txt); called only when the
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
__m512d load(const double *P) { return _mm512_loadu_pd(P); }
void store(double *P, __m512d V) { _mm512_storeu_pd(P, V); }
using L = SleefLoops<load, store, 8>;
} // namespace

SleefKernels sleefAVX512() {
  return {L::unary<Sleef_expd8_u10>, L::unary<Sleef_logd8_u10>,
          L::unary<Sleef_sind8_u10>, L::unary<Sleef_cosd8_u10>,
          L::binary<Sleef_powd8_u10>};
}

} // namespace vf::bench
