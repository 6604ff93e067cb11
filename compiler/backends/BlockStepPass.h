//===- backends/BlockStepPass.h - One timed pass of block steps ---*- C -*-===//
//
// The pass BlockStepTiming.c times, compiled once per instruction set (by
// BlockStepPassAvx2.c and BlockStepPassAvx512.c, each under its own
// target attribute, as MapLoadPass.h is): the block step's 32-lane
// vectors are split into the host's registers by the backend, so what
// differs between CPUs is what the target attribute says.
//
// The blocks come from a table drawn before timing: runs of one
// hypercube 1 to 70 samples long, across block boundaries, one output
// (the kernel's common case), in double precision; the segments' sums
// are written to a table of hypercubes small enough to stay in the
// caches, as a tile's are.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_BLOCKSTEPPASS_H
#define VF_COMPILER_BACKENDS_BLOCKSTEPPASS_H

#include "BlockSums.h"

/// Blocks of 32 samples in the table, and sweeps of it per pass.
#define VF_TIMING_BLOCKS 256
#define VF_TIMING_BLOCK_SWEEPS 2
/// Hypercubes: the runs (at least one sample each) step by 1 or 2.
#define VF_TIMING_HCUBES (2 * VF_TIMING_BLOCKS * VF_BLOCK + 2)

typedef struct vf_block_timing_state {
  vf_u64 hb[VF_TIMING_BLOCKS * VF_BLOCK];
  double v[VF_TIMING_BLOCKS * VF_BLOCK];
  /// Per block: bit l set where lane l > 0 starts a run (and bit 0).
  vf_u32 heads[VF_TIMING_BLOCKS];
  double dev[VF_TIMING_BLOCKS * VF_BLOCK];
  double hcube[VF_TIMING_HCUBES * VF_SEGMENT_STRIDE(1)];
  double edge[2 * VF_SEGMENT_STRIDE(1)];
} vf_block_timing_state;

/// One pass in each form and instruction set; each returns a value that
/// depends on every block, so that nothing is optimized away.
typedef double (*vf_block_pass_fn)(vf_block_timing_state *);
double vf_block_runs_avx2(vf_block_timing_state *s);
double vf_block_lanes_avx2(vf_block_timing_state *s);
double vf_block_runs_avx512(vf_block_timing_state *s);
double vf_block_lanes_avx512(vf_block_timing_state *s);

/// The pass itself, for the files that compile it: every block in the
/// form \p lanes names (a constant in each caller), as Sampler.c's tile
/// loop steps through a tile's blocks.
static inline __attribute__((always_inline)) double
vf_block_pass(vf_block_timing_state *s, int lanes) {
  vf_tile_result result;
  const vf_tile_outputs out = {s->hcube, s->edge, 0, &result, 0, 0, 0};
  double keep = 0;
  for (unsigned sweep = 0; sweep < VF_TIMING_BLOCK_SWEEPS; ++sweep) {
    vf_open_segment sg;
    sg.h = 0;
    sg.open = 0;
    for (unsigned b = 0; b < VF_TIMING_BLOCKS; ++b) {
      const unsigned at = b * VF_BLOCK;
      if (lanes)
        vf_block_segments_lanes(&out, 0, &sg, s->hb + at, s->heads[b],
                                s->v + at, VF_BLOCK, 1, s->dev + at);
      else
        vf_block_segments_runs(&out, 0, &sg, s->hb + at, s->heads[b], s->v + at,
                               VF_BLOCK, 1, s->dev + at);
    }
    keep += sg.sums[0] + sg.sums[3] + s->dev[sweep];
  }
  return keep;
}

#endif // VF_COMPILER_BACKENDS_BLOCKSTEPPASS_H
