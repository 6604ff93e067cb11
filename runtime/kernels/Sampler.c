//===- runtime/kernels/Sampler.c - The fused VEGAS+ sampling kernel -*- C -*-===//
//
// One function draws, maps, evaluates and accumulates every sample of a
// tile: Philox4x32-10 uniforms keyed by (seed; iteration, channel, sample
// index) -> position in the sample's hypercube -> VEGAS map (direct
// indexing, no search) -> affine map to the user's box -> integrand ->
// per-hypercube segment sums and map-training sums. No sample is written
// to memory.
//
// Compiled to bitcode for x86-64 and linked with each integrand's IR: the
// compiler fills the holes of IntegrandHooks.h (vf_user_integrand_fast,
// vf_user_dim, ...) with the integrand's functions and constants, so
// after inlining the dimension loops are fully unrolled
// (ALGORITHM.md sections 1, 2, 5; G. P. Lepage, J. Comput. Phys. 439
// (2021) 110386).
//
// NativeSampler.c compiles this same file natively into the runtime with
// VF_SAMPLER_NATIVE defined: the tile function is then
// vf_native_sample_tile, dim and nout come from the arguments, and step (3)
// calls a native integrand's batch callback (NativeSampler.h) once per batch
// instead of the compiled integrand once per sample. Everything else is
// shared, so a native integrand is sampled exactly like a compiled one.
//
//===----------------------------------------------------------------------===//

// The GPU's kernel is GpuSampler.c (a warp per tile); this file is the
// host's, and empty in the nvptx64 bitcode.
#ifndef __NVPTX__

#ifndef VF_SAMPLER_NATIVE
#include "IntegrandHooks.h"
/// The instance's channel, a constant (UniformSource.h).
#define VF_UNIFORM_CHANNEL(a) vf_user_channel()
/// The map's form (ChannelX8.h); native code keeps the pairs.
#define VF_MAP_GATHERS vf_user_map_gathers()
#endif

#include "BlockSums.h"
#include "HistSums.h"
#include "SampleBatch.h"
#include "TrainingUpdates.h"

#ifdef VF_SAMPLER_NATIVE
#include "NativeSampler.h"
#define VF_TILE_FUNCTION vf_native_sample_tile
#define VF_TILE_EXTRA_PARAMS , const vf_native_integrand *native
#define VF_TILE_EXTRA_ARGS , native
#define VF_TILE_DIM a->dim
#define VF_TILE_NOUT a->nout
#define VF_TILE_NHIST 0u
#define VF_TILE_NWEIGHTS 0u
#define VF_TILE_NPARAMS 0u
#define VF_TILE_X_STRIDE 0u
#define VF_TILE_WIDE 0u
#define VF_TILE_UNIT_BOX 0
/// Per-batch arrays are sized for the actual dimension (VLAs).
#define VF_BATCH_DIM dim
#else
#define VF_TILE_X_STRIDE vf_user_x_stride()
#define VF_TILE_WIDE vf_user_wide_vectors()
/// The box is the unit cube whatever the parameters (the compiler's
/// reading of the domain): the map's points need no scaling.
#define VF_TILE_UNIT_BOX vf_user_unit_box()
#define VF_TILE_FUNCTION vf_sample_tile
#define VF_TILE_EXTRA_PARAMS
#define VF_TILE_EXTRA_ARGS
#define VF_TILE_DIM vf_user_dim()
#define VF_TILE_NOUT vf_user_nout()
/// The integrand writes each histogram's cell after its outputs.
#define VF_TILE_NHIST vf_user_nhist()
/// And then each weight-list entry (codegen/WeightsGen.h), up to
/// VF_SAMPLER_MAX_WEIGHTS: more than the tile's stack holds for a batch,
/// so those values go to the worker's scratch (vf_tile_outputs.values).
#define VF_TILE_NWEIGHTS vf_user_nweights()
#define VF_TILE_NPARAMS vf_user_nparams()
#define VF_BATCH_DIM VF_SAMPLER_MAX_DIM
#endif

