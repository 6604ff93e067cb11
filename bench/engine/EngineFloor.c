//===- bench/engine/EngineFloor.c - The engine's unavoidable work alone --===//
//
// What the three parts of a sample that no form of the engine can skip cost
// on this machine when nothing else runs: the Philox words of its uniforms
// (the bitwise promise fixes the generator), the VEGAS map of every axis
// (its increment's two edges, x and the Jacobian), and one map-training
// update per axis (VEGAS adapts on them). Written with the kernel's own
// helpers (runtime/kernels/SampleBatch.h), sixteen samples per step, and
// compiled for this CPU as the JIT compiles the kernel: what the fused
// kernel does on top of this (strata, integrand, sums, bookkeeping) and the
// per-iteration host work are the difference to the whole engine's time.
//
// The map is also timed with the edges gathered (two AVX-512 gathers per
// eight lanes) instead of one 16-byte load per lane, the other form of the
// lookup, so the floor is the cheaper of the two. The training updates are
// also timed alone, over the whole histogram and over a tenth of it (in
// the L1 cache): the difference is what their spread costs.
//
//===----------------------------------------------------------------------===//
#include "EngineFloor.h"

#include "SampleBatch.h"
#include "TrainingUpdates.h"

#include <stdlib.h>
#include <time.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#define FLOOR_DIM 8
#define FLOOR_NINC 1000
/// Batches of slots FLOOR_UPDATES cycles through (256 KB in all).
#define FLOOR_SLOT_BATCHES 128

