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

/// hi and lo words of m * c for sixteen 32-bit lanes c: 64-bit multiplies
/// of the even lanes and of the odd lanes (vpmuludq), whose halves are
/// interleaved back - half the work of widening each lane to 64 bits.
static inline void vf_mul_wide_x16(vf_u32x16 c, vf_u32 m, vf_u32x16 *hi,
                                   vf_u32x16 *lo) {
  const vf_u64 low = 0xffffffffull;
  vf_u64x8 c64;
  __builtin_memcpy(&c64, &c, sizeof c64);
  vf_u64x8 even = (c64 & low) * m, odd = (c64 >> 32) * m;
  // The halves interleaved by two shuffles of the products' words: written
  // as shifts and masks, (odd << 32) became a third, 64-bit multiply
  // (odd's factor shifted), and the multipliers are Philox's bottleneck.
  vf_u32x16 e, o;
  __builtin_memcpy(&e, &even, sizeof e);
  __builtin_memcpy(&o, &odd, sizeof o);
  *hi = __builtin_shufflevector(e, o, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11, 27,
                                13, 29, 15, 31);
  *lo = __builtin_shufflevector(e, o, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10, 26,
                                12, 28, 14, 30);
}

/// The low and high words of sixteen sample indices (Philox's counter
/// words 2 and 3), two vector truncations.
static inline void vf_index_words_x16(const vf_u64 *j, vf_u32x16 *lo,
                                      vf_u32x16 *hi) {
  for (unsigned h = 0; h < 2; ++h) {
    vf_u64x8 v;
    __builtin_memcpy(&v, j + h * VF_LANES, sizeof v);
    const vf_u32x8 l = __builtin_convertvector(v, vf_u32x8),
                   u = __builtin_convertvector(v >> 32, vf_u32x8);
    for (unsigned e = 0; e < VF_LANES; ++e) {
      (*lo)[h * VF_LANES + e] = l[e];
      (*hi)[h * VF_LANES + e] = u[e];
    }
  }
}

/// vf_philox_block for n independent (samples, block) pairs of sixteen
/// lanes at once:
/// chain c draws block blk[c] of the samples whose index words are
/// jlo[c], jhi[c] into out[c]. A round is a multiply, a shuffle and two
/// logic steps, all dependent, so one chain's latency leaves the
/// multipliers idle; interleaved chains fill them. n is a constant where
/// this is inlined.
static inline void vf_philox_chains_x16(vf_u64 seed, vf_u32 iteration,
                                        unsigned n, const vf_u32x16 *jlo,
                                        const vf_u32x16 *jhi, const vf_u32 *blk,
                                        vf_u32x16 (*out)[4]) {
  vf_u32x16 c0[4], c1[4], c2[4], c3[4];
  for (unsigned c = 0; c < n; ++c) {
    c0[c] = blk[c];
    c1[c] = iteration;
    c2[c] = jlo[c];
    c3[c] = jhi[c];
  }
  vf_u32 k0 = (vf_u32)seed, k1 = (vf_u32)(seed >> 32);
  for (int r = 0; r < VF_PHILOX_ROUNDS; ++r) {
    if (r > 0) {
      k0 += VF_PHILOX_W0;
      k1 += VF_PHILOX_W1;
    }
    for (unsigned c = 0; c < n; ++c) {
      vf_u32x16 hi0, lo0, hi1, lo1;
      vf_mul_wide_x16(c0[c], VF_PHILOX_M0, &hi0, &lo0);
      vf_mul_wide_x16(c2[c], VF_PHILOX_M1, &hi1, &lo1);
      c0[c] = hi1 ^ c1[c] ^ k0;
      c2[c] = hi0 ^ c3[c] ^ k1;
      c1[c] = lo1;
      c3[c] = lo0;
    }
  }
  for (unsigned c = 0; c < n; ++c) {
    out[c][0] = c0[c];
    out[c][1] = c1[c];
    out[c][2] = c2[c];
    out[c][3] = c3[c];
  }
}

#pragma clang diagnostic pop

#endif // VF_RUNTIME_KERNELS_PHILOXX16_H
