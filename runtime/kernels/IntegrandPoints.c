//===- runtime/kernels/IntegrandPoints.c - The integrand at given points -*- C
//-*-===//
//
// The integrand at points the runtime chooses rather than draws: events
// (their weights) and the point of a bad sample (its message) after an
// iteration, and a user's own evaluation of a compiled integrand. It is
// instantiated per integrand next to the host's tile function
// (vf_points_NAME), with the same out-of-line integrand the tile
// recomputes flagged samples with, so the values are bit for bit the
// sampler's and nothing is compiled for them after the module.
//
//===----------------------------------------------------------------------===//

// The host's only, like Sampler.c: empty in the nvptx64 bitcode.
#ifndef __NVPTX__

#include "IntegrandHooks.h"
#include "SamplerABI.h"

/// f at the n points xs (stride dim) into out (stride nout); the
/// histograms' cells and weight-list entries, which the integrand writes
/// after its outputs, are dropped.
void vf_integrand_points(const double *xs, long long n, const double *params,
                         double *out) {
  const unsigned dim = vf_user_dim(), nout = vf_user_nout();
  double v[VF_SAMPLE_VALUES(VF_SAMPLER_MAX_WEIGHTS)];
  for (long long i = 0; i < n; ++i) {
    vf_user_integrand_exact(xs + i * dim, params, v);
    for (unsigned c = 0; c < nout; ++c)
      out[i * nout + c] = v[c];
  }
}

#endif // __NVPTX__
