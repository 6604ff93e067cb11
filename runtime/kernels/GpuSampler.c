//===- runtime/kernels/GpuSampler.c - The fused kernel on GPUs ---*- C -*-===//
//
// vf_sample_tiles_gpu: one warp per tile. A tile's sums must be the very
// operations Sampler.c performs on the CPU, in the same order (that is what
// makes a run's result independent of which device ran which tile), so the
// warp splits the work the order does not constrain from the work it does:
//
//   - points, Jacobians and integrand values: one sample per lane, 32 at a
//     time (the expensive, parallel part);
//   - segment sums: the block's tree (BlockSums.h) with shuffles, five
//     steps across the warp whatever the runs, then one step per run of a
//     hypercube in the block (usually one to three), which every lane
//     takes alike (lane 0 stores the segments); no shared memory, no
//     divergence;
//   - the largest deviation: a butterfly maximum that keeps the first
//     lane on ties, the sample the CPU's in-order search finds;
//   - training histograms (per axis, per increment, additions in sample
//     order): match.any groups the lanes by increment, and the first lane
//     of each group adds its own sample and then the others', shuffled to
//     it in lane order, so each bin still sees its samples in order. The
//     tile's histogram lives in global memory (no atomics: a bin is
//     touched by one lane per block, and the warp syncs between blocks);
//   - histograms of observables and weight-list entries (HistSums.h):
//     lane 0 walks the block's samples in order and adds them into the
//     tile's buffer in global memory (the one per-sample loop left, and
//     only with `hist` or `weights`); with weight lists (up to 1024
//     entries) each lane's values are its row of the tile's scratch in
//     global memory (vf_chunk_outputs::values, as the host tile's), which
//     lane 0 reads after a warp barrier, the lists' shifts after them.
//
// Compiled for nvptx64, and for the host only under warp emulation
// (VF_GPU_EMULATION: WarpIntrinsics.h turns the intrinsics into calls to
// the fake driver's emulator, and tests/fakecuda/GpuEmulation.c's
// trampolines launch the kernels; the tests build that bitcode, the
// product never does; empty in the host's own bitcode); the compiler clones
// vf_sample_tiles_gpu per integrand, like vf_sample_tile (Sampler.c).
//
//===----------------------------------------------------------------------===//

#if defined(__NVPTX__) || defined(VF_GPU_EMULATION)

#include "GpuSampler.h"

#include "IntegrandHooks.h"
/// The instance's channel, a constant (UniformSource.h).
#define VF_UNIFORM_CHANNEL(a) vf_user_channel()

#include "BlockSums.h"
#include "HistSums.h"
#include "LaneVectors.h"
#include "SamplePoint.h"
#include "WarpIntrinsics.h"

#define VF_FULL_WARP 0xffffffffu
_Static_assert(VF_HOST_BATCH == 32, "a tile's weight scratch holds a warp");

/// Registers decide how many warps an SM holds (65536 per SM: 128 per
/// thread for 16 warps). The per-axis arrays that live across the
/// integrand - the hypercube's coordinates and the sample's increments -
/// stay in local memory (L1), sized by the dimension, with their loops
/// rolled, rather than in 2 x dim registers: at d = 8 that took the
/// constant integrand's kernel from 146 to 96 registers
/// (docs/gpu-benchmarks.md, "GPU registers"). x is there too, for the exact
/// integrand's call (vf_user_integrand_exact).
#define VF_KEEP_ROLLED _Pragma("clang loop unroll(disable)")

static vf_u32 vf_lane(void) { return __nvvm_read_ptx_sreg_tid_x() & 31u; }

static vf_u64 vf_shfl_u64(vf_u64 v, vf_u32 src) {
  vf_u32 lo = (vf_u32)__nvvm_shfl_sync_idx_i32(VF_FULL_WARP, (int)v, (int)src, 31);
  vf_u32 hi = (vf_u32)__nvvm_shfl_sync_idx_i32(VF_FULL_WARP, (int)(v >> 32),
                                               (int)src, 31);
  return ((vf_u64)hi << 32) | lo;
}

