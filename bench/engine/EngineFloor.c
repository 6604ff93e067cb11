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
// lookup, so the floor is the cheaper of the two.
//
//===----------------------------------------------------------------------===//
#include "EngineFloor.h"

#include "SampleBatch.h"

#include <stdlib.h>
#include <time.h>
#ifdef __AVX512F__
#include <immintrin.h>
#endif

#define FLOOR_DIM 8
#define FLOOR_NINC 1000

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
  double train[2 * FLOOR_DIM * FLOOR_NINC];
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
    // The kernel's in-order training loop: (J^2, 1) into each axis's bin.
    for (unsigned b = 0; b < L; ++b) {
      const vf_f64x2 add = {jac[b] * jac[b], 1.0};
      FLOOR_UNROLL
      for (unsigned d = 0; d < FLOOR_DIM; ++d) {
        double *p = s->train + slot[d * L + b];
        vf_f64x2 pair;
        __builtin_memcpy(&pair, p, sizeof pair);
        pair += add;
        __builtin_memcpy(p, &pair, sizeof pair);
      }
    }
  }
  double r = 0;
  for (unsigned l = 0; l < VF_LANES; ++l)
    r += keep[l];
  return r + s->train[2 * FLOOR_NINC / 2];
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
  floor_state *s = malloc(sizeof *s);
  if (!s)
    return -1;
  floor_init(s);
  double (*const pass[])(floor_state *, vf_u64) = {
      floor_philox, floor_mapped, floor_gathered, floor_trained};
  const double t0 = cpu_seconds();
  *checksum = pass[what](s, samples);
  const double t = cpu_seconds() - t0;
  free(s);
  return 1e9 * t / (double)samples;
}
