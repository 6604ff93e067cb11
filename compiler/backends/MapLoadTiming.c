//===- backends/MapLoadTiming.c - The map's two forms, timed --------------===//
//
// The passes (MapLoadPass.h) alternate, and the fastest of each form
// counts: a pass the machine interrupts is slower, never faster.
//
//===----------------------------------------------------------------------===//
#include "MapLoadTiming.h"
#include "MapLoadPass.h"

#include <stdlib.h>
#include <time.h>

/// Passes per form, after one that warms the caches.
#define VF_TIMING_PASSES 11

/// An adapted-looking map (increments narrowing towards 1/2, as the
/// engine's floor benchmark uses) and increments drawn all over it.
static void timing_init(vf_map_timing_state *s) {
  for (unsigned d = 0; d < VF_TIMING_DIM; ++d)
    for (unsigned i = 0; i <= VF_TIMING_NINC; ++i) {
      const double c = 2.0 * i / VF_TIMING_NINC - 1;
      s->edges[d * (VF_TIMING_NINC + 1) + i] = 0.5 + 0.5 * c * c * c;
    }
  vf_u64 x = 0x9e3779b97f4a7c15u;
  for (unsigned k = 0; k < VF_TIMING_DIM * VF_TIMING_SAMPLES; ++k) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    s->inc[k] = (vf_u32)((x >> 32) * VF_TIMING_NINC >> 32);
    s->frac[k] = (double)(x & 0xffff) * 0x1p-16;
  }
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// The seconds one pass of \p pass took; \p sink keeps its result.
static double timed(vf_map_pass_fn pass, const vf_map_timing_state *s,
                    volatile double *sink) {
  const double t0 = seconds();
  *sink = pass(s);
  return seconds() - t0;
}

int vf_time_map_loads(vf_timing_isa isa, double *pairs_ns, double *gathers_ns) {
  const int avx512 = isa == VF_TIMING_AVX512;
  if (avx512 ? !__builtin_cpu_supports("avx512f")
             : !__builtin_cpu_supports("avx2"))
    return 0;
  vf_map_timing_state *s = malloc(sizeof *s);
  if (!s)
    return 0;
  timing_init(s);
  const vf_map_pass_fn pairs = avx512 ? vf_map_pairs_avx512 : vf_map_pairs_avx2;
  const vf_map_pass_fn gathers =
      avx512 ? vf_map_gathers_avx512 : vf_map_gathers_avx2;
  volatile double sink = 0;
  double best[2] = {1e300, 1e300};
  for (unsigned p = 0; p <= VF_TIMING_PASSES; ++p) {
    const double tp = timed(pairs, s, &sink);
    const double tg = timed(gathers, s, &sink);
    best[0] = p && tp < best[0] ? tp : best[0];
    best[1] = p && tg < best[1] ? tg : best[1];
  }
  free(s);
  const double per = 1e9 / ((double)VF_TIMING_SWEEPS * VF_TIMING_SAMPLES);
  *pairs_ns = best[0] * per;
  *gathers_ns = best[1] * per;
  return 1;
}