static double vf_shfl_f64(double v, vf_u32 src) {
  vf_u64 bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  bits = vf_shfl_u64(bits, src);
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
}

/// A vf_real from lane src (one shuffle in single precision), and its
/// butterfly form.
static vf_real vf_shfl_real(vf_real v, vf_u32 src) {
#ifdef VF_SAMPLE_SINGLE
  return __builtin_bit_cast(
      float, __nvvm_shfl_sync_idx_i32(VF_FULL_WARP, __builtin_bit_cast(int, v),
                                      (int)src, 31));
#else
  return vf_shfl_f64(v, src);
#endif
}

static vf_real vf_shfl_real_bfly(vf_real v, int lane_mask) {
#ifdef VF_SAMPLE_SINGLE
  return __builtin_bit_cast(
      float, __nvvm_shfl_sync_bfly_i32(VF_FULL_WARP, __builtin_bit_cast(int, v),
                                       lane_mask, 31));
#else
  vf_u64 bits;
  __builtin_memcpy(&bits, &v, sizeof bits);
  const vf_u32 lo = (vf_u32)__nvvm_shfl_sync_bfly_i32(VF_FULL_WARP, (int)bits,
                                                      lane_mask, 31);
  const vf_u32 hi = (vf_u32)__nvvm_shfl_sync_bfly_i32(
      VF_FULL_WARP, (int)(bits >> 32), lane_mask, 31);
  bits = ((vf_u64)hi << 32) | lo;
  __builtin_memcpy(&v, &bits, sizeof v);
  return v;
#endif
}

/// vf_hcube_coords(h) on every lane: lane e finds axis d0 + e as
/// (h / nstrat^(d0 + e)) mod nstrat, the same whole number as the serial
/// divisions, so a warp does one division per lane instead of dim in a
/// chain; the axes are then broadcast.
static void vf_warp_hcube_coords(vf_u64 h, unsigned dim, vf_u32 nstrat,
                                 vf_u32 *kw) {
  const vf_u32 lane = vf_lane();
  VF_UNROLL_DIMENSIONS
  for (unsigned d0 = 0; d0 < dim; d0 += 32) {
    vf_u64 p = 1;
    for (unsigned e = 0; e < d0 + lane && e < dim; ++e)
      p *= nstrat;
    const vf_u32 mine = (vf_u32)((h / p) % nstrat);
    VF_UNROLL_DIMENSIONS
    for (unsigned e = 0; e < 32 && d0 + e < dim; ++e)
      kw[d0 + e] =
          (vf_u32)__nvvm_shfl_sync_idx_i32(VF_FULL_WARP, (int)mine, (int)e, 31);
  }
}

/// k of hypercube h + 1 from k of h, on 32-bit coordinates in local
/// memory: an odometer step, the same whole numbers vf_hcube_coords(h + 1)
/// gives, without its divisions.
static void vf_hcube_step(unsigned dim, vf_u32 nstrat, vf_u32 *kc) {
  VF_KEEP_ROLLED
  for (unsigned d = 0; d < dim; ++d) {
    if (++kc[d] < nstrat)
      return;
    kc[d] = 0;
  }
}

/// Adds (t2, w) to bin `bin` of one axis's (sum, weight) pairs for every
/// valid lane, in lane order among lanes sharing a bin. The first lane of
/// each bin's group loads the pair, adds its own values and then its
/// group's, lane after lane, taken by shuffles, and stores once: the same
/// additions in the same order as one lane after another through memory,
/// with one global round trip per bin and block instead of one per
/// sample, and no barrier between samples. The caller syncs the warp once
/// after the block's updates, before another lane may read the pair.
static void vf_train_axis(vf_real *pairs, vf_u32 bin, vf_real t2, vf_real w,
                          int valid) {
  // Invalid lanes use a bin no valid lane has, so they never join a group.
  const vf_u32 key = valid ? bin : 0xffffffffu;
  const vf_u32 same = __nvvm_match_any_sync_i32(VF_FULL_WARP, (int)key);
  const int leader = valid && (same & ((1u << vf_lane()) - 1u)) == 0;
  // One 16-byte load and store (ld/st.v2.f64; 8 bytes in single
  // precision) for the pair: the buffer is cudaMalloc'ed, so every pair
  // is aligned.
  vf_realx2 *p = (vf_realx2 *)(pairs + 2 * bin);
  vf_realx2 acc = {t2, w};
  if (leader)
    acc = *p + acc;
  vf_u32 rest = leader ? same & (same - 1u) : 0u;
  while (__nvvm_vote_ballot_sync(VF_FULL_WARP, rest != 0)) {
    const vf_u32 src = rest ? (vf_u32)__builtin_ctz(rest) : vf_lane();
    const vf_realx2 o = {vf_shfl_real(t2, src), vf_shfl_real(w, src)};
    if (rest) {
      acc += o;
      rest &= rest - 1u;
    }
  }
  if (leader)
    *p = acc;
}

