//===- runtime/reduction/Segments.h - Per-hypercube segment sums -*- C++ -*-===//
//
// The fused kernel summarises runs of samples of one hypercube as segments
// (layout in kernels/SamplerABI.h: n, shifts K_c, sums of deviations S_c,
// cross sums C_cd). Segments of one hypercube from different tiles are
// merged here, in tile order, and complete hypercubes are turned into the
// iteration's estimate and covariance (inline: once per hypercube and
// iteration, a million times at most, where a call costs a fifth).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_REDUCTION_SEGMENTS_H
#define VF_RUNTIME_REDUCTION_SEGMENTS_H

#include <cmath>
#include <cstdint>
#include <span>
#include <vector>

namespace vf {

/// Index of C_cd (c <= d) in a segment's packed upper triangle.
inline unsigned crossIndex(unsigned c, unsigned d, unsigned k) {
  return c * k - c * (c - 1) / 2 + (d - c);
}

/// Number of doubles in a segment for k outputs.
constexpr unsigned segmentStride(unsigned k) {
  return 1 + 2 * k + k * (k + 1) / 2;
}

/// Hypercubes [First, First + Count) of a run of consecutive tiles whose
/// first tile starts in hypercube \p FirstHcube and whose last ends in
/// \p LastHcube: those strictly between lie inside the run, so only its
/// tiles wrote their segments (the two ends may continue next door).
struct HcubeRange {
  std::uint64_t First, Count;
};
inline HcubeRange innerHypercubes(std::uint64_t FirstHcube,
                                  std::uint64_t LastHcube) {
  return {FirstHcube + 1,
          LastHcube > FirstHcube + 1 ? LastHcube - FirstHcube - 1 : 0};
}

/// Merges segment B into A (either may be empty, n = 0); A keeps its shift,
/// B's sums are re-centred on it.
void mergeSegment(double *A, const double *B, unsigned k);

/// Whether a sum of segment \p Seg is inf or NaN (a weighted value f J,
/// or its square, overflowed); \p Component is then the first such.
inline bool segmentOverflows(const double *Seg, unsigned k,
                             unsigned &Component) {
  const double *K = Seg + 1, *S = Seg + 1 + k, *C = Seg + 1 + 2 * k;
  for (unsigned c = 0; c < k; ++c) {
    Component = c;
    if (!std::isfinite(K[c]) || !std::isfinite(S[c]))
      return true;
    for (unsigned d = c; d < k; ++d)
      if (!std::isfinite(C[crossIndex(c, d, k)]))
        return true;
  }
  return false;
}

/// Whether component \p c's values differ (its sum of deviations is not
/// 0) but the sum of their squared deviations underflowed to 0, so that
/// its variance in this hypercube would be taken as exactly 0.
inline bool varianceUnderflows(const double *Seg, unsigned k, unsigned c) {
  return Seg[0] >= 2 && Seg[1 + k + c] != 0 &&
         Seg[1 + 2 * k + crossIndex(c, c, k)] == 0;
}

/// Whether component \p c's deviations from the segment's shift are at
/// the level of rounding (a constant times a Jacobian that rounds
/// differently from sample to sample): a variance lost to underflow then
/// lies below the round-off floor, which gives the error bar instead.
inline bool roundingOnly(const double *Seg, unsigned k, unsigned c) {
  return std::fabs(Seg[1 + k + c]) <= Seg[0] * std::fabs(Seg[1 + c]) * 0x1p-44;
}

/// Sum += X with Neumaier's compensation: Carry collects what rounding
/// dropped (see addHypercubeEstimate).
inline void compensatedAdd(double &Sum, double &Carry, double X) {
  const double T = Sum + X;
  Carry += std::fabs(Sum) >= std::fabs(X) ? (Sum - T) + X : (X - T) + Sum;
  Sum = T;
}

/// Adds hypercube h's contribution, I_c = (K_c + S_c/n)/N_h and
/// Cov_cd = (C_cd - S_c S_d/n) / (N_h^2 n (n - 1)), to Mean (k) and
/// Cov (k x k, row-major). The mean is summed with Neumaier's compensation
/// (Neumaier, ZAMM 54 (1974) 39): \p Carry (k, zero at the start) holds
/// what rounding dropped, to be added to Mean once every hypercube is in,
/// so a sum over a million hypercubes is good to a few ulp rather than
/// drifting by 1e-12 (the constant integrand's bias).
inline void addHypercubeEstimate(const double *Seg, unsigned k,
                                 double Nhcube, std::span<double> Mean,
                                 std::span<double> Carry,
                                 std::span<double> Cov) {
  double N = Seg[0];
  if (!(N > 0))
    return;
  const double *K = Seg + 1, *S = Seg + 1 + k, *C = Seg + 1 + 2 * k;
  for (unsigned c = 0; c < k; ++c)
    compensatedAdd(Mean[c], Carry[c], (K[c] + S[c] / N) / Nhcube);
  if (N < 2)
    return;
  double Norm = Nhcube * Nhcube * N * (N - 1);
  for (unsigned c = 0; c < k; ++c)
    for (unsigned d = c; d < k; ++d) {
      double M2 = C[crossIndex(c, d, k)] - S[c] * S[d] / N;
      if (c == d && M2 < 0)
        M2 = 0; // rounding can push a tiny variance below zero
      Cov[c * k + d] += M2 / Norm;
      if (d != c)
        Cov[d * k + c] += M2 / Norm;
    }
}

/// What the estimate needs of each hypercube of a one-output integrand,
/// computed for all of them in one pass (singleOutputTerms) so that only
/// the ordered sums are left to a serial loop.
struct HypercubeTerms {
  /// I_h, what addHypercubeEstimate adds to the mean (n > 0).
  std::vector<double> Mean;
  /// Var(I_h), what it adds to the covariance (0 where n < 2).
  std::vector<double> Var;
  /// Strata's moments: S / n and max(0, C - S (S / n)) (setSums).
  std::vector<double> MeanD, M2;
  /// segmentOverflows (bit 0) and varianceUnderflows (bit 1).
  std::vector<unsigned char> Flags;
};

/// HypercubeTerms of the \p Count one-output segments at \p Segs, with
/// exactly addHypercubeEstimate's, setSums' and the checks' operations
/// (the same bits), on the widest vectors the CPU has: five divisions per
/// hypercube were most of the estimate's time.
void singleOutputTerms(const double *Segs, std::uint64_t Count, double Nhcube,
                       HypercubeTerms &Out);

} // namespace vf

#endif // VF_RUNTIME_REDUCTION_SEGMENTS_H
