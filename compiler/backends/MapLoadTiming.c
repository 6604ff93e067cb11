//===- backends/MapLoadTiming.c - The map's two forms, timed --------------===//
//
// Both forms are compiled here for AVX-512, as the JIT compiles the kernel
// on such a CPU: the pairs are the kernel's own vf_edge_pairs_x8, the
// gathers the instruction LLVM emits for the kernel's vf_gather_f64x8.
// Only the lookup and the arithmetic on the two edges are timed; the
// increments come from a table (drawn before timing, small enough to stay
// in the caches with the map, as Philox's words stay in registers in the
// kernel), so what differs between the passes is the form alone. The
// passes alternate, and the fastest of each counts: a pass the machine
// interrupts is slower, never faster.
//
//===----------------------------------------------------------------------===//
#include "MapLoadTiming.h"

#include <immintrin.h>
#include <stdlib.h>
#include <time.h>

// The kernel's helpers compiled for AVX-512 like the timing passes: they
// take vectors by value, which a call across the two feature sets may not.
#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512dq,avx512vl"))), apply_to = function)
#include "ChannelX8.h"
#pragma clang attribute pop

#define TIMING_DIM 8
#define TIMING_NINC 1000
/// Samples per table, sweeps of it per pass, passes per form.
#define TIMING_SAMPLES 1024
#define TIMING_SWEEPS 8
#define TIMING_PASSES 11

#define TIMING_AVX512 __attribute__((target("avx512f,avx512dq,avx512vl")))

typedef struct timing_state {
  double edges[TIMING_DIM * (TIMING_NINC + 1)];
  /// Axis-major: the increment and the offset in it of each sample.
  vf_u32 inc[TIMING_DIM * TIMING_SAMPLES];
  double frac[TIMING_DIM * TIMING_SAMPLES];
} timing_state;

/// An adapted-looking map (increments narrowing towards 1/2, as the
/// engine's floor benchmark uses) and increments drawn all over it.
static void timing_init(timing_state *s) {
  for (unsigned d = 0; d < TIMING_DIM; ++d)
    for (unsigned i = 0; i <= TIMING_NINC; ++i) {
      const double c = 2.0 * i / TIMING_NINC - 1;
      s->edges[d * (TIMING_NINC + 1) + i] = 0.5 + 0.5 * c * c * c;
    }
  vf_u64 x = 0x9e3779b97f4a7c15u;
  for (unsigned k = 0; k < TIMING_DIM * TIMING_SAMPLES; ++k) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    s->inc[k] = (vf_u32)((x >> 32) * TIMING_NINC >> 32);
    s->frac[k] = (double)(x & 0xffff) * 0x1p-16;
  }
}

/// One pass: every sample's eight axes, x and the Jacobian, in the form
/// \p gathers names (a constant in each caller); returns a value that
/// depends on every lookup, so nothing is optimized away.
static inline __attribute__((always_inline)) TIMING_AVX512 double
timing_pass(const timing_state *s, int gathers) {
  vf_f64x8 keep = 0;
  for (unsigned sweep = 0; sweep < TIMING_SWEEPS; ++sweep)
    for (unsigned l = 0; l < TIMING_SAMPLES; l += VF_LANES) {
      vf_f64x8 jac = 1;
      for (unsigned d = 0; d < TIMING_DIM; ++d) {
        const double *e = s->edges + d * (TIMING_NINC + 1);
        vf_u32x8 i;
        vf_f64x8 f, e0, e1;
        __builtin_memcpy(&i, s->inc + d * TIMING_SAMPLES + l, sizeof i);
        __builtin_memcpy(&f, s->frac + d * TIMING_SAMPLES + l, sizeof f);
        if (gathers) {
          __m256i iv;
          __builtin_memcpy(&iv, &i, sizeof iv);
          const __m512d g0 = _mm512_i32gather_pd(iv, e, 8);
          const __m512d g1 = _mm512_i32gather_pd(iv, e + 1, 8);
          __builtin_memcpy(&e0, &g0, sizeof e0);
          __builtin_memcpy(&e1, &g1, sizeof e1);
        } else {
          vf_edge_pairs_x8(e, i, &e0, &e1);
        }
        const vf_f64x8 width = e1 - e0;
        keep += e0 + f * width;
        jac *= width;
      }
      keep += jac;
    }
  double r = 0;
  for (unsigned l = 0; l < VF_LANES; ++l)
    r += keep[l];
  return r;
}

static __attribute__((noinline)) TIMING_AVX512 double
timing_pairs(const timing_state *s) {
  return timing_pass(s, 0);
}

static __attribute__((noinline)) TIMING_AVX512 double
timing_gathers(const timing_state *s) {
  return timing_pass(s, 1);
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// The seconds one pass of \p pass took; \p sink keeps its result.
static double timed(double (*pass)(const timing_state *), const timing_state *s,
                    volatile double *sink) {
  const double t0 = seconds();
  *sink = pass(s);
  return seconds() - t0;
}

int vf_time_map_loads(double *pairs_ns, double *gathers_ns) {
  if (!__builtin_cpu_supports("avx512f"))
    return 0;
  timing_state *s = malloc(sizeof *s);
  if (!s)
    return 0;
  timing_init(s);
  volatile double sink = 0;
  double best[2] = {1e300, 1e300};
  // The first pass of each warms the caches and is not counted.
  for (unsigned p = 0; p <= TIMING_PASSES; ++p) {
    const double tp = timed(timing_pairs, s, &sink);
    const double tg = timed(timing_gathers, s, &sink);
    best[0] = p && tp < best[0] ? tp : best[0];
    best[1] = p && tg < best[1] ? tg : best[1];
  }
  free(s);
  const double per = 1e9 / ((double)TIMING_SWEEPS * TIMING_SAMPLES);
  *pairs_ns = best[0] * per;
  *gathers_ns = best[1] * per;
  return 1;
}