/// The block step of BlockSums.h on a warp: lane l holds sample j0 + l
/// (valid when l < nb) of hypercube hl with values v. Adds the block to the
/// open segment sg, which every lane holds alike; lane 0 stores the
/// segments that end. shift[] receives this lane's shift K.
static void vf_block_step(const vf_chunk_outputs *co, double *edge,
                          vf_u64 first, vf_open_segment *sg, vf_u64 hl,
                          const vf_real *v, unsigned nout, int valid, vf_u32 nb,
                          vf_real *shift) {
  const vf_u32 lane = vf_lane();
  const unsigned nt = VF_SEGMENT_TERMS(nout);
  const vf_u64 hprev = vf_shfl_u64(hl, lane ? lane - 1 : 0);
  const vf_u32 heads = __nvvm_vote_ballot_sync(
      VF_FULL_WARP, valid && (lane == 0 || hl != hprev));
  // This lane's run is [run, run_end): the last head at or before it and
  // the next one after it (or the block's end).
  const vf_u32 upto = (2u << lane) - 1u; // lanes 0..lane; all at lane 31
  const vf_u32 run = 31u - (vf_u32)__builtin_clz(heads & upto);
  const vf_u32 later = heads & ~upto;
  const vf_u32 run_end = later ? (vf_u32)__builtin_ctz(later) : nb;
  const int cont = sg->open && sg->h == vf_shfl_u64(hl, 0);
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c) {
    const vf_real head = vf_shfl_real(v[c], run);
    shift[c] = run == 0 && cont ? (vf_real)sg->sums[1 + c] : head;
  }
  vf_real q[VF_SEGMENT_TERMS(VF_SAMPLER_MAX_OUT)], lo[VF_SAMPLER_MAX_OUT];
  vf_segment_terms(v, shift, nout, q);
  VF_UNROLL_DIMENSIONS
  for (unsigned c = 0; c < nout; ++c)
    lo[c] = 0;
  VF_UNROLL_DIMENSIONS
  for (vf_u32 s = 1; s < 32; s *= 2) {
    const int join = valid && lane + s < run_end;
    const vf_u32 src = lane + s < 32 ? lane + s : 31;
    VF_UNROLL_DIMENSIONS
    for (unsigned i = 0; i < nt; ++i) {
      const int comp = VF_COMPENSATED && i < nout;
      const vf_real o = vf_shfl_real(q[i], src);
      const vf_real o_lo = comp ? vf_shfl_real(lo[i], src) : 0;
      if (join)
        vf_tree_add(&q[i], comp ? &lo[i] : 0, o, o_lo, comp);
    }
  }
  for (vf_u32 rest = heads; rest; rest &= rest - 1) {
    const vf_u32 hd = (vf_u32)__builtin_ctz(rest);
    const vf_u32 next = rest & (rest - 1);
    const vf_u32 e = next ? (vf_u32)__builtin_ctz(next) : nb;
    if (!cont || hd > 0) {
      if (sg->open && lane == 0)
        vf_segment_close(edge, co->hcube_segments, sg->h, first, sg->sums,
                         nout);
      double vh[VF_SAMPLER_MAX_OUT];
      VF_UNROLL_DIMENSIONS
      for (unsigned c = 0; c < nout; ++c)
        vh[c] = (double)vf_shfl_real(v[c], hd);
      vf_open_segment_start(sg, vf_shfl_u64(hl, hd), vh, nout);
    }
    sg->sums[0] += (double)(e - hd);
    VF_UNROLL_DIMENSIONS
    for (unsigned i = 0; i < nt; ++i) {
      const int comp = VF_COMPENSATED && i < nout;
      sg->sums[1 + nout + i] += vf_run_total(
          vf_shfl_real(q[i], hd), comp ? vf_shfl_real(lo[i], hd) : 0, comp);
    }
  }
}

