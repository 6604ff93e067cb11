//===- backends/BlockStepPassAvx2.c - The timed block steps, AVX2 ---------===//
//
// BlockStepPass.h's pass for AVX2: a 32-lane vector of doubles is eight
// registers.
//
//===----------------------------------------------------------------------===//

#pragma clang attribute push(__attribute__((target("avx2"))),                  \
                             apply_to = function)

#include "BlockStepPass.h"

__attribute__((noinline)) double vf_block_runs_avx2(vf_block_timing_state *s) {
  return vf_block_pass(s, 0);
}

__attribute__((noinline)) double vf_block_lanes_avx2(vf_block_timing_state *s) {
  return vf_block_pass(s, 1);
}

#pragma clang attribute pop
