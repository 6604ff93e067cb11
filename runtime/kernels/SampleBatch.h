//===- runtime/kernels/SampleBatch.h - Sixteen samples at once ---*- C -*-===//
//
// The host's form of SamplePoint.h: the same Philox words, the same map and
// the same Jacobian for sixteen consecutive samples, written with clang's
// vector types so that every step runs eight or sixteen lanes per
// instruction (one AVX-512 register, two AVX2 ones). The loop vectorizer
// could not do this by itself: it cannot bound the map's gathers for a
// runtime alias check and left the whole step scalar, 2/3 of the kernel's
// time at d = 8 (docs/sampling-engine.md).
//
// Each lane performs exactly the IEEE operations of vf_sample_point, in the
// same order (no contraction: the kernels are built with -ffp-contract=off),
// so the numbers are bit for bit those of the GPU kernel and of the host's
// scalar recomputation of a sample.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLEBATCH_H
#define VF_RUNTIME_KERNELS_SAMPLEBATCH_H

#include "SamplePoint.h"

// The bitcode is built for generic x86-64 and retargeted to the host by
// the JIT; these helpers are static and inlined, so the by-value
// vector arguments clang warns about never reach a call boundary.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

#define VF_LANES 8
#define VF_WORD_LANES 16
typedef double vf_f64x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u32 vf_u32x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u64 vf_u64x8 __attribute__((ext_vector_type(VF_LANES)));
typedef vf_u32 vf_u32x16 __attribute__((ext_vector_type(VF_WORD_LANES)));
typedef double vf_f64x2 __attribute__((ext_vector_type(2)));
typedef double vf_f64x4 __attribute__((ext_vector_type(4)));

/// e[i[l]] and e[i[l] + 1] for eight lanes: one 16-byte load per lane (the
/// two edges of an increment are neighbours), then a transpose - half the
/// loads of gathering each edge on its own.
static inline void vf_edge_pairs_x8(const double *e, vf_u32x8 i, vf_f64x8 *e0,
                                    vf_f64x8 *e1) {
  vf_f64x2 p[VF_LANES];
  for (unsigned l = 0; l < VF_LANES; ++l)
    __builtin_memcpy(&p[l], e + i[l], sizeof p[l]);
  vf_f64x4 q0 = __builtin_shufflevector(p[0], p[1], 0, 1, 2, 3);
  vf_f64x4 q1 = __builtin_shufflevector(p[2], p[3], 0, 1, 2, 3);
  vf_f64x4 q2 = __builtin_shufflevector(p[4], p[5], 0, 1, 2, 3);
  vf_f64x4 q3 = __builtin_shufflevector(p[6], p[7], 0, 1, 2, 3);
  vf_f64x8 r0 = __builtin_shufflevector(q0, q1, 0, 1, 2, 3, 4, 5, 6, 7);
  vf_f64x8 r1 = __builtin_shufflevector(q2, q3, 0, 1, 2, 3, 4, 5, 6, 7);
  *e0 = __builtin_shufflevector(r0, r1, 0, 2, 4, 6, 8, 10, 12, 14);
  *e1 = __builtin_shufflevector(r0, r1, 1, 3, 5, 7, 9, 11, 13, 15);
}

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
  *hi = __builtin_shufflevector(e, o, 1, 17, 3, 19, 5, 21, 7, 23, 9, 25, 11,
                                27, 13, 29, 15, 31);
  *lo = __builtin_shufflevector(e, o, 0, 16, 2, 18, 4, 20, 6, 22, 8, 24, 10,
                                26, 12, 28, 14, 30);
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
                                        const vf_u32x16 *jhi,
                                        const vf_u32 *blk,
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

/// One axis of vf_sample_point for eight lanes: uniforms u, hypercube
/// coordinates k; writes each lane's training slot (the offset of its
/// increment's (sum, weight) pair in the dim x ninc pairs, 2 (d ninc + i):
/// computed here for eight lanes at once, so that the in-order training
/// loop only loads it), multiplies the Jacobians jv, returns the
/// coordinates x_d.
static inline vf_f64x8 vf_map_axis_x8(const vf_sampler_args *a, unsigned d,
                                      vf_f64x8 u, vf_f64x8 k, vf_u32 *slot,
                                      vf_f64x8 *jv) {
  const vf_u32 ninc = a->ninc;
  const double dninc = (double)ninc, inv_nstrat = 1.0 / (double)a->nstrat;
  vf_f64x8 y = (k + u) * inv_nstrat;
  y = y < 1.0 ? y : VF_ONE_MINUS_ULP;
  vf_f64x8 t = y * dninc;
  vf_u32x8 i = __builtin_convertvector(t, vf_u32x8);
  i = __builtin_elementwise_min(i, (vf_u32x8)(ninc - 1));
  const double *e = a->edges + (vf_u64)d * (ninc + 1);
  vf_f64x8 e0, e1;
  vf_edge_pairs_x8(e, i, &e0, &e1);
  vf_f64x8 width = e1 - e0;
  vf_f64x8 xu = e0 + (t - __builtin_convertvector(i, vf_f64x8)) * width;
  *jv *= dninc * width;
  const vf_u32x8 s = (i + (vf_u32)d * ninc) * 2u;
  __builtin_memcpy(slot, &s, sizeof s);
  return a->box_lo[d] + a->box_width[d] * xu;
}

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

