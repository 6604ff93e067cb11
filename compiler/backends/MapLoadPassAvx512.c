//===- backends/MapLoadPassAvx512.c - The timed pass, AVX-512 -------------===//
//
// MapLoadPass.h's pass for AVX-512: an edge of eight lanes is one gather,
// the instruction LLVM emits for the kernel's vf_gather_f64x8 there.
//
//===----------------------------------------------------------------------===//
#include <immintrin.h>

#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512dq,avx512vl"))), apply_to = function)

#include "ChannelX8.h"

static inline void vf_map_gather_avx512(const double *e, vf_u32x8 i,
                                        vf_f64x8 *e0, vf_f64x8 *e1) {
  __m256i iv;
  __builtin_memcpy(&iv, &i, sizeof iv);
  const __m512d g0 = _mm512_i32gather_pd(iv, e, 8);
  const __m512d g1 = _mm512_i32gather_pd(iv, e + 1, 8);
  __builtin_memcpy(e0, &g0, sizeof *e0);
  __builtin_memcpy(e1, &g1, sizeof *e1);
}

#define VF_MAP_GATHER vf_map_gather_avx512
#include "MapLoadPass.h"

__attribute__((noinline)) double
vf_map_pairs_avx512(const vf_map_timing_state *s) {
  return vf_map_pass(s, 0);
}

__attribute__((noinline)) double
vf_map_gathers_avx512(const vf_map_timing_state *s) {
  return vf_map_pass(s, 1);
}

#pragma clang attribute pop
