//===- runtime/kernels/PhiloxX16.h - Philox, sixteen lanes --------*- C -*-===//
//
// Philox.h's blocks for sixteen samples at once, on the host: the same
// counter layout and the same words, bit for bit, as vf_philox_block per
// lane (PhiloxTest, SampleBatchTest), written with clang's vector types
// because the multipliers are the kernel's bottleneck and the loop
// vectorizer left them scalar (docs/sampling-engine.md). The uniform
// source (UniformSource.h) draws the host kernel's uniforms through it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_PHILOXX16_H
#define VF_RUNTIME_KERNELS_PHILOXX16_H

#include "LaneVectors.h"

// The bitcode is built for generic x86-64 and retargeted to the host by
// the JIT; these helpers are static and inlined, so the by-value
// vector arguments clang warns about never reach a call boundary.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

/// Sixteen sample indices j[0 .. 15] as vf_philox_chains_x16 takes them:
/// two vectors of eight.
static inline void vf_index_lanes_x16(const vf_u64 *j, vf_u64x8 lanes[2]) {
  __builtin_memcpy(lanes, j, 2 * sizeof lanes[0]);
}

/// vf_philox_block for n independent (samples, block) pairs of sixteen
/// lanes at once:
/// chain c draws block blk[c] of the samples j[c] (vf_index_lanes_x16)
/// into out[c]. A round is a multiply, a shift and a three-way XOR, all
/// dependent, so one chain's latency leaves the multipliers idle;
/// interleaved chains fill them. n is a constant where this is inlined.
///
/// Each word is held as eight 64-bit lanes per eight samples, the word in
/// each lane's low half: vpmuludq multiplies the low halves into a whole
/// 64-bit product, so the product's high word is one shift away and its
/// low word is the product itself. The high halves are never cleared:
/// every word that reaches a multiply or the output is read through its
/// low half only, and XOR keeps the halves apart. Words in 32-bit lanes
/// needed two cross-lane shuffles per multiply to put the halves back
/// (13% of the words' time on Zen 4, docs/sampling-engine.md); this form
/// has none, for the same multiplies.
static inline __attribute__((always_inline)) void
vf_philox_chains_x16(vf_u64 seed, vf_u32 iteration, unsigned n,
                     const vf_u64x8 (*j)[2], const vf_u32 *blk,
                     vf_u32x16 (*out)[4]) {
  const vf_u64 low = 0xffffffffull;
  // st[c][w][g]: word w of chain c for the samples 8g .. 8g + 7.
  vf_u64x8 st[4][4][2];
  for (unsigned c = 0; c < n; ++c) {
    st[c][0][0] = st[c][0][1] = blk[c];
    st[c][1][0] = st[c][1][1] = iteration;
    for (unsigned g = 0; g < 2; ++g) {
      st[c][2][g] = j[c][g]; // the index's high word above: never read
      st[c][3][g] = j[c][g] >> 32;
    }
  }
  vf_u32 k0 = (vf_u32)seed, k1 = (vf_u32)(seed >> 32);
  for (int r = 0; r < VF_PHILOX_ROUNDS; ++r) {
    if (r > 0) {
      k0 += VF_PHILOX_W0;
      k1 += VF_PHILOX_W1;
    }
    for (unsigned c = 0; c < n; ++c)
      for (unsigned g = 0; g < 2; ++g) {
        const vf_u64x8 p0 = (st[c][0][g] & low) * VF_PHILOX_M0;
        const vf_u64x8 p1 = (st[c][2][g] & low) * VF_PHILOX_M1;
        st[c][0][g] = (p1 >> 32) ^ st[c][1][g] ^ k0;
        st[c][2][g] = (p0 >> 32) ^ st[c][3][g] ^ k1;
        st[c][1][g] = p1;
        st[c][3][g] = p0;
      }
  }
  for (unsigned c = 0; c < n; ++c)
    for (unsigned w = 0; w < 4; ++w) {
      const vf_u32x8 l = __builtin_convertvector(st[c][w][0], vf_u32x8),
                     h = __builtin_convertvector(st[c][w][1], vf_u32x8);
      out[c][w] = __builtin_shufflevector(l, h, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
                                          10, 11, 12, 13, 14, 15);
    }
}

#pragma clang diagnostic pop

#endif // VF_RUNTIME_KERNELS_PHILOXX16_H
