//===- runtime/kernels/SampleBatch.h - Sixteen samples at once ---*- C -*-===//
//
// The host's form of SamplePoint.h: the same stages for sixteen
// consecutive samples, the uniform source's sixteen-lane draw
// (UniformSource.h) and the channel eight lanes at a time (ChannelX8.h),
// so that every step runs eight or sixteen lanes per instruction (one
// AVX-512 register, two AVX2 ones). The loop vectorizer could not do this
// by itself: it cannot bound the map's gathers for a runtime alias check
// and left the whole step scalar, 2/3 of the kernel's time at d = 8
// (docs/sampling-engine.md).
//
// Each lane performs exactly the IEEE operations of vf_sample_point, in the
// same order (no contraction: the kernels are built with -ffp-contract=off),
// so the numbers are bit for bit those of the GPU kernel and of the host's
// scalar recomputation of a sample.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLEBATCH_H
#define VF_RUNTIME_KERNELS_SAMPLEBATCH_H

#include "ChannelX8.h"
#include "UniformSource.h"

// Static, inlined helpers (LaneVectors.h): no vector argument reaches a
// call boundary.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

/// Stores eight axes c[0..7] of eight lanes sample-major: lane l's eight
/// values to x + l * dim. An 8 x 8 transpose in registers (three rounds of
/// shuffles) and eight vector stores instead of 64 scalar ones.
static inline void vf_store_transposed_8x8(const vf_f64x8 *c, double *x,
                                           unsigned dim) {
  vf_f64x8 t[8], u[8];
  for (unsigned p = 0; p < 4; ++p) {
    t[2 * p] = __builtin_shufflevector(c[2 * p], c[2 * p + 1], 0, 8, 2, 10,
                                       4, 12, 6, 14);
    t[2 * p + 1] = __builtin_shufflevector(c[2 * p], c[2 * p + 1], 1, 9, 3,
                                           11, 5, 13, 7, 15);
  }
  // u[0] lanes 0 and 4 of axes 0-3, u[1] lanes 2 and 6, u[2] 1 and 5,
  // u[3] 3 and 7; u[4..7] the same for axes 4-7.
  for (unsigned q = 0; q < 2; ++q) {
    vf_f64x8 a0 = t[4 * q], a1 = t[4 * q + 1], b0 = t[4 * q + 2],
             b1 = t[4 * q + 3];
    u[4 * q] = __builtin_shufflevector(a0, b0, 0, 1, 8, 9, 4, 5, 12, 13);
    u[4 * q + 1] = __builtin_shufflevector(a0, b0, 2, 3, 10, 11, 6, 7, 14, 15);
    u[4 * q + 2] = __builtin_shufflevector(a1, b1, 0, 1, 8, 9, 4, 5, 12, 13);
    u[4 * q + 3] = __builtin_shufflevector(a1, b1, 2, 3, 10, 11, 6, 7, 14, 15);
  }
  static const unsigned Lane[4][2] = {{0, 4}, {2, 6}, {1, 5}, {3, 7}};
  for (unsigned r = 0; r < 4; ++r) {
    vf_f64x8 lo = __builtin_shufflevector(u[r], u[r + 4], 0, 1, 2, 3, 8, 9,
                                          10, 11);
    vf_f64x8 hi = __builtin_shufflevector(u[r], u[r + 4], 4, 5, 6, 7, 12, 13,
                                          14, 15);
    __builtin_memcpy(x + Lane[r][0] * dim, &lo, sizeof lo);
    __builtin_memcpy(x + Lane[r][1] * dim, &hi, sizeof hi);
  }
}

