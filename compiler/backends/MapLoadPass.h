//===- backends/MapLoadPass.h - One timed pass over the map -------*- C -*-===//
//
// The pass MapLoadTiming.c times, compiled once per instruction set (by
// MapLoadPassAvx2.c and MapLoadPassAvx512.c, each under its own target
// attribute, as the JIT compiles the kernel for such a CPU): the kernel's
// vector helpers take vectors by value, which no call between two feature
// sets may do, so each set has its own copy of them.
//
// Only the lookup and the arithmetic on the two edges are timed; the
// increments come from a table drawn before timing, small enough to stay
// in the caches with the map (as Philox's words stay in registers in the
// kernel), so what differs between the passes is the form alone.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_MAPLOADPASS_H
#define VF_COMPILER_BACKENDS_MAPLOADPASS_H

#include "LaneVectors.h"

#define VF_TIMING_DIM 8
#define VF_TIMING_NINC 1000
/// Samples in the table, and sweeps of it per pass.
#define VF_TIMING_SAMPLES 1024
#define VF_TIMING_SWEEPS 8

typedef struct vf_map_timing_state {
  double edges[VF_TIMING_DIM * (VF_TIMING_NINC + 1)];
  /// Axis-major: the increment and the offset in it of each sample.
  vf_u32 inc[VF_TIMING_DIM * VF_TIMING_SAMPLES];
  double frac[VF_TIMING_DIM * VF_TIMING_SAMPLES];
} vf_map_timing_state;

/// One pass in each form and instruction set; each returns a value that
/// depends on every lookup, so that nothing is optimized away.
typedef double (*vf_map_pass_fn)(const vf_map_timing_state *);
double vf_map_pairs_avx2(const vf_map_timing_state *s);
double vf_map_gathers_avx2(const vf_map_timing_state *s);
double vf_map_pairs_avx512(const vf_map_timing_state *s);
double vf_map_gathers_avx512(const vf_map_timing_state *s);

#endif // VF_COMPILER_BACKENDS_MAPLOADPASS_H

// The pass itself, in the files that define VF_MAP_GATHER(e, i, e0, e1)
// (this instruction set's gathers of e[i[l]] and e[i[l] + 1]) and
// include ChannelX8.h first: every sample's eight axes, x and the
// Jacobian, in the form \p gathers names (a constant in each caller).
#ifdef VF_MAP_GATHER
static inline __attribute__((always_inline)) double
vf_map_pass(const vf_map_timing_state *s, int gathers) {
  vf_f64x8 keep = 0;
  for (unsigned sweep = 0; sweep < VF_TIMING_SWEEPS; ++sweep)
    for (unsigned l = 0; l < VF_TIMING_SAMPLES; l += VF_LANES) {
      vf_f64x8 jac = 1;
      for (unsigned d = 0; d < VF_TIMING_DIM; ++d) {
        const double *e = s->edges + d * (VF_TIMING_NINC + 1);
        vf_u32x8 i;
        vf_f64x8 f, e0, e1;
        __builtin_memcpy(&i, s->inc + d * VF_TIMING_SAMPLES + l, sizeof i);
        __builtin_memcpy(&f, s->frac + d * VF_TIMING_SAMPLES + l, sizeof f);
        if (gathers)
          VF_MAP_GATHER(e, i, &e0, &e1);
        else
          vf_edge_pairs_x8(e, i, &e0, &e1);
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
#endif
