//===- runtime/kernels/UniformSource.h - The uniforms -------------*- C -*-===//
//
// The first stage of the sampling core: the uniforms in (0,1) of sample j
// of an iteration, which depend only on (seed, iteration, channel, j),
// never on the device or the batch that draws them. Every consumer draws
// through here: the GPU kernel and the host's scalar recomputation of a point
// (vf_uniforms_point, via SamplePoint.h), the host kernel's sixteen lanes
// (vf_uniform_words_x16 and vf_uniform_x8, via SampleBatch.h) and the event
// sampler's choice of hypercube and acceptance (vf_uniforms_choice).
//
// The source is Philox4x32-10 (Philox.h, PhiloxX16.h), chosen here and
// nowhere else: another generator is a header beside Philox.h with its
// scalar and sixteen-lane draws, selected in this file. Four uniforms per
// block of words, block b holding axes 4b .. 4b + 3 (Philox.h's counter
// layout); a word w gives the uniform (w + 1/2) 2^-32, or in single
// precision its top 23 bits theirs (vf_uniform_of, SampleReal.h). Channel c of
// a multi-channel integrand (vf_sampler_args::channel) draws from block c
// VF_CHANNEL_BLOCKS on: channels never share words, and channel 0 draws what a
// single-channel integrand always drew.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_UNIFORMSOURCE_H
#define VF_RUNTIME_KERNELS_UNIFORMSOURCE_H

#include "PhiloxX16.h"
#include "SampleReal.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The blocks one channel's points may span: VF_SAMPLER_MAX_DIM axes, four
/// per block.
#define VF_CHANNEL_BLOCKS (VF_SAMPLER_MAX_DIM / 4)

/// The block of the event sampler's choice draw: above any point's block
/// (channel c's points use blocks c VF_CHANNEL_BLOCKS .. (c + 1)
/// VF_CHANNEL_BLOCKS - 1), so an event's choice and its point's uniforms
/// never share words.
#define VF_UNIFORM_CHOICE_BLOCK 0xffffffffu

/// The channel whose uniforms a's draws are. The kernels instantiated per
/// integrand define it as their instance's constant (a hole,
/// IntegrandHooks.h): channel 0's blocks then fold into Philox's first
/// round as they did before channels.
#ifndef VF_UNIFORM_CHANNEL
#define VF_UNIFORM_CHANNEL(a) ((a)->channel)
#endif

/// The first block of a's channel.
static inline vf_u32 vf_channel_first_block(const vf_sampler_args *a) {
  return (vf_u32)VF_UNIFORM_CHANNEL(a) * VF_CHANNEL_BLOCKS;
}

/// u[0 .. dim) of sample j of a's seed, iteration and channel. All blocks
/// first, so that the map's loop over dimensions has no dependence on an
/// earlier axis's block.
static inline void vf_uniforms_point(const vf_sampler_args *a, vf_u64 j,
                                     unsigned dim, vf_real *u) {
  const vf_u32 first = vf_channel_first_block(a);
  VF_UNROLL_DIMENSIONS
  for (unsigned blk = 0; 4 * blk < dim; ++blk) {
    vf_u32 words[4];
    vf_philox_block(a->seed, a->iteration, j, first + blk, words);
    VF_UNROLL_DIMENSIONS
    for (unsigned c = 0; c < 4 && 4 * blk + c < dim; ++c)
      u[4 * blk + c] = vf_uniform_of(words[c]);
  }
}

/// Event j of `stream`'s two choices: `pick`, a uniform with 52 random
/// bits (2^-32 would be too coarse among up to 2^50 hypercubes) that picks
/// the event's hypercube, and `accept`, the hit-or-miss uniform of
/// unweighting.
static inline void vf_uniforms_choice(vf_u64 seed, vf_u32 stream, vf_u64 j,
                                      double *pick, double *accept) {
  vf_u32 w[4];
  vf_philox_block(seed, stream, j, VF_UNIFORM_CHOICE_BLOCK, w);
  *pick = vf_philox_u01_52(w[0], w[1]);
  *accept = vf_philox_u01(w[2]);
}

#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

/// The sixteen samples j[0 .. 15] as the source's per-lane inputs (the
/// index, Philox's counter words 2 and 3).
static inline void vf_uniform_lanes_x16(const vf_u64 *j, vf_u64x8 lanes[2]) {
  vf_index_lanes_x16(j, lanes);
}

/// The words of n (samples, block) pairs of sixteen lanes: out[c][w] is
/// word w of block blk[c] of the samples j[c], as vf_uniforms_point draws
/// them one sample at a time. Independent pairs drawn together
/// interleave, which keeps the multipliers busy.
static inline __attribute__((always_inline)) void
vf_uniform_words_x16(vf_u64 seed, vf_u32 iteration, unsigned n,
                     const vf_u64x8 (*j)[2], const vf_u32 *blk,
                     vf_u32x16 (*out)[4]) {
  vf_philox_chains_x16(seed, iteration, n, j, blk, out);
}

/// Eight words to their uniforms, vf_uniform_of per lane.
static inline vf_realx8 vf_uniform_x8(vf_u32x8 w) {
#ifdef VF_SAMPLE_SINGLE
  return (__builtin_convertvector(w >> 9, vf_realx8) + 0.5f) * 0x1p-23f;
#else
  // (w + 1/2) 2^-32 without a conversion instruction: w under 2^52's
  // exponent is the double 2^52 + w, and subtracting 2^52 - 1/2 (53 bits)
  // leaves w + 1/2; both exact, so these are the conversion's bits. Where
  // w comes from Philox's 64-bit lanes (PhiloxX16.h), the widening folds
  // into one logic step, where the conversion took a cross-lane shuffle.
  const vf_u64x8 b =
      __builtin_convertvector(w, vf_u64x8) | 0x4330000000000000ull;
  vf_f64x8 d;
  __builtin_memcpy(&d, &b, sizeof d);
  return (d - (0x1p52 - 0.5)) * 0x1p-32;
#endif
}

#pragma clang diagnostic pop

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_UNIFORMSOURCE_H
