//===- runtime/kernels/SampleReal.h - A sample's arithmetic -------*- C -*-===//
//
// The type a sample's point is computed in: double, or float in the
// kernels compiled with VF_SAMPLE_SINGLE (--precision f32;
// docs/algorithm.md, "Precision"). In float the uniforms, the position in
// the hypercube, the VEGAS map (its edges and the box uploaded as floats,
// vf_sampler_args::single_*), the Jacobian and v = J f are single
// precision; x reaches the integrand widened to double, exactly, and the
// integrand rounds it back, exactly. The hypercube coordinates and the
// increment indices are integers in both.
//
// Every file of the sample path includes this one, so a kernel is single
// or double throughout; both are compiled from the same source and the
// double kernel is the one it always was.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLEREAL_H
#define VF_RUNTIME_KERNELS_SAMPLEREAL_H

#include "SamplerABI.h"

#ifdef VF_SAMPLE_SINGLE
typedef float vf_real;
/// The largest vf_real below 1: y = (k + u)/M can round up to 1.
#define VF_REAL_BELOW_ONE 0x1.fffffep-1f
/// The map's edges and the box, as the kernel reads them.
#define VF_MAP_EDGES(a) ((a)->single_edges)
#define VF_BOX_LO(a) ((a)->single_lo)
#define VF_BOX_WIDTH(a) ((a)->single_width)
#define VF_BOX_VOLUME(a) ((a)->single_volume)
#else
typedef double vf_real;
#define VF_REAL_BELOW_ONE 0x1.fffffffffffffp-1
#define VF_MAP_EDGES(a) ((a)->edges)
#define VF_BOX_LO(a) ((a)->box_lo)
#define VF_BOX_WIDTH(a) ((a)->box_width)
#define VF_BOX_VOLUME(a) ((a)->box_volume)
#endif

/// A word's uniform in (0, 1). In double (w + 1/2) 2^-32 (Philox.h). In
/// float the word's top 23 bits m give (m + 1/2) 2^-23, exact: a float's
/// 24 significant bits hold m + 1/2 for every m below 2^23, where 24
/// random bits and their midpoint would need 25 (rounding would then
/// give 1 itself for the largest word).
static inline vf_real vf_uniform_of(vf_u32 w) {
#ifdef VF_SAMPLE_SINGLE
  return ((float)(w >> 9) + 0.5f) * 0x1p-23f;
#else
  return vf_philox_u01(w);
#endif
}

/// v = J f in the sample path's arithmetic, for a value f of the
/// integrand (a float widened to double in single precision, so the
/// rounding back is exact).
static inline vf_real vf_weigh_real(vf_real jac, double f) {
  return jac * (vf_real)f;
}

/// vf_weigh_real widened exactly to the double the host's sums take.
static inline double vf_weigh(vf_real jac, double f) {
  return (double)vf_weigh_real(jac, f);
}

/// Whether an integrand's value f is finite: in single precision f is a
/// float widened, and the test is the float's, so that the GPU kernel,
/// where the widening folds away, tests in float too.
static inline int vf_value_isfinite(double f) {
  const vf_real x = (vf_real)f;
  return x - x == 0;
}

/// |x| of a vf_real.
#ifdef VF_SAMPLE_SINGLE
#define VF_REAL_ABS(x) __builtin_fabsf(x)
#else
#define VF_REAL_ABS(x) __builtin_fabs(x)
#endif

/// Whether a block's sums of deviations carry a compensation term
/// (BlockSums.h): in single precision only, where they are float.
#ifdef VF_SAMPLE_SINGLE
#define VF_COMPENSATED 1
#else
#define VF_COMPENSATED 0
#endif

/// a + b = s + *err exactly, s = a + b rounded (Knuth's TwoSum; no
/// contraction, so every device computes the same err).
static inline vf_real vf_two_sum(vf_real a, vf_real b, vf_real *err) {
  const vf_real s = a + b, bp = s - a;
  *err = (a - (s - bp)) + (b - bp);
  return s;
}

/// 1 / n_h, the weight of a sample of a hypercube of n samples, in the
/// sample path's arithmetic.
static inline vf_real vf_inverse_count(vf_u64 n) {
  return (vf_real)1 / (vf_real)n;
}

#endif // VF_RUNTIME_KERNELS_SAMPLEREAL_H
