//===- runtime/kernels/Philox.h - Portable Philox4x32-10 --------*- C -*-===//
//
// The counter-based random number generator of Salmon et al., "Parallel
// random numbers: as easy as 1, 2, 3" (SC'11), in plain freestanding C that
// clang-19 compiles for x86-64 and nvptx64 alike, so the CPU and the GPU draw
// the same numbers for the same sample. It exists because Debian's Random123
// headers refuse to compile for nvptx64; the unit tests check it bitwise
// against Random123's r123::Philox4x32_10 on the host.
//
// Counter layout (ALGORITHM.md section 5). One Philox call yields one *block*
// of four 32-bit words; sample j of iteration k of a run with seed s uses
//
//   key = { (u32)s, (u32)(s >> 32) }
//   ctr = { block, k, (u32)j, (u32)(j >> 32) }
//
// for block = 0, 1, 2, ..., taking as many blocks as it needs uniforms
// (ceil(dim / 4) for a point). Every sample's numbers depend only on
// (seed, iteration, sample index), never on which worker drew them.
//
// Uniforms. vf_philox_u01(u) = (u + 1/2) * 2^-32 maps a word u to the
// midpoint of one of 2^32 equal cells of [0,1): 32 random bits, spacing
// 2^-32, range [2^-33, 1 - 2^-33]. The value is exact in double (33
// significant bits), so it is never 0 or 1 and identical on every target.
// vf_philox_u01_52(hi, lo) spends two words on 52 bits, (2m + 1) * 2^-53,
// also exact and in the open interval, for callers that need finer spacing.
// The sampler uses the 32-bit form: four uniforms per Philox call.
//
// No host headers: `unsigned int` and `unsigned long long` are 32 and 64
// bits on both targets (checked by the static assertions below); the 32x32
// high product is a 64-bit multiply on the host and mul.hi.u32 on NVPTX.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_KERNELS_PHILOX_H
#define VF_RUNTIME_KERNELS_PHILOX_H

#ifdef __cplusplus
#define VF_PHILOX_STATIC_ASSERT(C, M) static_assert(C, M)
extern "C" {
#else
#define VF_PHILOX_STATIC_ASSERT(C, M) _Static_assert(C, M)
#endif

typedef unsigned int vf_u32;
typedef unsigned long long vf_u64;

VF_PHILOX_STATIC_ASSERT(sizeof(vf_u32) == 4, "vf_u32 must be 32 bits");
VF_PHILOX_STATIC_ASSERT(sizeof(vf_u64) == 8, "vf_u64 must be 64 bits");

/// Philox4x32 multipliers and Weyl key increments (SC'11, Table 2).
#define VF_PHILOX_M0 0xD2511F53u
#define VF_PHILOX_M1 0xCD9E8D57u
#define VF_PHILOX_W0 0x9E3779B9u /* golden ratio */
#define VF_PHILOX_W1 0xBB67AE85u /* sqrt(3) - 1 */
#define VF_PHILOX_ROUNDS 10

/// The high word of the 64-bit product a * b. NVPTX does not narrow the
/// portable 64-bit form to mul.hi.u32 by itself, so use its builtin there.
static inline vf_u32 vf_philox_mulhi(vf_u32 a, vf_u32 b) {
#ifdef __NVPTX__
  return __nvvm_mulhi_ui(a, b);
#else
  return (vf_u32)(((vf_u64)a * b) >> 32);
#endif
}

/// One Philox S-box: multiply two of the words, cross them, mix in the key.
static inline void vf_philox_round(vf_u32 c[4], vf_u32 k0, vf_u32 k1) {
#ifdef __NVPTX__
  vf_u32 hi0 = vf_philox_mulhi(VF_PHILOX_M0, c[0]), lo0 = VF_PHILOX_M0 * c[0];
  vf_u32 hi1 = vf_philox_mulhi(VF_PHILOX_M1, c[2]), lo1 = VF_PHILOX_M1 * c[2];
#else
  // Both halves from one 32 x 32 -> 64-bit product: the same bits as
  // mulhi and the low product, with half the multiplications (the
  // optimiser does not merge the two on its own).
  vf_u64 p0 = (vf_u64)VF_PHILOX_M0 * c[0];
  vf_u64 p1 = (vf_u64)VF_PHILOX_M1 * c[2];
  vf_u32 hi0 = (vf_u32)(p0 >> 32), lo0 = (vf_u32)p0;
  vf_u32 hi1 = (vf_u32)(p1 >> 32), lo1 = (vf_u32)p1;
#endif
  vf_u32 n0 = hi1 ^ c[1] ^ k0;
  vf_u32 n2 = hi0 ^ c[3] ^ k1;
  c[0] = n0;
  c[1] = lo1;
  c[2] = n2;
  c[3] = lo0;
}

/// Philox4x32-10: out = bijection of ctr under key. out may alias ctr.
static inline void vf_philox4x32_10(const vf_u32 ctr[4], const vf_u32 key[2],
                                    vf_u32 out[4]) {
  vf_u32 c[4] = {ctr[0], ctr[1], ctr[2], ctr[3]};
  vf_u32 k0 = key[0], k1 = key[1];
  for (int r = 0; r < VF_PHILOX_ROUNDS; ++r) {
    if (r > 0) { // The key is bumped before every round but the first.
      k0 += VF_PHILOX_W0;
      k1 += VF_PHILOX_W1;
    }
    vf_philox_round(c, k0, k1);
  }
  out[0] = c[0];
  out[1] = c[1];
  out[2] = c[2];
  out[3] = c[3];
}

/// The four words of block `block` for sample `index` of iteration
/// `iteration` under `seed`, in the counter layout documented above.
static inline void vf_philox_block(vf_u64 seed, vf_u32 iteration, vf_u64 index,
                                   vf_u32 block, vf_u32 out[4]) {
  vf_u32 key[2] = {(vf_u32)seed, (vf_u32)(seed >> 32)};
  vf_u32 ctr[4] = {block, iteration, (vf_u32)index, (vf_u32)(index >> 32)};
  vf_philox4x32_10(ctr, key, out);
}

/// A word to a uniform in (0,1): (u + 1/2) 2^-32, in [2^-33, 1 - 2^-33].
static inline double vf_philox_u01(vf_u32 u) {
  return ((double)u + 0.5) * 0x1p-32;
}

/// Two words to a uniform in (0,1) with 52 random bits: the top 52 bits m of
/// hi:lo give (2m + 1) 2^-53, in [2^-53, 1 - 2^-53].
static inline double vf_philox_u01_52(vf_u32 hi, vf_u32 lo) {
  vf_u64 m = (((vf_u64)hi << 32) | lo) >> 12;
  return (double)(2 * m + 1) * 0x1p-53;
}

#ifdef __cplusplus
} // extern "C"
#endif

#undef VF_PHILOX_STATIC_ASSERT

#endif // VF_RUNTIME_KERNELS_PHILOX_H
