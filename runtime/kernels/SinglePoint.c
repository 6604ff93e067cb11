//===- runtime/kernels/SinglePoint.c - A float sample's point -----*- C -*-===//
//
// SamplePoint.h's single-precision form, compiled natively into the
// runtime (SinglePoint.h).
//
//===----------------------------------------------------------------------===//

#define VF_SAMPLE_SINGLE
#include "SinglePoint.h"
#include "SamplePoint.h"

void vf_single_sample_x(const vf_sampler_args *a, unsigned dim, vf_u64 h,
                        vf_u64 j, double *x) {
  vf_real k[VF_SAMPLER_MAX_DIM];
  vf_u32 bin[VF_SAMPLER_MAX_DIM];
  vf_hcube_coords(h, dim, a->nstrat, k);
  vf_sample_point(a, dim, j, k, x, bin);
}