/// Samples are processed in batches of whole 32-sample blocks
/// (BlockSums.h): positions for the whole batch, then the integrand for the
/// whole batch, then each sample's v = J f and training value, then the
/// segment sums block by block and the training sums in sample order. Each
/// sample computes exactly the same operations either way, so the numbers
/// do not depend on the batch. A native integrand's callback sees 64
/// points per call.
#ifdef VF_SAMPLER_NATIVE
#define VF_BATCH 64
#else
#define VF_BATCH VF_HOST_BATCH
_Static_assert(VF_HOST_BATCH % VF_BLOCK == 0, "whole blocks per batch");
#endif
_Static_assert(VF_BATCH <= 64, "a batch's hypercube starts fit one word");
/// Parameters copied to the tile's stack at most (above: read in place).
#define VF_LOCAL_PARAMS 256
/// Vectorize across samples rather than unroll: unrolled, only the SLP
/// vectorizer sees the loop, and it widens it less well.
#define VF_VECTORIZE_ACROSS_SAMPLES                                            \
  _Pragma("clang loop vectorize(enable) unroll(disable)")

#ifndef VF_SAMPLER_NATIVE
/// The integrand itself for the batch's samples whose fast evaluation
/// raised its flag: their values, bit for bit those of the slow paths
/// taken where needed.
static void vf_exact_samples(const double *xb, unsigned x_stride,
                             unsigned dim, const double *params, double *fb,
                             unsigned nvals, const int *slowb) {
  double x[VF_SAMPLER_MAX_DIM];
  for (unsigned b = 0; b < VF_BATCH; ++b) {
    if (!slowb[b])
      continue;
    const double *xs = xb + b * dim;
    if (x_stride) {
      for (unsigned d = 0; d < dim; ++d)
        x[d] = xb[d * x_stride + b];
      xs = x;
    }
    vf_user_integrand_exact(xs, params, fb + b * nvals);
  }
}
#endif

/// The steps of a batch, each inlined into the tile function, so that the
/// tile's locals stay in registers as if written in one piece.
#define VF_STEP static inline __attribute__((always_inline))

/// (1) Each sample's hypercube and 1/n_h (samples are ordered by
/// hypercube), with no branch per sample: the hypercubes that start in the
/// batch mark their first lanes in the word returned (a branch per sample
/// would mispredict at every change, i.e. every few samples where VEGAS+
/// gives most hypercubes their minimum); a lane belongs to the last mark
/// at or before it. A short last batch is padded with copies of its last
/// sample, so the next two loops always run VF_BATCH times (a constant
/// trip count, which the vectorizer handles best); the padding is not
/// accumulated. *h, *h_end and *inv_nh move on to the batch's last
/// hypercube.
VF_STEP vf_u64 vf_batch_hcubes(const vf_u64 *offsets, vf_u64 j0, unsigned nb,
                               vf_u64 *h, vf_u64 *h_end, vf_real *inv_nh,
                               vf_u64 *hb, vf_real *invnb) {
  vf_u64 heads = 1;
  vf_u64 runh[VF_BATCH];
  vf_real runinv[VF_BATCH];
  // Run 0 is the last batch's last hypercube, unless that ended there.
  unsigned nrun = *h_end > j0;
  runh[0] = *h;
  runinv[0] = *inv_nh;
  while (*h_end < j0 + nb) {
    const vf_u64 start = *h_end;
    *h_end = offsets[++*h + 1];
    if (*h_end == start)
      continue; // empty (Strata gives none, but the walk allows them)
    heads |= (vf_u64)1 << (start - j0);
    runh[nrun] = *h;
    runinv[nrun++] = vf_inverse_count(*h_end - start);
  }
  *inv_nh = runinv[nrun - 1];
  for (unsigned b = 0, k = 0; b < VF_BATCH; ++b) {
    k += (unsigned)(heads >> b) & 1u;
    hb[b] = runh[k - 1];
    invnb[b] = runinv[k - 1];
  }
  return heads;
}

