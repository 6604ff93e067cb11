//===- backends/BlockStepTiming.c - The block step's forms, timed ---------===//
//
// The passes (BlockStepPass.h) alternate, and the fastest of each form
// counts: a pass the machine interrupts is slower, never faster.
//
//===----------------------------------------------------------------------===//
#include "BlockStepTiming.h"
#include "BlockStepPass.h"

#include <math.h>
#include <stdlib.h>
#include <time.h>

/// Passes per form, after one that warms the caches.
#define VF_TIMING_PASSES 11

/// Runs of 1 to 70 samples, across the blocks' boundaries, of hypercubes
/// one or two apart, with values of a weight's spread (as
/// tests/unit/runtime/kernels/BlockSumsTest.cpp draws them).
static void timing_init(vf_block_timing_state *s) {
  vf_u64 x = 0x9e3779b97f4a7c15u, h = 0;
  unsigned left = 0;
  for (unsigned j = 0; j < VF_TIMING_BLOCKS * VF_BLOCK; ++j) {
    x = x * 6364136223846793005u + 1442695040888963407u;
    if (left == 0) {
      h += j ? 1 + (x >> 63) : 0;
      left = 1 + (unsigned)((x >> 32) % 70);
    }
    --left;
    s->hb[j] = h;
    const double u = (double)((x >> 8) & 0xffff) * 0x1p-15 - 1;
    s->v[j] = 1e3 + u * exp(4 * u);
  }
  for (unsigned b = 0; b < VF_TIMING_BLOCKS; ++b) {
    const vf_u64 *hb = s->hb + b * VF_BLOCK;
    s->heads[b] = 1;
    for (unsigned l = 1; l < VF_BLOCK; ++l)
      s->heads[b] |= (vf_u32)(hb[l] != hb[l - 1]) << l;
  }
}

static double seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// The seconds one pass of \p pass took; \p sink keeps its result.
static double timed(vf_block_pass_fn pass, vf_block_timing_state *s,
                    volatile double *sink) {
  const double t0 = seconds();
  *sink = pass(s);
  return seconds() - t0;
}

int vf_time_block_steps(vf_timing_isa isa, double *runs_ns, double *lanes_ns) {
  const int avx512 = isa == VF_TIMING_AVX512;
  if (avx512 ? !__builtin_cpu_supports("avx512f") ||
                   !__builtin_cpu_supports("avx512bw")
             : !__builtin_cpu_supports("avx2"))
    return 0;
  vf_block_timing_state *s = malloc(sizeof *s);
  if (!s)
    return 0;
  timing_init(s);
  const vf_block_pass_fn runs =
      avx512 ? vf_block_runs_avx512 : vf_block_runs_avx2;
  const vf_block_pass_fn lanes =
      avx512 ? vf_block_lanes_avx512 : vf_block_lanes_avx2;
  volatile double sink = 0;
  double best[2] = {1e300, 1e300};
  for (unsigned p = 0; p <= VF_TIMING_PASSES; ++p) {
    const double tr = timed(runs, s, &sink);
    const double tl = timed(lanes, s, &sink);
    best[0] = p && tr < best[0] ? tr : best[0];
    best[1] = p && tl < best[1] ? tl : best[1];
  }
  free(s);
  const double per =
      1e9 / ((double)VF_TIMING_BLOCK_SWEEPS * VF_TIMING_BLOCKS * VF_BLOCK);
  *runs_ns = best[0] * per;
  *lanes_ns = best[1] * per;
  return 1;
}
