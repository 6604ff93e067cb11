//===- runtime/kernels/ChannelX8.h - The channel, eight lanes -----*- C -*-===//
//
// Channel.h's forward map for eight samples at a time, on the host: each
// lane performs exactly the IEEE operations of vf_channel_point, in the
// same order (no contraction: the kernels are built with
// -ffp-contract=off), so the points and Jacobians are bit for bit those of
// the GPU kernel and of the host's scalar recomputation. The hypercube
// coordinates come without a division (vf_hcube_coord_x8) and the map's
// edges in pairs (vf_edge_pairs_x8) or gathered, as the compiler chose for
// the CPU (vf_map_edges_x8): the loop vectorizer could do neither and
// left the step scalar (docs/sampling-engine.md).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_CHANNELX8_H
#define VF_RUNTIME_KERNELS_CHANNELX8_H

#include "Channel.h"
#include "LaneVectors.h"

// The bitcode is built for generic x86-64 and retargeted to the host by
// the JIT; these helpers are static and inlined, so the by-value
// vector arguments clang warns about never reach a call boundary.
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wpsabi"

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

/// Whether floor is one instruction: SSE4.1's rounding, on every CPU the
/// JIT compiles the kernel's bitcode for in practice (x86-64-v2 and up).
/// The native sampler's baseline build (SSE2) would call libm per lane.
#if defined(VF_KERNEL_BITCODE) || defined(__SSE4_1__)
#define VF_ROUNDING_INSTRUCTIONS 1
#else
#define VF_ROUNDING_INSTRUCTIONS 0
#endif

/// floor(t) for t in [0, 2^50) that is not within its rounding error of a
/// whole number (vf_hcube_coord_x8's quotients): the same bits in either
/// form. Without a rounding instruction, the whole number nearest t - 1/2,
/// rounded by adding and subtracting 1.5 2^52 (the sum lies in [2^52,
/// 2^53), where doubles are whole): t - 1/2 is exact and, t not being
/// whole, never half-way. With one, one operation for those three.
static inline vf_f64x8 vf_floor_x8(vf_f64x8 t) {
#if VF_ROUNDING_INSTRUCTIONS
  return __builtin_elementwise_floor(t);
#else
  return (t - 0.5 + 0x1.8p52) - 0x1.8p52;
#endif
}

/// Coordinate k_d of hypercubes h (as doubles, hp = h + 0.5) for eight
/// lanes, the same whole numbers as vf_hcube_coords, without a division:
/// q_d = floor(h / nstrat^d) is floor(hp r_d), then k_d = q_d - nstrat
/// q_{d+1}. Exact for h < 2^50 (Strata keeps nhcube below it): hp and the
/// products below are exact, and the two roundings of hp r_d move it by
/// less than hp / nstrat^d 2^-52 < 0.25 / nstrat^d, while hp / nstrat^d
/// lies at least 0.5 / nstrat^d from a whole number (vf_floor_x8's
/// condition). \p q carries q_d in and q_{d+1} out, so each axis costs a
/// multiply, a floor and a multiply-subtract per eight lanes, where the
/// per-sample coordinates were eight scalar stores per sample.
static inline vf_f64x8 vf_hcube_coord_x8(vf_f64x8 hp, const double *r,
                                         unsigned d, double nstrat,
                                         vf_f64x8 *q) {
  const vf_f64x8 next = vf_floor_x8(hp * r[d + 1]);
  const vf_f64x8 k = *q - next * nstrat;
  *q = next;
  return k;
}

/// e[i[l]] and e[i[l] + 1] for eight lanes: one 16-byte load per lane (the
/// two edges of an increment are neighbours; 8 bytes in single
/// precision), then a transpose - half the loads of gathering each edge on
/// its own. The even lanes' pairs go to one vector and the odd lanes' to
/// another, so that the last step interleaves within 16-byte lanes
/// (vunpcklpd, vunpckhpd in double) rather than across the vector: no
/// index vectors to keep in registers, and cheaper shuffles. The indices
/// leave the vector two at a time, as 64-bit words split on the integer
/// side (vmovq or vpextrq, then a move and a shift): a transfer per two
/// lanes where vpextrd took one per lane, on the ports Zen 4 shares with
/// stores and conversions (3-5% of a whole run there,
/// docs/sampling-engine.md).
static inline void vf_edge_pairs_x8(const vf_real *e, vf_u32x8 i, vf_realx8 *e0,
                                    vf_realx8 *e1) {
  vf_realx2 p[VF_LANES];
  vf_u64x4 w;
  __builtin_memcpy(&w, &i, sizeof w);
  for (unsigned l = 0; l < VF_LANES / 2; ++l) {
    const vf_u64 x = w[l];
    __builtin_memcpy(&p[2 * l], e + (vf_u32)x, sizeof p[0]);
    __builtin_memcpy(&p[2 * l + 1], e + (x >> 32), sizeof p[0]);
  }
  vf_realx4 q0 = __builtin_shufflevector(p[0], p[2], 0, 1, 2, 3);
  vf_realx4 q1 = __builtin_shufflevector(p[4], p[6], 0, 1, 2, 3);
  vf_realx4 q2 = __builtin_shufflevector(p[1], p[3], 0, 1, 2, 3);
  vf_realx4 q3 = __builtin_shufflevector(p[5], p[7], 0, 1, 2, 3);
  vf_realx8 r0 = __builtin_shufflevector(q0, q1, 0, 1, 2, 3, 4, 5, 6, 7);
  vf_realx8 r1 = __builtin_shufflevector(q2, q3, 0, 1, 2, 3, 4, 5, 6, 7);
  *e0 = __builtin_shufflevector(r0, r1, 0, 8, 2, 10, 4, 12, 6, 14);
  *e1 = __builtin_shufflevector(r0, r1, 1, 9, 3, 11, 5, 13, 7, 15);
}

