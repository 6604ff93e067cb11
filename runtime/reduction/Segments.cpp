//===- runtime/reduction/Segments.cpp - Per-hypercube segment sums -------===//

#include "reduction/Segments.h"

#include <cmath>
#include <vector>

namespace vf {

namespace {
/// Index of C_cd (c <= d) in the packed upper triangle.
unsigned crossIndex(unsigned c, unsigned d, unsigned k) {
  return c * k - c * (c - 1) / 2 + (d - c);
}
} // namespace

void mergeSegment(double *A, const double *B, unsigned k) {
  if (!(B[0] > 0))
    return;
  unsigned Stride = segmentStride(k);
  if (!(A[0] > 0)) {
    for (unsigned I = 0; I < Stride; ++I)
      A[I] = B[I];
    return;
  }
  // B's deviations from A's shift are (v - K_B) + delta, delta = K_B - K_A.
  double Nb = B[0];
  const double *Kb = B + 1, *Sb = B + 1 + k, *Cb = B + 1 + 2 * k;
  double *Ka = A + 1, *Sa = A + 1 + k, *Ca = A + 1 + 2 * k;
  std::vector<double> Delta(k);
  for (unsigned c = 0; c < k; ++c)
    Delta[c] = Kb[c] - Ka[c];
  for (unsigned c = 0; c < k; ++c)
    for (unsigned d = c; d < k; ++d) {
      unsigned X = crossIndex(c, d, k);
      Ca[X] += Cb[X] + Delta[c] * Sb[d] + Delta[d] * Sb[c] +
               Nb * Delta[c] * Delta[d];
    }
  for (unsigned c = 0; c < k; ++c)
    Sa[c] += Sb[c] + Nb * Delta[c];
  A[0] += Nb;
}

bool segmentOverflows(const double *Seg, unsigned k, unsigned &Component) {
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

bool varianceUnderflows(const double *Seg, unsigned k, unsigned c) {
  return Seg[0] >= 2 && Seg[1 + k + c] != 0 &&
         Seg[1 + 2 * k + crossIndex(c, c, k)] == 0;
}

void addHypercubeEstimate(const double *Seg, unsigned k, double Nhcube,
                          std::span<double> Mean, std::span<double> Carry,
                          std::span<double> Cov) {
  double N = Seg[0];
  if (!(N > 0))
    return;
  const double *K = Seg + 1, *S = Seg + 1 + k, *C = Seg + 1 + 2 * k;
  for (unsigned c = 0; c < k; ++c) {
    const double X = (K[c] + S[c] / N) / Nhcube, T = Mean[c] + X;
    Carry[c] += std::fabs(Mean[c]) >= std::fabs(X) ? (Mean[c] - T) + X
                                                   : (X - T) + Mean[c];
    Mean[c] = T;
  }
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

} // namespace vf
