//===- runtime/reduction/Segments.h - Per-hypercube segment sums -*- C++ -*-===//
//
// The fused kernel summarises runs of samples of one hypercube as segments
// (layout in kernels/SamplerABI.h: n, shifts K_c, sums of deviations S_c,
// cross sums C_cd). Segments of one hypercube from different tiles are
// merged here, in tile order, and complete hypercubes are turned into the
// iteration's estimate and covariance.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_REDUCTION_SEGMENTS_H
#define VF_RUNTIME_REDUCTION_SEGMENTS_H

#include <cstdint>
#include <span>

namespace vf {

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
bool segmentOverflows(const double *Seg, unsigned k, unsigned &Component);

/// Whether component \p c's values differ (its sum of deviations is not
/// 0) but the sum of their squared deviations underflowed to 0, so that
/// its variance in this hypercube would be taken as exactly 0.
bool varianceUnderflows(const double *Seg, unsigned k, unsigned c);

/// Adds hypercube h's contribution, I_c = (K_c + S_c/n)/N_h and
/// Cov_cd = (C_cd - S_c S_d/n) / (N_h^2 n (n - 1)), to Mean (k) and
/// Cov (k x k, row-major). The mean is summed with Neumaier's compensation
/// (Neumaier, ZAMM 54 (1974) 39): \p Carry (k, zero at the start) holds
/// what rounding dropped, to be added to Mean once every hypercube is in,
/// so a sum over a million hypercubes is good to a few ulp rather than
/// drifting by 1e-12 (the constant integrand's bias).
void addHypercubeEstimate(const double *Seg, unsigned k, double Nhcube,
                          std::span<double> Mean, std::span<double> Carry,
                          std::span<double> Cov);

} // namespace vf

#endif // VF_RUNTIME_REDUCTION_SEGMENTS_H