/// vf_sample_point for the sixteen samples j[0..15] of hypercubes
/// hc[0..15] (r: vf_strata_reciprocals): x sample-major (x + lane * dim)
/// when x_stride is 0, else axis-major (x[d * x_stride + lane]); training
/// slots slot[d * stride + lane], jac[lane] (x and the Jacobians widened
/// to double where the sample path is single, SampleReal.h); unit_box as
/// vf_map_axis_x8 takes it, a constant here too. Both blocks of
/// words of eight axes are drawn together (vf_uniform_words_x16); four chains,
/// for 32 samples, measured slower (their words and the map's vectors spill).
static inline __attribute__((always_inline)) void
vf_sample_points_x16(const vf_sampler_args *a, unsigned dim, const vf_u64 *j,
                     const vf_u64 *hc, const double *r, unsigned stride,
                     double *x, unsigned x_stride, vf_u32 *slot, double *jac,
                     int unit_box) {
  vf_realx8 jv[2];
  vf_f64x8 hp[2], q[2];
  for (unsigned v = 0; v < 2; ++v) {
    jv[v] = VF_BOX_VOLUME(a);
    vf_u64x8 hl;
    __builtin_memcpy(&hl, hc + v * VF_LANES, sizeof hl);
    q[v] = __builtin_convertvector(hl, vf_f64x8);
    hp[v] = q[v] + 0.5;
  }
  const double nstrat = (double)a->nstrat;
  vf_u64x8 jl[2][2];
  vf_uniform_lanes_x16(j, jl[0]);
  jl[1][0] = jl[0][0];
  jl[1][1] = jl[0][1];
  const vf_u32 first = vf_channel_first_block(a);
  // Eight axes at a time (two blocks of words), so that a group's
  // coordinates leave through one transpose.
  VF_UNROLL_DIMENSIONS
  for (unsigned g = 0; 8 * g < dim; ++g) {
    const unsigned nblk = 8 * g + 4 < dim ? 2 : 1;
    const vf_u32 blk[2] = {first + 2 * g, first + 2 * g + 1};
    vf_u32x16 words[2][4];
    vf_uniform_words_x16(a->seed, a->iteration, nblk, jl, blk, words);
    vf_f64x8 xg[2][8];
    VF_UNROLL_DIMENSIONS
    for (unsigned b = 0; b < nblk; ++b) {
      VF_UNROLL_DIMENSIONS
      for (unsigned c = 0; c < 4 && 8 * g + 4 * b + c < dim; ++c) {
        const unsigned d = 8 * g + 4 * b + c;
        for (unsigned v = 0; v < 2; ++v) {
          const vf_u32x8 w = v ? words[b][c].hi : words[b][c].lo;
          const vf_realx8 u = vf_uniform_x8(w);
          // Whole numbers below nstrat: exact in either precision.
          const vf_realx8 k = __builtin_convertvector(
              vf_hcube_coord_x8(hp[v], r, d, nstrat, &q[v]), vf_realx8);
          const vf_f64x8 xd = __builtin_convertvector(
              vf_map_axis_x8(a, d, u, k, slot + d * stride + v * VF_LANES,
                             &jv[v], unit_box),
              vf_f64x8);
          // Strided x leaves at once, rather than held for the end of the
          // group: fewer live registers.
          if (x_stride)
            __builtin_memcpy(x + d * x_stride + v * VF_LANES, &xd, sizeof xd);
          else
            xg[v][d - 8 * g] = xd;
        }
      }
    }
    for (unsigned v = 0; v < 2 && !x_stride; ++v) {
      double *xv = x + v * VF_LANES * dim + 8 * g;
      if (8 * g + 8 <= dim) {
        vf_store_transposed_8x8(xg[v], xv, dim);
        continue;
      }
      VF_UNROLL_DIMENSIONS
      for (unsigned d = 8 * g; d < dim; ++d)
        for (unsigned l = 0; l < VF_LANES; ++l)
          xv[l * dim + d - 8 * g] = xg[v][d - 8 * g][l];
    }
  }
  for (unsigned v = 0; v < 2; ++v) {
    const vf_f64x8 jd = __builtin_convertvector(jv[v], vf_f64x8);
    __builtin_memcpy(jac + v * VF_LANES, &jd, sizeof jd);
  }
}

#pragma clang diagnostic pop

#endif // VF_RUNTIME_KERNELS_SAMPLEBATCH_H
