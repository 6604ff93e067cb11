//===- backends/BlockStepPassAvx512.c - The timed block steps, AVX-512 ----===//
//
// BlockStepPass.h's pass for AVX-512: a 32-lane vector of doubles is four
// registers, and the lane masks are mask registers of 32 bits (BW).
//
//===----------------------------------------------------------------------===//

#pragma clang attribute push(                                                  \
    __attribute__((target("avx512f,avx512dq,avx512vl,avx512bw"))),             \
    apply_to = function)

#include "BlockStepPass.h"

__attribute__((noinline)) double
vf_block_runs_avx512(vf_block_timing_state *s) {
  return vf_block_pass(s, 0);
}

__attribute__((noinline)) double
vf_block_lanes_avx512(vf_block_timing_state *s) {
  return vf_block_pass(s, 1);
}

#pragma clang attribute pop