static double cpu_seconds(void) {
  struct timespec t;
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/// The map's edges and the training pairs of one run: an adapted-looking
/// map (increments narrowing towards 1/2), so lookups land all over it.
typedef struct floor_state {
  vf_sampler_args a;
  double edges[FLOOR_DIM * (FLOOR_NINC + 1)];
  double lo[FLOOR_DIM], width[FLOOR_DIM];
  /// Aligned as the runtime's buffers are (at least 16 bytes): a pair
  /// at an odd multiple of 8 would straddle a cache line in one of four.
  _Alignas(64) double train[2 * FLOOR_DIM * FLOOR_NINC];
  /// FLOOR_UPDATES's slots, axis-major per batch as the kernel's, over
  /// all bins ([0]) and over the first tenth of each axis's ([1]).
  vf_u32 slots[2][FLOOR_SLOT_BATCHES * FLOOR_DIM * VF_HOST_BATCH];
} floor_state;

static void floor_init(floor_state *s) {
  for (unsigned d = 0; d < FLOOR_DIM; ++d) {
    for (unsigned i = 0; i <= FLOOR_NINC; ++i) {
      const double y = (double)i / FLOOR_NINC, c = 2 * y - 1;
      s->edges[d * (FLOOR_NINC + 1) + i] = 0.5 + 0.5 * c * c * c;
    }
    s->lo[d] = 0;
    s->width[d] = 1;
  }
  for (unsigned i = 0; i < 2 * FLOOR_DIM * FLOOR_NINC; ++i)
    s->train[i] = 0;
  // Uniform bins, as an adapted map's increments are equally likely.
  vf_u64 r = 88172645463325252ull; // xorshift64
  for (unsigned i = 0; i < FLOOR_SLOT_BATCHES * FLOOR_DIM * VF_HOST_BATCH;
       ++i) {
    r ^= r << 13;
    r ^= r >> 7;
    r ^= r << 17;
    const vf_u32 d = i / VF_HOST_BATCH % FLOOR_DIM,
                 bin = (r >> 32) % FLOOR_NINC;
    s->slots[0][i] = 2 * (d * FLOOR_NINC + bin);
    s->slots[1][i] = 2 * (d * FLOOR_NINC + bin / 10);
  }
  vf_sampler_args a = {0};
  a.seed = 12345;
  a.iteration = 1;
  a.dim = FLOOR_DIM;
  a.nout = 1;
  a.ninc = FLOOR_NINC;
  a.nstrat = 1;
  a.edges = s->edges;
  a.box_lo = s->lo;
  a.box_width = s->width;
  a.box_volume = 1;
  s->a = a;
}

#ifdef __AVX512F__
/// vf_map_axis_x8 with the two edges gathered, for comparison.
static inline vf_f64x8 map_axis_gathered(const vf_sampler_args *a, unsigned d,
                                         vf_f64x8 u, vf_u32 *slot,
                                         vf_f64x8 *jv) {
  const vf_u32 ninc = a->ninc;
  const double dninc = (double)ninc;
  vf_f64x8 y = u < 1.0 ? u : VF_REAL_BELOW_ONE;
  vf_f64x8 t = y * dninc;
  vf_u32x8 i = __builtin_convertvector(t, vf_u32x8);
  i = __builtin_elementwise_min(i, (vf_u32x8)(ninc - 1));
  const double *e = a->edges + (vf_u64)d * (ninc + 1);
  __m256i iv;
  __builtin_memcpy(&iv, &i, sizeof iv);
  __m512d g0 = _mm512_i32gather_pd(iv, e, 8);
  __m512d g1 = _mm512_i32gather_pd(iv, e + 1, 8);
  vf_f64x8 e0, e1;
  __builtin_memcpy(&e0, &g0, sizeof e0);
  __builtin_memcpy(&e1, &g1, sizeof e1);
  vf_f64x8 width = e1 - e0;
  vf_f64x8 xu = e0 + (t - __builtin_convertvector(i, vf_f64x8)) * width;
  *jv *= dninc * width;
  const vf_u32x8 s = (i + (vf_u32)d * ninc) * 2u;
  __builtin_memcpy(slot, &s, sizeof s);
  return xu; // the unit cube's form, as the step's (floor_init's box)
}
#endif

/// The kernel's dimension loops are unrolled completely (the JIT knows d);
/// so are these.
#define FLOOR_UNROLL _Pragma("clang loop unroll(full)")

/// Philox words of 32 samples' 8 uniforms in Philox's fastest form: two
/// groups of sixteen, each two interleaved chains (its two blocks), as the
/// kernel draws them (SampleBatch.h). Four chains at once, the fastest
/// form while the words sat in 32-bit lanes, now spill: each chain holds
/// eight registers (PhiloxX16.h).
static inline void floor_words(const vf_sampler_args *a, const vf_u64 *j,
                               vf_u32x16 words[4][4]) {
  const vf_u32 blk[2] = {0, 1};
  for (unsigned s = 0; s < 2; ++s) {
    vf_u64x8 jl[2][2];
    vf_index_lanes_x16(j + s * VF_WORD_LANES, jl[0]);
    jl[1][0] = jl[0][0];
    jl[1][1] = jl[0][1];
    vf_philox_chains_x16(a->seed, a->iteration, 2, jl, blk, &words[2 * s]);
  }
}

/// One pass over n samples doing the parts `what` names (a constant in
/// each caller below, so that every form is compiled on its own); returns
/// a value that depends on every result, so nothing is optimized away.
/// FLOOR_MAPPED and FLOOR_TRAINED run the kernel's own step
/// (vf_sample_points_x16) with every sample in one hypercube, x strided as
/// the integrand reads it, 32 samples (the kernel's batch) per turn.
static inline __attribute__((always_inline)) double
floor_pass(floor_state *s, floor_part what, vf_u64 n) {
  enum { L = VF_HOST_BATCH };
  const vf_sampler_args *a = &s->a;
  vf_f64x8 keep = 0;
  vf_u32 slot[FLOOR_DIM * L];
  double jac[L], x[FLOOR_DIM * L], recip[FLOOR_DIM + 1];
  vf_u64 hc[L] = {0};
  vf_strata_reciprocals(FLOOR_DIM, 1, recip);
  for (vf_u64 j0 = 0; j0 < n; j0 += L) {
    vf_u64 j[L];
    for (unsigned l = 0; l < L; ++l)
      j[l] = j0 + l;
    if (what == FLOOR_MAPPED || what == FLOOR_TRAINED) {
      for (unsigned h = 0; h < L; h += VF_WORD_LANES)
        vf_sample_points_x16(a, FLOOR_DIM, j + h, hc + h, recip, L, x + h, L,
                             slot + h, jac + h, 1); // floor_init's unit cube
      FLOOR_UNROLL
      for (unsigned v = 0; v < FLOOR_DIM * L / VF_LANES; v += L / VF_LANES) {
        vf_f64x8 xv;
        __builtin_memcpy(&xv, x + v * VF_LANES, sizeof xv);
        keep += xv;
      }
    } else if (what == FLOOR_PHILOX) {
      vf_u32x16 words[4][4];
      floor_words(a, j, words);
      FLOOR_UNROLL
      for (unsigned d = 0; d < FLOOR_DIM; ++d)
        FLOOR_UNROLL
        for (unsigned v = 0; v < 4; ++v) {
          const vf_u32x16 wv = words[2 * (v / 2) + d / 4][d % 4];
          const vf_u32x8 w = v % 2 ? wv.hi : wv.lo;
          keep += (__builtin_convertvector(w, vf_f64x8) + 0.5) * 0x1p-32;
        }
      continue;
    } else {
#ifdef __AVX512F__
      // vf_sample_points_x16's shape, the edges gathered.
      for (unsigned h = 0; h < L; h += VF_WORD_LANES) {
        vf_u64x8 jl[2][2];
        vf_u32x16 words[2][4];
        vf_index_lanes_x16(j + h, jl[0]);
        jl[1][0] = jl[0][0];
        jl[1][1] = jl[0][1];
        const vf_u32 blk[2] = {0, 1};
        vf_philox_chains_x16(a->seed, a->iteration, 2, jl, blk, words);
        vf_f64x8 jv[2] = {1.0, 1.0}, q[2] = {0.0, 0.0}, hp[2] = {0.5, 0.5};
        FLOOR_UNROLL
        for (unsigned d = 0; d < FLOOR_DIM; ++d)
          FLOOR_UNROLL
          for (unsigned v = 0; v < 2; ++v) {
            const vf_u32x8 w = v ? words[d / 4][d % 4].hi
                                 : words[d / 4][d % 4].lo;
            const vf_f64x8 u =
                (__builtin_convertvector(w, vf_f64x8) + 0.5) * 0x1p-32;
            const vf_f64x8 k = vf_hcube_coord_x8(hp[v], recip, d, 1.0, &q[v]);
            const vf_f64x8 xd = map_axis_gathered(
                a, d, u + k, slot + d * L + h + v * VF_LANES, &jv[v]);
            __builtin_memcpy(x + d * L + h + v * VF_LANES, &xd, sizeof xd);
          }
        keep += jv[0] + jv[1];
      }
      FLOOR_UNROLL
      for (unsigned v = 0; v < FLOOR_DIM * L / VF_LANES; v += L / VF_LANES) {
        vf_f64x8 xv;
        __builtin_memcpy(&xv, x + v * VF_LANES, sizeof xv);
        keep += xv;
      }
#endif
      continue;
    }
    if (what != FLOOR_TRAINED)
      continue;
    // (J^2, 1) into each axis's bin: values and weights of their own, as
    // the kernel's weights pass leaves them.
    double value[L], weight[L];
    for (unsigned b = 0; b < L; ++b) {
      value[b] = jac[b] * jac[b];
      weight[b] = 1.0;
    }
    vf_train_batch(s->train, slot, L, value, weight, FLOOR_DIM, L);
  }
  double r = 0;
  for (unsigned l = 0; l < VF_LANES; ++l)
    r += keep[l];
  return r + s->train[2 * FLOOR_NINC / 2];
}

/// The kernel's training loop alone (TrainingUpdates.h): per
/// sample one read-modify-write of a (sum, weight) pair per axis, at the
/// slots of \p slots, batch after batch. Against FLOOR_UPDATES_L1, what
/// the pairs' spread over the cache costs; alone, what the operations do.
static double floor_updates(floor_state *s, const vf_u32 *slots, vf_u64 n) {
  enum { L = VF_HOST_BATCH };
  double value[L], weight[L];
  for (unsigned b = 0; b < L; ++b) {
    value[b] = 1e-3 * (b % 7);
    weight[b] = 1.0 / 4096;
  }
  for (vf_u64 j0 = 0; j0 < n; j0 += L)
    vf_train_batch(s->train,
                   slots + j0 / L % FLOOR_SLOT_BATCHES * FLOOR_DIM * L, L,
                   value, weight, FLOOR_DIM, L);
  double r = 0;
  for (unsigned i = 0; i < 2 * FLOOR_DIM * FLOOR_NINC; ++i)
    r += s->train[i];
  return r;
}

static __attribute__((noinline)) double floor_spread(floor_state *s, vf_u64 n) {
  return floor_updates(s, s->slots[0], n);
}

static __attribute__((noinline)) double floor_in_l1(floor_state *s, vf_u64 n) {
  return floor_updates(s, s->slots[1], n);
}

/// Each form compiled on its own, `what` a constant in it.
#define FLOOR_FORM(name, part)                                                 \
  static __attribute__((noinline)) double name(floor_state *s, vf_u64 n) {    \
    return floor_pass(s, part, n);                                             \
  }
FLOOR_FORM(floor_philox, FLOOR_PHILOX)
FLOOR_FORM(floor_mapped, FLOOR_MAPPED)
FLOOR_FORM(floor_gathered, FLOOR_MAP_GATHERED)
FLOOR_FORM(floor_trained, FLOOR_TRAINED)

int vf_floor_has(floor_part what) {
#ifdef __AVX512F__
  (void)what;
  return 1;
#else
  return what != FLOOR_MAP_GATHERED;
#endif
}

double vf_floor_ns(floor_part what, unsigned long long samples,
                   double *checksum) {
  floor_state *s = aligned_alloc(_Alignof(floor_state), sizeof *s);
  if (!s)
    return -1;
  floor_init(s);
  double (*const pass[])(floor_state *,
                         vf_u64) = {floor_philox,  floor_mapped, floor_gathered,
                                    floor_trained, floor_spread, floor_in_l1};
  const double t0 = cpu_seconds();
  *checksum = pass[what](s, samples);
  const double t = cpu_seconds() - t0;
  free(s);
  return 1e9 * t / (double)samples;
}