/// 1 / nstrat^d for d = 0 .. dim (vf_hcube_coords_x8's table); entry
/// dim is never used for a coordinate but bounds the last quotient.
static inline void vf_strata_reciprocals(unsigned dim, vf_u32 nstrat,
                                         double *r) {
  vf_u64 p = 1;
  for (unsigned d = 0; d <= dim; ++d) {
    r[d] = 1.0 / (double)p;
    p = d < dim ? p * nstrat : p;
  }
}

/// Coordinate k_d of hypercubes h (as doubles, hp = h + 0.5) for eight
/// lanes, the same whole numbers as vf_hcube_coords, without a division:
/// q_d = floor(h / nstrat^d) is floor(hp r_d), then k_d = q_d - nstrat
/// q_{d+1}. Exact for h < 2^50 (Strata keeps nhcube below it): hp and the
/// products below are exact, and the two roundings of hp r_d move it by
/// less than hp / nstrat^d 2^-52 < 0.25 / nstrat^d, while hp / nstrat^d
/// lies at least 0.5 / nstrat^d from a whole number. \p q carries q_d in
/// and q_{d+1} out, so each axis costs a multiply, a floor (three
/// additions) and a multiply-subtract per eight lanes, where the
/// per-sample coordinates were eight scalar stores per sample.
static inline vf_f64x8 vf_hcube_coord_x8(vf_f64x8 hp, const double *r,
                                         unsigned d, double nstrat,
                                         vf_f64x8 *q) {
  // floor(t) as the whole number nearest t - 1/2, rounded by adding and
  // subtracting 1.5 2^52 (the sum lies in [2^52, 2^53), where doubles are
  // whole): t's fractional part stays inside (0, 1) by more than t's
  // rounding error (above), so t - 1/2 (exact: t < 2^50) is never
  // half-way. Additions vectorize on every x86-64, where
  // __builtin_elementwise_floor is a libm call per lane without SSE4.1
  // (the native sampler's baseline build, SSE2 hosts).
  const vf_f64x8 next = (hp * r[d + 1] - 0.5 + 0x1.8p52) - 0x1.8p52;
  const vf_f64x8 k = *q - next * nstrat;
  *q = next;
  return k;
}

/// vf_sample_point for the sixteen samples j[0..15] of hypercubes
/// hc[0..15] (r: vf_strata_reciprocals): x sample-major (x + lane * dim)
/// when x_stride is 0, else axis-major (x[d * x_stride + lane]); training
/// slots slot[d * stride + lane], jac[lane]. Both Philox blocks of eight
/// axes are drawn together (vf_philox_chains_x16); four chains, for 32
/// samples, measured slower (their words and the map's vectors spill).
static inline __attribute__((always_inline)) void
vf_sample_points_x16(const vf_sampler_args *a, unsigned dim, const vf_u64 *j,
                     const vf_u64 *hc, const double *r, unsigned stride,
                     double *x, unsigned x_stride, vf_u32 *slot, double *jac) {
  vf_f64x8 jv[2], hp[2], q[2];
  for (unsigned v = 0; v < 2; ++v) {
    jv[v] = a->box_volume;
    vf_u64x8 hl;
    __builtin_memcpy(&hl, hc + v * VF_LANES, sizeof hl);
    q[v] = __builtin_convertvector(hl, vf_f64x8);
    hp[v] = q[v] + 0.5;
  }
  const double nstrat = (double)a->nstrat;
  vf_u32x16 jlo[2], jhi[2];
  vf_index_words_x16(j, &jlo[0], &jhi[0]);
  jlo[1] = jlo[0];
  jhi[1] = jhi[0];
  // Eight axes at a time (two Philox blocks), so that a group's
  // coordinates leave through one transpose.
  VF_UNROLL_DIMENSIONS
  for (unsigned g = 0; 8 * g < dim; ++g) {
    const unsigned nblk = 8 * g + 4 < dim ? 2 : 1;
    const vf_u32 blk[2] = {2 * g, 2 * g + 1};
    vf_u32x16 words[2][4];
    vf_philox_chains_x16(a->seed, a->iteration, nblk, jlo, jhi, blk, words);
    vf_f64x8 xg[2][8];
    VF_UNROLL_DIMENSIONS
    for (unsigned b = 0; b < nblk; ++b) {
      VF_UNROLL_DIMENSIONS
      for (unsigned c = 0; c < 4 && 8 * g + 4 * b + c < dim; ++c) {
        const unsigned d = 8 * g + 4 * b + c;
        for (unsigned v = 0; v < 2; ++v) {
          const vf_u32x8 w = v ? words[b][c].hi : words[b][c].lo;
          vf_f64x8 u =
              (__builtin_convertvector(w, vf_f64x8) + 0.5) * 0x1p-32;
          const vf_f64x8 k = vf_hcube_coord_x8(hp[v], r, d, nstrat, &q[v]);
          const vf_f64x8 xd = vf_map_axis_x8(
              a, d, u, k, slot + d * stride + v * VF_LANES, &jv[v]);
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
  __builtin_memcpy(jac, jv, sizeof jv);
}

#pragma clang diagnostic pop

#endif // VF_RUNTIME_KERNELS_SAMPLEBATCH_H
