//===- runtime/integrator/WeightRatios.cpp - Ratios to the value ---------===//
//
// From the combined cells of entry k (I_k, V_k), of its difference from
// the integrand's value (D = I_k - I, V_D) and of that value (I, V), all
// on the same samples, estimator and iteration weights:
//
//   R_k = 1 + D / I,
//   Cov(I_k, I) = (V_k + V - V_D) / 2,
//   Var(R_k) = (V_k - 2 R_k Cov + R_k^2 V) / I^2
//            = (R_k V_D - (R_k - 1)(V_k - R_k V)) / I^2   (delta method).
//
// The second form is dominated by V_D for a small variation (R_k near 1),
// where the first would cancel large terms; rounding can still leave a
// slightly negative value where the entry is exactly proportional to the
// integrand, which is the ratio's error of 0.
//
//===----------------------------------------------------------------------===//

#include "integrator/WeightRatios.h"

#include "integrator/HistogramAverage.h"

#include <cmath>
#include <limits>

namespace vf {

void addWeightRatios(const HistogramAverage &Avg, const WeightListSpec &S,
                     WeightListResult &L) {
  const double I = Avg.mean(S.Central), EI = Avg.error(S.Central);
  const double V = EI * EI;
  for (unsigned K = 0; K < S.Entries; ++K) {
    const double D = Avg.mean(S.Differences + K);
    const double ED = Avg.error(S.Differences + K);
    const double EK = Avg.error(S.Base + K);
    if (I == 0 || !std::isfinite(I)) {
      L.Ratios.push_back(std::numeric_limits<double>::quiet_NaN());
      L.RatioErrors.push_back(std::numeric_limits<double>::quiet_NaN());
      continue;
    }
    const double R = 1 + D / I;
    const double Var = R * ED * ED - (R - 1) * (EK * EK - R * V);
    L.Ratios.push_back(R);
    L.RatioErrors.push_back(std::sqrt(Var > 0 ? Var : 0.0) / std::fabs(I));
  }
}

} // namespace vf