/// (2) Points, training slots and Jacobians, sixteen samples per step
/// (SampleBatch.h), in the unit cube's form where unit_box (a constant).
VF_STEP void vf_batch_points(const vf_sampler_args *a, unsigned dim, vf_u64 j0,
                             unsigned nb, const vf_u64 *hb, const double *recip,
                             double *xb, unsigned x_stride, vf_u32 *slotb,
                             double *jacb, int unit_box) {
  const vf_u64x8 lane = {0, 1, 2, 3, 4, 5, 6, 7};
  // The box through pointers the compiler cannot follow from one batch to
  // the next: else it hoists each axis's broadcast corner and width out of
  // the tile's loop and keeps them as 64-byte vectors spilled to the
  // stack, reloaded for every sixteen samples; read per batch, each is one
  // 8-byte broadcast folded into its arithmetic (2-3% of a whole run on
  // Zen 4, docs/sampling-engine.md).
  vf_sampler_args batch_args = *a;
  __asm__("" : "+r"(VF_BOX_LO(&batch_args)), "+r"(VF_BOX_WIDTH(&batch_args)));
  for (unsigned b0 = 0; b0 < VF_BATCH; b0 += VF_WORD_LANES) {
    // The batch's padding repeats its last sample. In vectors: the
    // compiler left this loop scalar, a compare and a move per lane.
    vf_u64 j[VF_WORD_LANES];
    for (unsigned v = 0; v < VF_WORD_LANES; v += VF_LANES) {
      const vf_u64x8 jv =
          j0 + __builtin_elementwise_min(lane + (vf_u64)(b0 + v),
                                         (vf_u64x8)(vf_u64)(nb - 1));
      __builtin_memcpy(j + v, &jv, sizeof jv);
    }
    vf_sample_points_x16(&batch_args, dim, j, hb + b0, recip, VF_BATCH,
                         x_stride ? xb + b0 : xb + b0 * dim, x_stride,
                         slotb + b0, jacb + b0, unit_box);
  }
}

/// (3) The integrand: a native one's callback once per batch, a compiled
/// one per sample, its exact copy for the samples whose fast evaluation
/// raised their flag (at a->params, as the tile's copy is only a copy).
VF_STEP void vf_batch_values(const vf_sampler_args *a, const double *xb,
                             unsigned x_stride, unsigned dim, unsigned nb,
                             const double *params, double *fb,
                             unsigned nvals VF_TILE_EXTRA_PARAMS) {
#ifdef VF_SAMPLER_NATIVE
  (void)a, (void)x_stride, (void)nvals;
  native->eval(native->context, xb, nb, dim, params, fb);
#else
  (void)nb;
  int slowb[VF_BATCH];
  for (unsigned b = 0; b < VF_BATCH; ++b)
    slowb[b] = 0;
  if (x_stride) {
    VF_VECTORIZE_ACROSS_SAMPLES
    for (unsigned b = 0; b < VF_BATCH; ++b)
      vf_user_integrand_strided_fast(xb + b, params, fb + b * nvals, slowb + b);
  } else {
    VF_VECTORIZE_ACROSS_SAMPLES
    for (unsigned b = 0; b < VF_BATCH; ++b)
      vf_user_integrand_fast(xb + b * dim, params, fb + b * nvals, slowb + b);
  }
  int anyslow = 0;
  for (unsigned b = 0; b < VF_BATCH; ++b)
    anyslow |= slowb[b];
  if (__builtin_expect(anyslow, 0))
    vf_exact_samples(xb, x_stride, dim, a->params, fb, nvals, slowb);
#endif
}

/// (4a) Each sample's v = J f (f taken as 0 where it is not finite) and
/// map-training value (J f_0)^2 / n_h, outside the ordered loop: no
/// cross-sample dependence. The sums below add exactly these numbers.
/// Every lane of the batch, so that the block step reads defined values (a
/// short batch's padding repeats its last sample). Whether every value was
/// finite.
VF_STEP int vf_batch_weights(const double *fb, unsigned nb, unsigned nout,
                             unsigned nvals, const double *jacb,
                             const vf_real *invnb, int *finb, double *vb,
                             vf_real *t2b) {
  int allfinite = 1;
  for (unsigned b = 0; b < VF_BATCH; ++b) {
    const double *f = fb + (b < nb ? b : nb - 1) * nvals;
    int finite = 1;
    for (unsigned c = 0; c < nout; ++c)
      finite &= vf_value_isfinite(f[c]);
    finb[b] = finite;
    allfinite &= finite;
    for (unsigned c = 0; c < nout; ++c)
      vb[b * nout + c] = vf_weigh((vf_real)jacb[b], finite ? f[c] : 0.0);
    const vf_real v0 = (vf_real)vb[b * nout];
    t2b[b] = v0 * v0 * invnb[b];
  }
  return allfinite;
}

/// The tile's largest deviation so far: its size, the sample's value and
/// index.
typedef struct {
  double dev, value;
  vf_u64 index;
} vf_tile_largest;

