//===- runtime/integrator/HistogramAverage.cpp - Cells over iterations ----===//

#include "integrator/HistogramAverage.h"

#include <cmath>
#include <limits>

namespace vf {

void HistogramAverage::reset(unsigned Cells) {
  SumW = Exact = 0;
  Acc.assign(4 * std::size_t(Cells), 0.0);
}

void HistogramAverage::add(std::span<const double> Cells,
                           double IntegralVariance) {
  const std::size_t N = Acc.size() / 4;
  if (!(IntegralVariance > 0)) {
    Exact += 1;
    for (std::size_t C = 0; C < N; ++C) {
      Acc[4 * C + 2] += Cells[2 * C];
      Acc[4 * C + 3] += Cells[2 * C + 1];
    }
    return;
  }
  const double W = 1 / IntegralVariance;
  SumW += W;
  for (std::size_t C = 0; C < N; ++C) {
    Acc[4 * C] += W * Cells[2 * C];
    Acc[4 * C + 1] += W * W * Cells[2 * C + 1];
  }
}

double HistogramAverage::mean(unsigned C) const {
  if (Exact > 0)
    return Acc[4 * std::size_t(C) + 2] / Exact;
  return SumW > 0 ? Acc[4 * std::size_t(C)] / SumW
                  : std::numeric_limits<double>::quiet_NaN();
}

double HistogramAverage::error(unsigned C) const {
  if (Exact > 0)
    return std::sqrt(Acc[4 * std::size_t(C) + 3]) / Exact;
  return SumW > 0 ? std::sqrt(Acc[4 * std::size_t(C) + 1]) / SumW
                  : std::numeric_limits<double>::quiet_NaN();
}

std::vector<double> HistogramAverage::state() const {
  std::vector<double> S{SumW, Exact};
  S.insert(S.end(), Acc.begin(), Acc.end());
  return S;
}

bool HistogramAverage::setState(std::span<const double> S) {
  if (S.size() != 2 + Acc.size())
    return false;
  SumW = S[0];
  Exact = S[1];
  std::copy(S.begin() + 2, S.end(), Acc.begin());
  return true;
}

} // namespace vf
