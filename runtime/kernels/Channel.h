//===- runtime/kernels/Channel.h - The channel --------------------*- C -*-===//
//
// The second stage of the sampling core: a sample's point from its
// hypercube and uniforms, and back. For hypercube k of the strata (M =
// nstrat per axis) and uniforms u, axis by axis:
//
//   y      = (k + u) / M                          (strata; below 1)
//   x_unit = e_i + (yN - i)(e_{i+1} - e_i),  i = floor(yN)   (VEGAS map)
//   x      = lo + width x_unit                    (the user's box)
//
// with Jacobian N (e_{i+1} - e_i) per axis, times the box's volume. The
// inverse takes x_unit to y with the same Jacobian (AdaptiveMap::invmap).
// Plain C for every target: the GPU kernel, the host's scalar
// recomputation and the event sampler use vf_channel_point; the host
// kernel does the same operations eight lanes at a time (ChannelX8.h).
// The forward map's arithmetic is the sample path's (vf_real,
// SampleReal.h); the inverse is double (the density of a multi-channel
// integrand, which stays double in both precisions).
//
// The channel sampled is vf_sampler_args::channel, whose map the runtime
// passes as `edges`: the steps here are the same for every channel. What
// the index changes is the uniforms drawn (UniformSource.h) and the
// integrand's term the compiled kernel runs (the compiler's dispatcher,
// compiler/bitcode/SamplerKernel.h).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_CHANNEL_H
#define VF_RUNTIME_KERNELS_CHANNEL_H

#include "SampleReal.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Integer coordinates of hypercube h, axis 0 varying fastest.
static inline void vf_hcube_coords(vf_u64 h, unsigned dim, vf_u32 nstrat,
                                   vf_real *k) {
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d) {
    k[d] = (vf_real)(h % nstrat);
    h /= nstrat;
  }
}

/// The channel's per-iteration scales: increments per axis (N) and 1/M.
typedef struct vf_channel_scales {
  vf_u32 ninc;
  vf_real dninc, inv_nstrat;
} vf_channel_scales;

/// The scales of \p a. Taken before the uniforms are drawn, they leave the
/// GPU kernel's code as it was when one function did both.
static inline vf_channel_scales vf_channel_scales_of(const vf_sampler_args *a) {
  vf_channel_scales s;
  s.ninc = a->ninc;
  s.dninc = (vf_real)s.ninc;
  s.inv_nstrat = (vf_real)1 / (vf_real)a->nstrat;
  return s;
}

/// Fills x (user's box) and bin (map increment per axis) for the uniforms
/// u in the hypercube with coordinates k, scales s (vf_channel_scales_of);
/// returns the Jacobian including the box volume. x is the point widened
/// to double, as the integrand reads it.
static inline vf_real vf_channel_point(const vf_sampler_args *a,
                                       const vf_channel_scales *s, unsigned dim,
                                       const vf_real *k, const vf_real *u,
                                       double *x, vf_u32 *bin) {
  const vf_u32 ninc = s->ninc;
  const vf_real dninc = s->dninc, inv_nstrat = s->inv_nstrat;
  vf_real jac = VF_BOX_VOLUME(a);
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d) {
    vf_real y = (k[d] + u[d]) * inv_nstrat;
    y = y < 1 ? y : VF_REAL_BELOW_ONE;
    vf_real t = y * dninc;
    vf_u32 i = (vf_u32)t;
    i = i < ninc ? i : ninc - 1;
    const vf_real *e = VF_MAP_EDGES(a) + (vf_u64)d * (ninc + 1) + i;
    vf_real width = e[1] - e[0];
    vf_real xu = e[0] + (t - (vf_real)i) * width;
    jac *= dninc * width;
    x[d] = (double)(VF_BOX_LO(a)[d] + VF_BOX_WIDTH(a)[d] * xu);
    bin[d] = i;
  }
  return jac;
}

/// The VEGAS map's inverse on one axis with edges e[0 .. ninc]: y of
/// x_unit and the axis's Jacobian N (e_{i+1} - e_i), for the increment i
/// with e_i <= x_unit < e_{i+1}, past any zero-width ones (the first edge
/// above x_unit, found by bisection, less one; clamped to the map).
static inline double vf_map_invert_axis(const double *e, vf_u32 ninc, double xu,
                                        double *y) {
  vf_u64 first = 0, count = (vf_u64)ninc + 1;
  while (count > 0) {
    const vf_u64 half = count / 2;
    if (!(xu < e[first + half])) {
      first += half + 1;
      count -= half + 1;
    } else {
      count = half;
    }
  }
  const vf_u32 i = first == 0         ? 0
                   : first - 1 < ninc ? (vf_u32)first - 1
                                      : ninc - 1;
  const double width = e[i + 1] - e[i];
  const double delta = width > 0 ? (xu - e[i]) / width : 0.0;
  *y = ((double)i + delta) / (double)ninc;
  return (double)ninc * width;
}

/// The channel's inverse: y in the unit cube for the point x of the
/// user's box; returns the Jacobian dx/dy including the box volume (the
/// one vf_channel_point reports for that point, up to rounding).
static inline double vf_channel_invert(const vf_sampler_args *a, unsigned dim,
                                       const double *x, double *y) {
  double jac = a->box_volume;
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d) {
    const double xu = (x[d] - a->box_lo[d]) / a->box_width[d];
    jac *= vf_map_invert_axis(a->edges + (vf_u64)d * (a->ninc + 1), a->ninc, xu,
                              y + d);
  }
  return jac;
}

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_CHANNEL_H