/// (4b) Segment sums, block by block (BlockSums.h), and (4c) the largest
/// deviation, first in sample order: searched lane by lane only in the
/// rare blocks whose largest beats the tile's so far (the others change
/// nothing).
VF_STEP void vf_batch_segments(const vf_tile_outputs *out, vf_u64 first,
                               vf_open_segment *sg, const vf_u64 *hb,
                               vf_u64 heads, const double *vb, vf_real *devb,
                               const vf_real *invnb, vf_u64 j0, unsigned nb,
                               unsigned nout, vf_tile_largest *large) {
  for (unsigned b0 = 0; b0 < nb; b0 += VF_BLOCK) {
    const unsigned n = nb - b0 < VF_BLOCK ? nb - b0 : VF_BLOCK;
    vf_block_segments(out, first, sg, hb + b0, (vf_u32)(heads >> b0),
                      vb + b0 * nout, n, nout, devb + b0, VF_TILE_WIDE);
    if (vf_block_largest(devb + b0, invnb + b0, n) > large->dev)
      for (unsigned b = b0; b < b0 + n; ++b) {
        const vf_real dev = devb[b] * invnb[b];
        if (dev > large->dev) {
          large->dev = dev;
          large->value = vb[b * nout];
          large->index = j0 + b;
        }
      }
  }
}

/// A batch's histogram and weight-list value counts.
typedef struct {
  unsigned nhist, nweights;
} vf_batch_cells;

/// (4d) Histograms and weight-list entries (the cells after the
/// histograms'), in sample order, and the training sums, in sample order
/// in their own buffer.
VF_STEP void vf_batch_accumulate(vf_hist_state *hist, const vf_sampler_args *a,
                                 unsigned dim, unsigned nb, unsigned nout,
                                 vf_batch_cells cells, const vf_u64 *hb,
                                 const double *vb, const double *fb,
                                 const double *jacb, const int *finb,
                                 vf_real *train, const vf_u32 *slotb,
                                 const vf_real *t2b, const vf_real *invnb) {
  const unsigned nhist = cells.nhist, nweights = cells.nweights;
  const unsigned nvals = nout + nhist + nweights;
  if (nhist || nweights)
    for (unsigned b = 0; b < nb; ++b) {
      if (nhist)
        vf_hist_add(hist, a, hb[b], vb[b * nout], fb + b * nvals + nout, nhist);
      if (nweights)
        vf_hist_add_entries(hist, a, hb[b], finb[b] ? jacb[b] : 0.0,
                            vb[b * nout],
                            a->hist_cells - (vf_u32)VF_WEIGHT_CELLS(nweights),
                            fb + b * nvals + nout + nhist, nweights);
    }
  if (train)
    vf_train_batch(train, slotb, VF_BATCH, t2b, invnb, dim, nb);
}

/// The parameters on the tile's stack (\p local), where the compiler sees
/// that nothing in the tile writes them, so that what is computed from
/// them alone (compiler/codegen/InvariantCalls.h) leaves the loop over
/// batches: through a->params, any training store might change them.
VF_STEP const double *vf_tile_params(const vf_sampler_args *a, unsigned nparams,
                                     double *local) {
  if (!nparams || nparams > VF_LOCAL_PARAMS)
    return a->params;
  for (unsigned k = 0; k < nparams; ++k)
    local[k] = a->params[k];
  return local;
}

/// Histograms (HistSums.h): the tile's cells, in sample order; the weight
/// lists' cells last, their shifts after the batch's values.
VF_STEP void vf_tile_hist_begin(vf_hist_state *hist, const vf_sampler_args *a,
                                const vf_tile_outputs *out,
                                vf_batch_cells cells, vf_u64 first,
                                vf_u64 end) {
  if (cells.nhist || cells.nweights)
    vf_hist_begin(hist, out->hist, out->hist_work, a->hist_cells, first);
  if (cells.nweights)
    vf_hist_weights_begin(
        hist, out->values + VF_BATCH * VF_SAMPLE_VALUES(cells.nweights),
        a->hist_cells - (vf_u32)VF_WEIGHT_CELLS(cells.nweights),
        (vf_u32)VF_WEIGHT_CELLS(cells.nweights), end);
}