#define VF_GPU_STEP static inline __attribute__((always_inline))

/// The tile's training sums and histogram cells zeroed by the warp, and
/// the histogram state opened at hypercube \p first (the weight lists'
/// cells last, shifted into \p shift, as in Sampler.c).
VF_GPU_STEP void vf_gpu_tile_begin(const vf_sampler_args *a,
                                   const vf_chunk_outputs *co, vf_u64 t,
                                   vf_real *train, vf_u64 bins, vf_u64 first,
                                   vf_u64 end, unsigned nhist,
                                   unsigned nweights, double *shift,
                                   vf_hist_state *hist) {
  const vf_u32 lane = vf_lane();
  if (a->train) {
    for (vf_u64 i = lane; i < 2 * bins; i += 32)
      train[i] = 0;
    __nvvm_bar_warp_sync(VF_FULL_WARP);
  }
  if (nhist || nweights) {
    const vf_u32 cells = a->hist_cells;
    double *hb = co->hist + VF_HIST_TILE(cells) * t;
    vf_u32 *hw = co->hist_work + VF_HIST_WORK(cells) * t;
    for (vf_u64 i = lane; i < VF_HIST_TILE(cells); i += 32)
      hb[i] = 0.0;
    for (vf_u64 i = lane; i < VF_HIST_WORK(cells); i += 32)
      hw[i] = 0;
    __nvvm_bar_warp_sync(VF_FULL_WARP);
    vf_hist_begin(hist, hb, hw, cells, first);
  }
  if (nweights)
    vf_hist_weights_begin(hist, shift,
                          a->hist_cells - (vf_u32)VF_WEIGHT_CELLS(nweights),
                          (vf_u32)VF_WEIGHT_CELLS(nweights), end);
}

/// This lane's hypercube for sample \p j: samples are ordered by
/// hypercube, so walk forward from the warp's current one (\p h); its
/// coordinates kc by odometer steps from this lane's previous sample's
/// hypercube *hk (at most 16: a hypercube holds at least two samples), not
/// by dim divisions per lane; the same whole numbers. *inv_nh its 1/n_h.
VF_GPU_STEP vf_u64 vf_gpu_lane_hcube(const vf_sampler_args *a, unsigned dim,
                                     vf_u64 h, vf_u64 j, vf_u64 *hk, vf_u32 *kc,
                                     vf_real *inv_nh) {
  vf_u64 hl = h;
  while (j >= a->hcube_offsets[hl + 1])
    ++hl;
  *inv_nh = vf_inverse_count(a->hcube_offsets[hl + 1] - a->hcube_offsets[hl]);
  for (; *hk < hl; ++*hk)
    vf_hcube_step(dim, a->nstrat, kc);
  return hl;
}

/// The tile's counts of non-finite values and its largest deviation, as
/// Sampler.c keeps them.
typedef struct {
  vf_u64 nonfinite, first_bad, max_index;
  double max_dev, max_value;
} vf_gpu_tile_marks;

