//===- runtime/kernels/SamplerABI.h - The fused kernel's interface -*- C -*-===//
//
// The data the fused sampling kernel reads and writes, shared by the kernel
// (freestanding C, compiled to bitcode for x86-64 and nvptx64) and the host
// runtime (C++). Plain structs of fixed-size fields only, so both sides agree
// on the layout without any header of the other.
//
// Per-hypercube "segments". A run of consecutive samples of one hypercube h
// (within one tile) is summarised, for the k outputs v_c = J * f_c (J the
// full Jacobian including the box volume), as
//
//   [ n, K_0..K_{k-1}, S_0..S_{k-1}, C_00, C_01, ..., C_0(k-1), C_11, ... ]
//
// with K_c the first sample's v_c (a shift), S_c = sum (v_c - K_c) and
// C_cd = sum (v_c - K_c)(v_d - K_d) for c <= d: VF_SEGMENT_STRIDE(k) doubles.
// Sums of deviations from a shift keep a nearly constant integrand's
// variance from cancelling (ALGORITHM.md section 2). For k = 1 a segment is
// {n, shift, sum_d, sum_d2}, Strata's HypercubeSums.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_SAMPLERABI_H
#define VF_RUNTIME_KERNELS_SAMPLERABI_H

#include "Philox.h"