void VF_TILE_FUNCTION(const vf_sampler_args *args, vf_u64 tile,
                      const vf_tile_outputs *out VF_TILE_EXTRA_PARAMS) {
  // The iteration's inputs on the tile's stack: read through args, any
  // training store or call of the exact copy might change them, and the
  // compiler loaded them again (and divided by nstrat again) for every
  // sixteen samples. The box they point to is read per batch
  // (vf_batch_points).
  const vf_sampler_args local_args = *args;
  const vf_sampler_args *const a = &local_args;
  const unsigned dim = VF_TILE_DIM;
  const unsigned nout = VF_TILE_NOUT;
  const vf_batch_cells cells = {VF_TILE_NHIST, VF_TILE_NWEIGHTS};
  const unsigned nvals = nout + cells.nhist + cells.nweights;
  const unsigned x_stride = VF_TILE_X_STRIDE;
  const vf_u64 begin = tile * a->tile_size;
  vf_u64 end = begin + a->tile_size;
  if (end > a->nsamples)
    end = a->nsamples;

  // 1 / nstrat^d, from which step (2) finds each sample's hypercube
  // coordinates (SampleBatch.h).
  double recip[VF_SAMPLER_MAX_DIM + 1];
  // Per batch: points, training slots (SampleBatch.h), Jacobians, values,
  // v = J f, map-training weights. slotb is axis-major (entry d of sample
  // b at d * VF_BATCH + b), so step (2) writes it contiguously across
  // samples; xb too where the integrand reads strided x (x_stride), else
  // sample-major.
  double xb[VF_BATCH * VF_BATCH_DIM], jacb[VF_BATCH];
  vf_u32 slotb[VF_BATCH * VF_BATCH_DIM];
  double fstack[VF_BATCH * VF_SAMPLE_VALUES(0)];
  // A constant choice once the integrand is compiled in: a program
  // without weight lists keeps its values on the stack.
  double *const fb = cells.nweights ? out->values : fstack;
  double vb[VF_BATCH * VF_SAMPLER_MAX_OUT];
  vf_real invnb[VF_BATCH], t2b[VF_BATCH], devb[VF_BATCH];
  int finb[VF_BATCH];
  vf_u64 hb[VF_BATCH];

  vf_tile_result *r = out->result;
  // Locals, not loads through a, out and r: the training stores below may
  // alias any of them, and the compiler would reload each after every one.
  vf_u64 nonfinite = 0, first_bad = 0;
  vf_real *const train = a->train ? (vf_real *)out->train : 0;
  const vf_u64 *const offsets = a->hcube_offsets;
  // The largest deviation so far; below any, so the first sample sets it.
  vf_tile_largest large = {-1.0, 0.0, begin};
  vf_u64 h = vf_find_hcube(offsets, a->nhcube, begin);
  const vf_u64 first = h;
  r->first_hcube = h;
  vf_u64 h_end = offsets[h + 1];
  vf_real inv_nh = vf_inverse_count(h_end - offsets[h]);
  vf_strata_reciprocals(dim, a->nstrat, recip);
  const int unit_box = VF_TILE_UNIT_BOX;
  vf_open_segment sg;
  sg.h = h;
  sg.open = 0;
  double local_params[VF_LOCAL_PARAMS];
  const double *params = vf_tile_params(a, VF_TILE_NPARAMS, local_params);
  vf_hist_state hist = {0};
  vf_tile_hist_begin(&hist, a, out, cells, first, end);

  for (vf_u64 j0 = begin; j0 < end; j0 += VF_BATCH) {
    const unsigned nb = end - j0 < VF_BATCH ? (unsigned)(end - j0) : VF_BATCH;
    const vf_u64 heads =
        vf_batch_hcubes(offsets, j0, nb, &h, &h_end, &inv_nh, hb, invnb);
    vf_batch_points(a, dim, j0, nb, hb, recip, xb, x_stride, slotb, jacb,
                    unit_box);
    vf_batch_values(a, xb, x_stride, dim, nb, params, fb,
                    nvals VF_TILE_EXTRA_ARGS);
    const int allfinite =
        vf_batch_weights(fb, nb, nout, nvals, jacb, invnb, finb, vb, t2b);
    vf_batch_segments(out, first, &sg, hb, heads, vb, devb, invnb, j0, nb, nout,
                      &large);
    // The non-finite count, only in batches that have any.
    if (!allfinite)
      for (unsigned b = 0; b < nb; ++b)
        if (!finb[b] && nonfinite++ == 0)
          first_bad = j0 + b;
    vf_batch_accumulate(&hist, a, dim, nb, nout, cells, hb, vb, fb, jacb, finb,
                        train, slotb, t2b, invnb);
  }
  r->nonfinite = nonfinite;
  r->first_bad = first_bad;
  r->last_hcube = sg.h;
  r->max_value = large.value;
  r->max_index = large.index;
  if (cells.nhist || cells.nweights)
    vf_hist_end(&hist);
  vf_segment_finish(out->edge_segments, &sg, first, nout);
}

#endif // __NVPTX__