/// Sample \p j's point, the integrand there (its exact copy where the fast
/// one raised its flag) and v = J f, 0 where a value is not finite; the
/// warp's non-finite values counted in \p m. Returns J, 0 where v is.
VF_GPU_STEP double vf_gpu_sample_values(const vf_sampler_args *a, unsigned dim,
                                        unsigned nout, vf_u64 j, vf_u64 j0,
                                        int valid, const vf_u32 *kc, vf_real *k,
                                        double *x, vf_u32 *bin, double *f,
                                        vf_real *v, vf_gpu_tile_marks *m) {
  VF_UNROLL_DIMENSIONS
  for (unsigned d = 0; d < dim; ++d)
    k[d] = (vf_real)kc[d];
  const vf_real jac = vf_sample_point(a, dim, j, k, x, bin);
  int slow = 0;
  vf_user_integrand_fast(x, a->params, f, &slow);
  if (__builtin_expect(slow, 0))
    vf_user_integrand_exact(x, a->params, f);
  int finite = 1;
  for (unsigned c = 0; c < nout; ++c)
    finite &= vf_value_isfinite(f[c]);
  vf_u32 bad = __nvvm_vote_ballot_sync(VF_FULL_WARP, valid && !finite);
  if (bad) {
    if (m->nonfinite == 0)
      m->first_bad = j0 + (vf_u64)(__builtin_ffs((int)bad) - 1);
    m->nonfinite += (vf_u64)__builtin_popcount(bad);
  }
  for (unsigned c = 0; c < nout; ++c)
    v[c] = vf_weigh_real(jac, finite ? f[c] : 0.0);
  return finite ? (double)jac : 0.0;
}

/// The largest deviation |v_0 - K_0| / n_h: the block's first largest, if
/// above the tile's so far (Sampler.c searches in sample order): a
/// butterfly maximum, then the first lane that holds it.
VF_GPU_STEP void vf_gpu_largest(const vf_real *v, const vf_real *shift,
                                vf_real inv_nh, int valid, vf_u64 j0,
                                vf_gpu_tile_marks *m) {
  const vf_real d0 = v[0] - shift[0];
  const vf_real mine = valid && d0 == d0 ? VF_REAL_ABS(d0) * inv_nh : -1;
  vf_real top = mine;
  for (int off = 16; off > 0; off /= 2) {
    const vf_real other = vf_shfl_real_bfly(top, off);
    top = other > top ? other : top;
  }
  if (top > m->max_dev) {
    const vf_u32 at = (vf_u32)__builtin_ctz(
        __nvvm_vote_ballot_sync(VF_FULL_WARP, mine == top));
    m->max_dev = top;
    m->max_value = (double)vf_shfl_real(v[0], at);
    m->max_index = j0 + at;
  }
}

/// The block's histogram cells and weight-list entries (J the sample's,
/// 0 where v is), added by lane 0 in sample order, each sample's as
/// Sampler.c adds them: the cells shuffled to it from f, or, with lists,
/// read from the lanes' rows of \p rows (VF_SAMPLE_VALUES(nweights) apart).
VF_GPU_STEP void vf_gpu_hist_block(const vf_sampler_args *a,
                                   vf_hist_state *hist, vf_u64 hl,
                                   const vf_real *v, const double *f,
                                   double jac, const double *rows,
                                   unsigned nout, unsigned nhist,
                                   unsigned nweights, vf_u32 nb) {
  const vf_u32 lane = vf_lane();
  // Every lane's values written before lane 0 reads them.
  if (nweights)
    __nvvm_bar_warp_sync(VF_FULL_WARP);
  for (vf_u32 s = 0; s < nb; ++s) {
    const vf_u64 hs = vf_shfl_u64(hl, s);
    const double vs0 = (double)vf_shfl_real(v[0], s);
    const double js = vf_shfl_f64(jac, s);
    double cs[VF_SAMPLER_MAX_HIST];
    const double *cells = cs;
    if (nweights)
      cells = rows + (vf_u64)s * VF_SAMPLE_VALUES(nweights) + nout;
    else
      for (unsigned i = 0; i < nhist; ++i)
        cs[i] = vf_shfl_f64(f[nout + i], s);
    if (lane == 0 && nhist)
      vf_hist_add(hist, a, hs, vs0, cells, nhist);
    if (lane == 0 && nweights)
      vf_hist_add_entries(hist, a, hs, js, vs0,
                          a->hist_cells - (vf_u32)VF_WEIGHT_CELLS(nweights),
                          cells + nhist, nweights);
  }
  __nvvm_bar_warp_sync(VF_FULL_WARP);
}

