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

} // namespace vf
