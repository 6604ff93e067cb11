//===- runtime/integrator/HistogramAverage.h - Cells over iterations -*- C++ -*-===//
//
// Histogram cells combined over the measured iterations with the weights
// of the integral (component 0: the histograms' weight), not with weights
// of their own: iteration k's cell estimate I_bk +- sqrt(V_bk) enters as
//
//   Ibar_b = sum_k w_k I_bk / sum_k w_k,
//   Var(Ibar_b) = sum_k w_k^2 V_bk / (sum_k w_k)^2,   w_k = 1 / sigma_k^2,
//
// sigma_k the integral's error in iteration k. The cells then add up to
// the combined integral to rounding (for a scalar integrand), and a sparse
// cell is not pulled toward the iterations that happened to miss it, as
// weights of its own (which are 0 +- 0 there) would pull it. When some
// iteration's integral is exact (sigma_k = 0), the integral is the plain
// mean of the exact iterations (Stats.h) and so are the cells. Memory: four
// doubles per cell, whatever the number of iterations.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_HISTOGRAMAVERAGE_H
#define VF_RUNTIME_INTEGRATOR_HISTOGRAMAVERAGE_H

#include <cstdint>
#include <span>
#include <vector>

namespace vf {

class HistogramAverage {
public:
  explicit HistogramAverage(unsigned Cells = 0) { reset(Cells); }
  void reset(unsigned Cells);
  unsigned cells() const { return unsigned(Acc.size() / 4); }

  /// Adds a measured iteration: \p Cells as (I, V) per cell, and the
  /// variance of its integral's component 0.
  void add(std::span<const double> Cells, double IntegralVariance);
  /// The combined value and error of cell \p C (NaN before any iteration).
  double mean(unsigned C) const;
  double error(unsigned C) const;

  /// The accumulators, for checkpoints; setState refuses a state of
  /// another size.
  std::vector<double> state() const;
  bool setState(std::span<const double> S);

private:
  double SumW = 0, Exact = 0;
  /// Per cell: sum w I, sum w^2 V, and over exact iterations sum I, sum V.
  std::vector<double> Acc;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_HISTOGRAMAVERAGE_H