/// The tile's result, its open segment and histograms closed, by lane 0.
VF_GPU_STEP void vf_gpu_tile_end(const vf_chunk_outputs *co, vf_u64 t,
                                 double *edge, vf_u64 first,
                                 vf_open_segment *sg,
                                 const vf_gpu_tile_marks *m, unsigned nout,
                                 int hists, vf_hist_state *hist) {
  if (vf_lane() != 0)
    return;
  vf_tile_result *r = co->results + t;
  r->first_hcube = first;
  r->last_hcube = sg->h;
  r->nonfinite = m->nonfinite;
  r->first_bad = m->first_bad;
  r->max_value = m->max_value;
  r->max_index = m->max_index;
  if (hists)
    vf_hist_end(hist);
  vf_segment_finish(edge, sg, first, nout);
}

/// Tile `tile` (the launch's t-th) with kc, bin, x and k of at least dim
/// entries each, in local memory: kc the coordinates of hypercube hk, this
/// lane's latest sample's, k the same as the doubles vf_sample_point takes
/// (in registers where the axes are unrolled), x for the exact integrand's
/// call.
VF_GPU_STEP void vf_gpu_tile_with(const vf_sampler_args *a, vf_u64 tile,
                                  vf_u64 t, const vf_chunk_outputs *co,
                                  vf_u32 *kc, vf_u32 *bin, double *x,
                                  vf_real *k) {
  const unsigned dim = vf_user_dim();
  const unsigned nout = vf_user_nout();
  const unsigned nhist = vf_user_nhist();
  const unsigned nweights = vf_user_nweights();
  const vf_u32 ninc = a->ninc;
  const vf_u64 bins = (vf_u64)dim * ninc;
  const vf_u32 lane = vf_lane();
  const vf_u64 begin = tile * a->tile_size;
  vf_u64 end = begin + a->tile_size;
  if (end > a->nsamples)
    end = a->nsamples;
  double *edge = co->edge_segments + 2 * VF_SEGMENT_STRIDE(nout) * t;
  // The tile's training pairs in the sample path's arithmetic (floats in
  // the first half of its region in single precision).
  vf_real *train = (vf_real *)(co->train + 2 * bins * t);
  // With lists, the lanes' values and the lists' shifts are the tile's
  // scratch in global memory (the entries are too many for a thread's
  // frame, which the driver reserves for every thread an SM holds).
  double own[VF_SAMPLE_VALUES(0)];
  double *const rows =
      nweights ? co->values + VF_WEIGHT_SCRATCH(nweights) * t : 0;
  double *const f =
      nweights ? rows + (vf_u64)lane * VF_SAMPLE_VALUES(nweights) : own;
  double *const wshift = nweights ? rows + 32 * VF_SAMPLE_VALUES(nweights) : 0;
  vf_real v[VF_SAMPLER_MAX_OUT], shift[VF_SAMPLER_MAX_OUT];
  vf_u64 h = vf_find_hcube(a->hcube_offsets, a->nhcube, begin);
  vf_warp_hcube_coords(h, dim, a->nstrat, kc);
  vf_u64 hk = h;
  const vf_u64 first = h;
  vf_gpu_tile_marks m = {0, 0, begin, -1.0, 0.0}; // as in Sampler.c
  vf_open_segment sg;
  sg.h = h;
  sg.open = 0;
  vf_hist_state hist = {0};
  vf_gpu_tile_begin(a, co, t, train, bins, first, end, nhist, nweights, wshift,
                    &hist);

  for (vf_u64 j0 = begin; j0 < end; j0 += 32) {
    const vf_u32 nb = end - j0 < 32 ? (vf_u32)(end - j0) : 32u;
    const int valid = lane < nb;
    const vf_u64 j = valid ? j0 + lane : end - 1;
    vf_real inv_nh;
    const vf_u64 hl = vf_gpu_lane_hcube(a, dim, h, j, &hk, kc, &inv_nh);
    const double jac = vf_gpu_sample_values(a, dim, nout, j, j0, valid, kc, k,
                                            x, bin, f, v, &m);
    vf_block_step(co, edge, first, &sg, hl, v, nout, valid, nb, shift);
    vf_gpu_largest(v, shift, inv_nh, valid, j0, &m);
    if (nhist || nweights)
      vf_gpu_hist_block(a, &hist, hl, v, f, jac, rows, nout, nhist, nweights,
                        nb);
    if (a->train) {
      const vf_real t2 = v[0] * v[0] * inv_nh;
      VF_KEEP_ROLLED
      for (unsigned d = 0; d < dim; ++d)
        vf_train_axis(train + 2 * (vf_u64)d * ninc, bin[d], t2, inv_nh,
                      valid);
      // The next block's first lane of a bin may be another lane.
      __nvvm_bar_warp_sync(VF_FULL_WARP);
    }
    h = vf_shfl_u64(hl, nb - 1);
  }
  vf_gpu_tile_end(co, t, edge, first, &sg, &m, nout, nhist || nweights, &hist);
}