#ifdef __cplusplus
extern "C" {
#endif

#define VF_SEGMENT_STRIDE(k) (1 + 2 * (k) + (k) * ((k) + 1) / 2)
/// A tile's histogram doubles and workspace words for `cells` cells.
#define VF_HIST_TILE(cells) (6 * (vf_u64)(cells))
#define VF_HIST_WORK(cells) (2 * (vf_u64)(cells))
/// Largest dimension and output count the sampler supports.
#define VF_SAMPLER_MAX_DIM 1024
#define VF_SAMPLER_MAX_OUT 16
/// Largest number of histograms of one integrand (`hist` statements).
#define VF_SAMPLER_MAX_HIST 16
/// Largest number of weight-list entries of one integrand, all its lists
/// together (`weights` statements; LANGUAGE.md "Weight lists").
#define VF_SAMPLER_MAX_WEIGHTS 1024
/// The histogram cells of n weight-list entries (HistSums.h): the entries,
/// each entry's difference from the integrand's value, and that value.
#define VF_WEIGHT_CELLS(n) (2 * (vf_u64)(n) + 1)
/// A sample's values with n weight-list entries at most: its outputs, its
/// histograms' cells, its entries (the integrand writes them in that
/// order).
#define VF_SAMPLE_VALUES(n) (VF_SAMPLER_MAX_OUT + VF_SAMPLER_MAX_HIST + (n))
/// A tile's scratch for its weight lists: a batch's (or a warp's 32)
/// samples' values, VF_SAMPLE_VALUES(n) doubles each, then the lists'
/// cells' shifts (HistSums.h).
#define VF_WEIGHT_SCRATCH(n)                                                   \
  (VF_HOST_BATCH * (vf_u64)VF_SAMPLE_VALUES(n) + VF_WEIGHT_CELLS(n))
/// The host tile loop's batch, in samples. Where the compiler can give it
/// a strided copy of the integrand (compiler/bitcode/StridedIntegrand.h),
/// the batch's x is axis-major: coordinate d of sample b at
/// x[d * VF_HOST_BATCH + b].
#define VF_HOST_BATCH 32

/// In the kernel bitcode the dimension is a constant once the integrand is
/// instantiated: the per-dimension loops are then unrolled completely (no
/// size limit), which leaves the kernel's loop over samples innermost so
/// the host's loop vectorizer can widen it across samples.
#ifdef VF_KERNEL_BITCODE
#define VF_UNROLL_DIMENSIONS _Pragma("clang loop unroll(full)")
#else
#define VF_UNROLL_DIMENSIONS
#endif

/// Read-only inputs of one iteration.
typedef struct vf_sampler_args {
  vf_u64 seed;
  vf_u32 iteration;
  vf_u32 dim;
  vf_u32 nout;
  vf_u32 ninc;          /* increments per axis of the map */
  vf_u32 nstrat;        /* strata per axis */
  vf_u32 train;         /* accumulate map-training sums (0 when frozen) */
  vf_u64 nhcube;
  vf_u64 nsamples;      /* samples this iteration (hcube_offsets[nhcube]) */
  vf_u64 tile_size;     /* samples per tile (the last may be shorter) */
  const double *edges;         /* dim x (ninc + 1), axis-major */
  const vf_u64 *hcube_offsets; /* nhcube + 1 prefix sums of n_h */
  const double *box_lo;        /* dim */
  const double *box_width;     /* dim */
  double box_volume;
  const double *params;
  /* Histograms (HistSums.h): cells of all the integrand's histograms. */
  vf_u32 hist_cells;
  /* The channel sampled (Channel.h), whose map is `edges`: 0 for an
     integrand without channels. It selects the channel's term of the
     integrand and its uniforms (UniformSource.h). Last, in what was
     padding, so the layout is unchanged. */
  vf_u32 channel;
  /* The integrand's weight-list entries (host; 0 without lists): their
     VF_WEIGHT_CELLS are the last of hist_cells. */
  vf_u32 nweights;
  /* For the single-precision kernels (SampleReal.h; else null and 0):
     edges, box_lo, box_width and box_volume rounded to float, in the same
     layouts. */
  const float *single_edges;
  const float *single_lo;
  const float *single_width;
  float single_volume;
} vf_sampler_args;

/// What one tile reports besides its segments.
typedef struct vf_tile_result {
  vf_u64 first_hcube;  /* hypercube of the tile's first sample */
  vf_u64 last_hcube;   /* hypercube of the tile's last sample */
  vf_u64 nonfinite;    /* samples whose value was NaN or +-inf */
  vf_u64 first_bad;    /* index of the first of them (if nonfinite > 0) */
  /* The tile's sample of largest |J f_0 - shift| / n_h (shift: its
     segment's first value; kernels/SegmentSums.h), the first such in
     sample order: its J f_0 and its index. The candidate for the one
     sample that carries a hypercube's variance (docs/algorithm.md,
     "Unstable variance"). */
  double max_value;
  vf_u64 max_index;
} vf_tile_result;

/// Per-worker outputs of one tile.
typedef struct vf_tile_outputs {
  /* nhcube x stride: segments of hypercubes entirely inside the tile. */
  double *hcube_segments;
  /* 2 x stride: the first and the last hypercube's segment of the tile
     (merged on the host in tile order; the second is unused when the tile
     lies in one hypercube). */
  double *edge_segments;
  /* dim x ninc pairs: for each axis's increment, the sums over its
     samples of (J f_0)^2 / n_h and of 1 / n_h (their ratio is the
     volume-weighted average of (J f_0)^2 that trains the map, unbiased
     when n_h varies), side by side so that a sample updates both with
     one 16-byte read-modify-write. Added to, not overwritten. The
     single-precision kernels (SampleReal.h) keep float pairs in the
     buffer's first half, which the host widens once the tile is done. */
  double *train;
  vf_tile_result *result;
  /* Histograms (HistSums.h; null without any): VF_HIST_TILE(cells)
     doubles, zero on entry, and VF_HIST_WORK(cells) words of workspace,
     zero on entry and left zero. */
  double *hist;
  vf_u32 *hist_work;
  /* With weight lists (a->nweights > 0; else null): room for a batch's
     values, VF_HOST_BATCH x VF_SAMPLE_VALUES(nweights) doubles (more than
     the tile's stack holds), then the lists' cells' shifts,
     VF_WEIGHT_CELLS(nweights) doubles (HistSums.h). */
  double *values;
} vf_tile_outputs;

/// Outputs of a chunk of consecutive tiles on a GPU: the tile outputs of
/// vf_tile_outputs, laid out per tile. Tile first_tile + t writes
/// edge_segments + 2 t stride, train + 2 t dim ninc (its (sum, weight)
/// pairs, floats at the region's start in single precision; overwritten,
/// not added to) and results[t].
typedef struct vf_chunk_outputs {
  double *hcube_segments; /* nhcube x stride, shared by all tiles */
  double *edge_segments;
  double *train;
  vf_tile_result *results;
  /* Histograms: tile first_tile + t writes hist + t VF_HIST_TILE(cells)
     (overwritten) and uses hist_work + t VF_HIST_WORK(cells). */
  double *hist;
  vf_u32 *hist_work;
  /* With weight lists (a->nweights > 0; else null): tile first_tile + t's
     scratch at values + t VF_WEIGHT_SCRATCH(nweights), laid out as
     vf_tile_outputs::values, lane l's values the l-th row. */
  double *values;
} vf_chunk_outputs;

/// The entry point the compiler instantiates per integrand NAME as
/// vf_sample_tile_NAME (host) with the integrand inlined.
typedef void (*vf_sample_tile_fn)(const vf_sampler_args *args, vf_u64 tile,
                                  const vf_tile_outputs *out);

/// The GPU kernel vf_sample_tiles_gpu_NAME (runtime/kernels/GpuSampler.c):
/// tiles [first_tile, first_tile + ntiles), one warp per tile, each tile's
/// outputs exactly those vf_sample_tile_NAME computes for it.
/// Parameters: (const vf_sampler_args *, vf_u64 first_tile, vf_u64 ntiles,
/// const vf_chunk_outputs *), all pointers into device memory.
/// Next to it, one per module, vf_fold_groups_gpu(const double *train,
/// vf_u64 entries, const vf_u64 *groups, vf_u64 ngroups, double *partials)
/// sums whole groups of tiles' histograms on the device (GpuSampler.c).
#define VF_GPU_FOLD_KERNEL "vf_fold_groups_gpu"

#ifdef __cplusplus
} // extern "C"
#endif

#endif // VF_RUNTIME_KERNELS_SAMPLERABI_H
