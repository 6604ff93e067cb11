//===- backends/MapLoadPassAvx2.c - The timed pass, AVX2 ------------------===//
//
// MapLoadPass.h's pass for AVX2: an edge of eight lanes is two gathers of
// four, as LLVM splits the kernel's vf_gather_f64x8 there.
//
//===----------------------------------------------------------------------===//
#include <immintrin.h>

#pragma clang attribute push(__attribute__((target("avx2"))),                  \
                             apply_to = function)

#include "ChannelX8.h"

/// Eight lanes of e[i[l]], as two gathers of four.
static inline void vf_gather8_avx2(const double *e, vf_u32x8 i, vf_f64x8 *out) {
  __m128i lo, hi;
  __builtin_memcpy(&lo, &i, sizeof lo);
  __builtin_memcpy(&hi, (const char *)&i + sizeof lo, sizeof hi);
  const __m256d g[2] = {_mm256_i32gather_pd(e, lo, 8),
                        _mm256_i32gather_pd(e, hi, 8)};
  __builtin_memcpy(out, g, sizeof *out);
}

static inline void vf_map_gather_avx2(const double *e, vf_u32x8 i, vf_f64x8 *e0,
                                      vf_f64x8 *e1) {
  vf_gather8_avx2(e, i, e0);
  vf_gather8_avx2(e + 1, i, e1);
}

#define VF_MAP_GATHER vf_map_gather_avx2
#include "MapLoadPass.h"

__attribute__((noinline)) double
vf_map_pairs_avx2(const vf_map_timing_state *s) {
  return vf_map_pass(s, 0);
}

__attribute__((noinline)) double
vf_map_gathers_avx2(const vf_map_timing_state *s) {
  return vf_map_pass(s, 1);
}

#pragma clang attribute pop