/// A tile with its per-axis arrays in local memory sized for up to N axes
/// (the driver reserves a thread's frame for every thread an SM can hold,
/// so the size matters): 16 N bytes of kc, bin and x, and 8 N of k (4 N in
/// single precision) where
/// the axes are not unrolled (d > 64).
#define VF_GPU_TILE_FOR(N)                                                     \
  do {                                                                         \
    vf_u32 kc[N], bin[N];                                                      \
    double x[N];                                                               \
    vf_real k[N];                                                              \
    vf_gpu_tile_with(a, tile, t, co, kc, bin, x, k);                           \
  } while (0)

/// The dimension is a constant once the kernel is instantiated, so one
/// branch is left: lepage8's frame is 768 bytes; beyond d = 64 the
/// uniforms of vf_sample_point (VF_SAMPLER_MAX_DIM doubles) add 8 KiB.
static void vf_gpu_tile(const vf_sampler_args *a, vf_u64 tile, vf_u64 t,
                        const vf_chunk_outputs *co) {
  const unsigned dim = vf_user_dim();
  if (dim <= 32)
    VF_GPU_TILE_FOR(32);
  else if (dim <= 128)
    VF_GPU_TILE_FOR(128);
  else
    VF_GPU_TILE_FOR(VF_SAMPLER_MAX_DIM);
}

/// Warp w of block b runs tile first_tile + b * (warps per block) + w.
void vf_sample_tiles_gpu(const vf_sampler_args *a, vf_u64 first_tile,
                         vf_u64 ntiles, const vf_chunk_outputs *out) {
  const vf_u64 warps = __nvvm_read_ptx_sreg_ntid_x() / 32u;
  const vf_u64 t = (vf_u64)__nvvm_read_ptx_sreg_ctaid_x() * warps +
                   __nvvm_read_ptx_sreg_tid_x() / 32u;
  if (t < ntiles)
    vf_gpu_tile(a, first_tile + t, t, out);
}

/// The training partials of whole groups of tiles (TrainingSums.h) from
/// the tiles' histograms of a piece: block (x, g) sums entries of group g,
/// one entry per thread, over the group's tiles in tile order from zero -
/// the host's order - so only the partials need to reach the host.
/// groups[2 g] is the group's first tile within the piece, groups[2 g + 1]
/// its tile count; entries = 2 x dim x ninc. A tile's entries are in the
/// sample path's arithmetic (floats in single precision, at the start of
/// the tile's region), each widened once here.
void vf_fold_groups_gpu(const double *train, vf_u64 entries,
                        const vf_u64 *groups, vf_u64 ngroups,
                        double *partials) {
  const vf_u64 i = (vf_u64)__nvvm_read_ptx_sreg_ctaid_x() *
                       __nvvm_read_ptx_sreg_ntid_x() +
                   __nvvm_read_ptx_sreg_tid_x();
  const vf_u64 g = __nvvm_read_ptx_sreg_ctaid_y();
  if (i >= entries || g >= ngroups)
    return;
  const vf_u64 first = groups[2 * g], count = groups[2 * g + 1];
  double p = 0.0;
  for (vf_u64 t = 0; t < count; ++t)
    p += (double)((const vf_real *)(train + (first + t) * entries))[i];
  partials[g * entries + i] = p;
}

#endif // __NVPTX__ || VF_GPU_EMULATION
