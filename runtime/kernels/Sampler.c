//===- runtime/kernels/Sampler.c - The fused VEGAS+ sampling kernel -*- C -*-===//
//
// One function draws, maps, evaluates and accumulates every sample of a
// tile: Philox4x32-10 uniforms keyed by (seed; iteration, sample index) ->
// position in the sample's hypercube -> VEGAS map (direct indexing, no
// search) -> affine map to the user's box -> integrand -> per-hypercube
// segment sums and map-training sums. No sample is written to memory.
//
// Compiled once to bitcode for x86-64 and nvptx64 and linked with each
// integrand's IR: the compiler replaces vf_user_integrand, vf_user_dim and
// vf_user_nout by the integrand's function and constants, so after
// inlining the dimension loops are fully unrolled (ALGORITHM.md sections
// 1, 2, 5; G. P. Lepage, J. Comput. Phys. 439 (2021) 110386).
//
//===----------------------------------------------------------------------===//

#include "SamplePoint.h"

extern void vf_user_integrand(const double *x, const double *params,
                              double *out);
extern unsigned vf_user_dim(void);
extern unsigned vf_user_nout(void);

static int vf_isfinite(double v) { return v - v == 0.0; }

/// Index of the hypercube holding sample `index` (binary search; once per
/// tile, the loop then walks forward).
static vf_u64 vf_find_hcube(const vf_u64 *offsets, vf_u64 nhcube,
                            vf_u64 index) {
  vf_u64 lo = 0, hi = nhcube;
  while (hi - lo > 1) {
    vf_u64 mid = lo + (hi - lo) / 2;
    if (offsets[mid] <= index)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// Starts a segment at the first sample's values v.
static void vf_segment_start(double *seg, const double *v, unsigned nout) {
  unsigned stride = VF_SEGMENT_STRIDE(nout);
  for (unsigned i = 0; i < stride; ++i)
    seg[i] = 0.0;
  for (unsigned c = 0; c < nout; ++c)
    seg[1 + c] = v[c];
}

static void vf_segment_add(double *seg, const double *v, unsigned nout) {
  double dev[VF_SAMPLER_MAX_OUT];
  seg[0] += 1.0;
  for (unsigned c = 0; c < nout; ++c) {
    dev[c] = v[c] - seg[1 + c];
    seg[1 + nout + c] += dev[c];
  }
  double *cross = seg + 1 + 2 * nout;
  for (unsigned c = 0; c < nout; ++c)
    for (unsigned e = c; e < nout; ++e)
      *cross++ += dev[c] * dev[e];
}

static void vf_segment_store(double *dst, const double *seg, unsigned nout) {
  unsigned stride = VF_SEGMENT_STRIDE(nout);
  for (unsigned i = 0; i < stride; ++i)
    dst[i] = seg[i];
}

void vf_sample_tile(const vf_sampler_args *a, vf_u64 tile,
                    const vf_tile_outputs *out) {
  const unsigned dim = vf_user_dim();
  const unsigned nout = vf_user_nout();
  const vf_u32 ninc = a->ninc;
  const vf_u64 begin = tile * a->tile_size;
  vf_u64 end = begin + a->tile_size;
  if (end > a->nsamples)
    end = a->nsamples;
  const unsigned stride = VF_SEGMENT_STRIDE(nout);

  double k[VF_SAMPLER_MAX_DIM], x[VF_SAMPLER_MAX_DIM], v[VF_SAMPLER_MAX_OUT];
  double f[VF_SAMPLER_MAX_OUT], seg[VF_SEGMENT_STRIDE(VF_SAMPLER_MAX_OUT)];
  vf_u32 bin[VF_SAMPLER_MAX_DIM];

  vf_tile_result *r = out->result;
  r->nonfinite = 0;
  r->first_bad = 0;
  vf_u64 h = vf_find_hcube(a->hcube_offsets, a->nhcube, begin);
  r->first_hcube = h;
  vf_u64 h_end = a->hcube_offsets[h + 1];
  double inv_nh = 1.0 / (double)(h_end - a->hcube_offsets[h]);
  vf_hcube_coords(h, dim, a->nstrat, k);
  int seg_open = 0;

  for (vf_u64 j = begin; j < end; ++j) {
    if (j >= h_end) {
      // Close the finished hypercube: the first goes to an edge slot, the
      // others are complete and go straight to their own entry.
      vf_segment_store(h == r->first_hcube
                           ? out->edge_segments
                           : out->hcube_segments + h * stride,
                       seg, nout);
      seg_open = 0;
      while (j >= a->hcube_offsets[h + 1])
        ++h;
      h_end = a->hcube_offsets[h + 1];
      inv_nh = 1.0 / (double)(h_end - a->hcube_offsets[h]);
      vf_hcube_coords(h, dim, a->nstrat, k);
    }
    double jac = vf_sample_point(a, dim, j, k, x, bin);
    vf_user_integrand(x, a->params, f);
    int finite = 1;
    for (unsigned c = 0; c < nout; ++c)
      finite &= vf_isfinite(f[c]);
    if (!finite) {
      if (r->nonfinite++ == 0)
        r->first_bad = j;
      for (unsigned c = 0; c < nout; ++c)
        f[c] = 0.0;
    }
    for (unsigned c = 0; c < nout; ++c)
      v[c] = jac * f[c];
    if (!seg_open) {
      vf_segment_start(seg, v, nout);
      seg_open = 1;
    }
    vf_segment_add(seg, v, nout);
    if (a->train) {
      double t2 = v[0] * v[0] * inv_nh;
      for (unsigned d = 0; d < dim; ++d) {
        out->train_sums[(vf_u64)d * ninc + bin[d]] += t2;
        out->train_counts[(vf_u64)d * ninc + bin[d]] += inv_nh;
      }
    }
  }
  r->last_hcube = h;
  if (seg_open)
    vf_segment_store(h == r->first_hcube ? out->edge_segments
                                         : out->edge_segments + stride,
                     seg, nout);
}

#ifdef __NVPTX__
/// GPU entry (a first cut; the CUDA backend refines it): thread t of the
/// grid runs tile first_tile + t with its own outputs out[t].
void vf_sample_tiles_gpu(const vf_sampler_args *a, vf_u64 first_tile,
                         vf_u64 ntiles, const vf_tile_outputs *out) {
  vf_u64 t = (vf_u64)__nvvm_read_ptx_sreg_ctaid_x() *
                 (vf_u64)__nvvm_read_ptx_sreg_ntid_x() +
             (vf_u64)__nvvm_read_ptx_sreg_tid_x();
  if (t < ntiles)
    vf_sample_tile(a, first_tile + t, out + t);
}
#endif
