//===- tests/unit/runtime/kernels/SampleBatchProbe.c - SampleBatch.h in C -===//
//
// The host kernel's sixteen-sample step (runtime/kernels/SampleBatch.h) is
// C with clang vector extensions; these wrappers run its parts for
// SampleBatchTest.cpp. Compiled twice: for the baseline x86-64 and for
// AVX-512 (SampleBatchProbe512.c), since the JIT builds the kernel for the
// host's widest vectors and both forms must give the same numbers; and both
// again with the single-precision sample path (SampleBatchProbeF32*.c,
// VF_SAMPLE_SINGLE).
//
//===----------------------------------------------------------------------===//

#include "SampleBatch.h"
#include "SamplePoint.h"

#ifndef VF_PROBE
#define VF_PROBE(name) vf_test_##name
#endif

/// k[d * 8 + l]: coordinate d of hypercube h[l], as the step finds it.
void VF_PROBE(hcube_coords_x8)(const vf_u64 *h, unsigned dim, vf_u32 nstrat,
                               double *k) {
  double r[VF_SAMPLER_MAX_DIM + 1];
  vf_strata_reciprocals(dim, nstrat, r);
  vf_u64x8 hv;
  __builtin_memcpy(&hv, h, sizeof hv);
  vf_f64x8 q = __builtin_convertvector(hv, vf_f64x8), hp = q + 0.5;
  for (unsigned d = 0; d < dim; ++d) {
    const vf_f64x8 kd = vf_hcube_coord_x8(hp, r, d, (double)nstrat, &q);
    __builtin_memcpy(k + d * VF_LANES, &kd, sizeof kd);
  }
}

/// out[(c * 4 + w) * 16 + l]: word w of chain c's block blk[c] for sample
/// j[c * 16 + l], n chains at once (1 to 4).
void VF_PROBE(philox_chains)(vf_u64 seed, vf_u32 iteration, unsigned n,
                             const vf_u64 *j, const vf_u32 *blk,
                             vf_u32 *out) {
  vf_u64x8 jl[4][2];
  vf_u32x16 words[4][4];
  for (unsigned c = 0; c < n; ++c)
    vf_index_lanes_x16(j + c * VF_WORD_LANES, jl[c]);
  switch (n) { // a constant in the kernel
  case 1:
    vf_philox_chains_x16(seed, iteration, 1, jl, blk, words);
    break;
  case 2:
    vf_philox_chains_x16(seed, iteration, 2, jl, blk, words);
    break;
  case 3:
    vf_philox_chains_x16(seed, iteration, 3, jl, blk, words);
    break;
  default:
    vf_philox_chains_x16(seed, iteration, 4, jl, blk, words);
    break;
  }
  for (unsigned c = 0; c < n; ++c)
    for (unsigned w = 0; w < 4; ++w)
      __builtin_memcpy(out + (c * 4 + w) * VF_WORD_LANES, &words[c][w],
                       sizeof words[c][w]);
}

/// The step for sixteen samples j[0..15] in hypercubes hc[0..15], x
/// strided (x[d * 16 + l]) or, with x_stride 0, sample-major; in the unit
/// cube's form where unit_box (for a box that is the unit cube).
void VF_PROBE(sample_points_x16)(const vf_sampler_args *a, unsigned dim,
                                 const vf_u64 *j, const vf_u64 *hc,
                                 unsigned x_stride, double *x, vf_u32 *slot,
                                 double *jac, int unit_box) {
  double r[VF_SAMPLER_MAX_DIM + 1];
  vf_strata_reciprocals(dim, a->nstrat, r);
  if (unit_box)
    vf_sample_points_x16(a, dim, j, hc, r, VF_WORD_LANES, x, x_stride, slot,
                         jac, 1);
  else
    vf_sample_points_x16(a, dim, j, hc, r, VF_WORD_LANES, x, x_stride, slot,
                         jac, 0);
}

/// The scalar path's point of sample j in hypercube h (SamplePoint.h, as
/// the GPU kernel and the host's recomputation draw it) in this build's
/// precision; the Jacobian widened to double.
double VF_PROBE(sample_point)(const vf_sampler_args *a, unsigned dim, vf_u64 j,
                              vf_u64 h, double *x, vf_u32 *bin) {
  vf_real k[VF_SAMPLER_MAX_DIM];
  vf_hcube_coords(h, dim, a->nstrat, k);
  return (double)vf_sample_point(a, dim, j, k, x, bin);
}

/// Axis 0 of the map for eight lanes at chosen uniforms u and hypercube
/// coordinates k (in this build's precision), as the step maps it: x, the
/// training slots and the Jacobians (from the box volume).
void VF_PROBE(map_axis_x8)(const vf_sampler_args *a, const double *u,
                           const double *k, double *x, vf_u32 *slot,
                           double *jac) {
  vf_realx8 uv, kv, jv = VF_BOX_VOLUME(a);
  for (unsigned l = 0; l < VF_LANES; ++l) {
    uv[l] = (vf_real)u[l];
    kv[l] = (vf_real)k[l];
  }
  const vf_realx8 xv = vf_map_axis_x8(a, 0, uv, kv, slot, &jv, 0);
  for (unsigned l = 0; l < VF_LANES; ++l) {
    x[l] = (double)xv[l];
    jac[l] = (double)jv[l];
  }
}

/// The scalar channel's point (Channel.h) of one axis at u and k.
double VF_PROBE(channel_axis)(const vf_sampler_args *a, double u, double k,
                              double *x, vf_u32 *bin) {
  const vf_channel_scales s = vf_channel_scales_of(a);
  const vf_real uk[2] = {(vf_real)u, (vf_real)k};
  return (double)vf_channel_point(a, &s, 1, uk + 1, uk, x, bin);
}

/// A word's uniform in this build's precision, widened to double.
double VF_PROBE(uniform)(vf_u32 w) { return (double)vf_uniform_of(w); }
