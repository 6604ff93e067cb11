//===- runtime/reduction/Segments.cpp - Per-hypercube segment sums -------===//

#include "reduction/Segments.h"

#include <cmath>
#include <vector>

namespace vf {

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

namespace {

__attribute__((target_clones("avx512f", "avx2", "default"))) void
termsPass(const double *Seg, std::uint64_t Count, double Nhcube, double *Mean,
          double *Var, double *MeanD, double *M2, unsigned char *Flags) {
  // Contraction would fuse C - S Q into one rounding where FMA exists.
#pragma clang fp contract(off)
  for (std::uint64_t H = 0; H < Count; ++H, Seg += 4) {
    const double N = Seg[0], K = Seg[1], S = Seg[2], C = Seg[3];
    const double Q = S / N;
    Mean[H] = (K + Q) / Nhcube;
    const double M2e = C - S * S / N;
    const double Norm = Nhcube * Nhcube * N * (N - 1);
    Var[H] = N < 2 ? 0.0 : (M2e < 0 ? 0.0 : M2e) / Norm;
    MeanD[H] = Q;
    const double M2s = C - S * Q;
    M2[H] = M2s > 0.0 ? M2s : 0.0; // std::max(0.0, M2s), NaN included
    const bool Overflow = !(std::fabs(K) <= __DBL_MAX__) ||
                          !(std::fabs(S) <= __DBL_MAX__) ||
                          !(std::fabs(C) <= __DBL_MAX__);
    const bool Underflow = N >= 2 && S != 0 && C == 0;
    Flags[H] = (Overflow ? 1 : 0) | (Underflow ? 2 : 0);
  }
}

} // namespace

void singleOutputTerms(const double *Segs, std::uint64_t Count, double Nhcube,
                       HypercubeTerms &Out) {
  Out.Mean.resize(Count);
  Out.Var.resize(Count);
  Out.MeanD.resize(Count);
  Out.M2.resize(Count);
  Out.Flags.resize(Count);
  termsPass(Segs, Count, Nhcube, Out.Mean.data(), Out.Var.data(),
            Out.MeanD.data(), Out.M2.data(), Out.Flags.data());
}

} // namespace vf