/// Eight doubles base[index[l]], gathered. C cannot spell a gather for
/// generic x86-64 (clang 19 has no generic gather builtin, and the
/// targets' own need AVX2 or AVX-512 in the function), so the compiler
/// defines this function when it instantiates the kernel
/// (compiler/bitcode/SamplerKernel.cpp) as LLVM's masked gather: the
/// backend emits the CPU's gather instruction where it has one worth
/// using, else eight scalar loads.
void vf_gather_f64x8(const double *base, const vf_u32x8 *index, vf_f64x8 *out);

/// The values of vf_edge_pairs_x8, each edge gathered on its own: two
/// gathers, where the pairs take eight loads and a transpose. Which is
/// faster depends on the CPU (gathers are microcoded on many Intel parts),
/// so the compiler chooses by a calibration measured on the CPU
/// (compiler/backends/MapLoadCalibration.h); the bits are the same.
static inline void vf_edge_pairs_gathered_x8(const double *e, vf_u32x8 i,
                                             vf_f64x8 *e0, vf_f64x8 *e1) {
  vf_gather_f64x8(e, &i, e0);
  vf_gather_f64x8(e + 1, &i, e1);
}

/// Whether the map gathers its edges: the kernel's vf_user_map_gathers
/// hole (Sampler.c), never where nothing defines vf_gather_f64x8 (native
/// code: NativeSampler.c, the benchmarks).
#ifndef VF_MAP_GATHERS
#define VF_MAP_GATHERS 0u
#endif

/// The edges of increments i in the form VF_MAP_GATHERS names. Float
/// edges (single precision, SampleReal.h) are always loaded in pairs: 8
/// bytes per lane, and the calibration times doubles.
static inline void vf_map_edges_x8(const vf_real *e, vf_u32x8 i,
                                   vf_realx8 *e0, vf_realx8 *e1) {
#ifdef VF_SAMPLE_SINGLE
  vf_edge_pairs_x8(e, i, e0, e1);
#else
  if (VF_MAP_GATHERS)
    vf_edge_pairs_gathered_x8(e, i, e0, e1);
  else
    vf_edge_pairs_x8(e, i, e0, e1);
#endif
}

/// One axis of vf_channel_point for eight lanes: uniforms u, hypercube
/// coordinates k; writes each lane's training slot (the offset of its
/// increment's (sum, weight) pair in the dim x ninc pairs, 2 (d ninc + i):
/// computed here for eight lanes at once, so that the in-order training
/// loop only loads it), multiplies the Jacobians jv, returns the
/// coordinates x_d, in the sample path's arithmetic (SampleReal.h).
/// unit_box, a constant where inlined: the box is the unit cube (the
/// compiler's vf_user_unit_box), and x_d is the map's point xu as it is,
/// bit for bit lo + width xu there: 1 xu is exact, and xu is never -0 (an
/// edge, at least +0, plus a product of factors that are +0 or more), so
/// 0 + xu (or -0 + xu) is xu. Two operations fewer per axis and eight
/// lanes, 2-3% of a whole run of lepage8 on Zen 4 (docs/sampling-engine.md).
static inline vf_realx8 vf_map_axis_x8(const vf_sampler_args *a, unsigned d,
                                       vf_realx8 u, vf_realx8 k, vf_u32 *slot,
                                       vf_realx8 *jv, int unit_box) {
  const vf_u32 ninc = a->ninc;
  const vf_real dninc = (vf_real)ninc,
                inv_nstrat = (vf_real)1 / (vf_real)a->nstrat;
  vf_realx8 y = (k + u) * inv_nstrat;
  // Channel.h's y < 1 ? y : below-one, written as the minimum it is (no
  // value lies between below-one and 1): one vminpd, where the comparison
  // with 1 took a compare and a blend.
  y = y < VF_REAL_BELOW_ONE ? y : VF_REAL_BELOW_ONE;
  vf_realx8 t = y * dninc;
  vf_u32x8 i = __builtin_convertvector(t, vf_u32x8);
  i = __builtin_elementwise_min(i, (vf_u32x8)(ninc - 1));
  const vf_real *e = VF_MAP_EDGES(a) + (vf_u64)d * (ninc + 1);
  vf_realx8 e0, e1;
  vf_map_edges_x8(e, i, &e0, &e1);
  vf_realx8 width = e1 - e0;
  // i as a real, the same number as floor(t): t < ninc, since y <= 1 -
  // 2^-p rounds y ninc below ninc for every ninc (by more than half an
  // ulp, or to the exact 2^e - 2^(e-p) where ninc = 2^e), so the minimum
  // above never applies. One rounding instruction where the conversion
  // back from 32-bit integers took four micro-operations on Zen 4.
#if VF_ROUNDING_INSTRUCTIONS
  const vf_realx8 whole = __builtin_elementwise_floor(t);
#else
  const vf_realx8 whole = __builtin_convertvector(i, vf_realx8);
#endif
  vf_realx8 xu = e0 + (t - whole) * width;
  *jv *= dninc * width;
  const vf_u32x8 s = (i + (vf_u32)d * ninc) * 2u;
  __builtin_memcpy(slot, &s, sizeof s);
  return unit_box ? xu : VF_BOX_LO(a)[d] + VF_BOX_WIDTH(a)[d] * xu;
}

#pragma clang diagnostic pop

#endif // VF_RUNTIME_KERNELS_CHANNELX8_H
