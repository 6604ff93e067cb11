//===- runtime/integrator/Stats.h - Combining iterations --------*- C++ -*-===//
//
// Running averages over VEGAS iterations (ALGORITHM.md section 4, with the
// weights changed as docs/algorithm.md derives): each iteration's estimate
// I_k +- sigma_k is weighted by the inverse of a variance predicted before
// its samples were drawn, p_k = sigma_{k-1}^2 (the previous iteration's,
// the last warm-up's for the first measured one; its own when there is no
// previous one or that one is exact, not finite, or more than 2^20 times
// smaller than its own sigma_k: a predecessor exact to rounding, whose
// sigma is only the round-off floor, predicts nothing of an iteration
// that is not):
//   w_k = 1 / p_k,   Ibar = sum(w_k I_k) / sum(w_k),
//   sigma_Ibar = sqrt(sum(w_k^2 sigma_k^2)) / sum(w_k),
//   chi2 = sum (I_k - Ibar)^2 / sigma_k^2,  dof = nitn - 1,
//   Q = Gamma(dof/2, chi2/2) / Gamma(dof/2)  (regularised upper incomplete
//       gamma, IncompleteGamma.h: the probability that consistent
//       iterations scatter more).
// Weighting by the iteration's own sigma_k^2 (vegas's RAvg, ALGORITHM.md)
// is biased when sigma_k is estimated from the same samples as I_k and the
// two are correlated, as they are for a heavy-tailed integrand: an
// iteration that missed the tail is low with a small error and gets a
// large weight. A weight fixed before the iteration's samples keeps
// E[w_k (I_k - I)] = 0. For a well-behaved integrand sigma_{k-1} ~ sigma_k
// and the rule is the inverse-variance one.
// Q < 0.05 means the iterations disagree (the map was still adapting, or
// the integrand has a spike the samples have not resolved).
//
// Warm-up iterations are recorded in the summary but excluded from the
// average. Everything is recomputed from the stored iterations on each
// add(), in two passes, so chi2 is not a difference of large sums.
//
// Zero variance. An iteration with sigma_k = 0 (a constant integrand) has
// infinite weight. If any counted iteration has it, Ibar is the plain mean
// of those exact iterations and sigma_Ibar = 0; in chi2 an exact iteration
// contributes 0 if it agrees with Ibar to RoundingTol relative and +inf
// otherwise (exact results that disagree: Q = 0); the others contribute
// (I_k - Ibar)^2 / sigma_k^2 as usual. No division by zero anywhere.
//
// Vector-valued integrands (RAvgArray) weight by the inverse of the
// predicted covariance P_k (C_{k-1}, as for scalars; C_k when C_{k-1} has
// a diagonal entry that is 0, not finite or under 2^-40 of C_k's),
// W_k = P_k^-1:
//   Ibar = (sum W_k)^-1 sum W_k I_k,
//   Cov(Ibar) = (sum W_k)^-1 (sum W_k C_k W_k) (sum W_k)^-1,
//   chi2 = sum (I_k - Ibar)^T C_k^-1 (I_k - Ibar),  dof = n (nitn - 1).
// A component with variance 0 in an iteration (a cut that removes every
// sample, a component that is constant) is known exactly there, like a
// scalar exact iteration: its Ibar is the plain mean of its exact values,
// with no variance and no covariance with the others, and the remaining
// components are weighted among themselves; in chi2 an iteration's exact
// values count 0 or +inf (as in the scalar case) and its other components
// their weighted term. All of it is computed with each component scaled
// by a power of two that brings its largest variance near 1 (exact: no
// digit changes), so components of very different sizes stay within the
// range of doubles. Matrices are inverted by Cholesky (DenseMatrix.h);
// one that is not numerically positive definite (perfectly correlated
// components) is regularised to (1 - eta) C + eta diag(C) with eta
// growing from 1e-10 until Cholesky succeeds. The weighted mean is formed from
// deviations from the plain mean of the I_k, so an ill-conditioned weight
// matrix costs digits of the deviations, not of the values.
//
// With no counted iteration the mean and error are NaN; with one, chi2 = 0,
// dof = 0, chi2/dof = 0 and Q = 1.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_STATS_H
#define VF_RUNTIME_INTEGRATOR_STATS_H

#include "integrator/IncompleteGamma.h"

#include <limits>
#include <memory>
#include <span>
#include <vector>

namespace vf {

/// Relative agreement expected of exact (zero-variance) iterations: 2^-40,
/// room for reductions of many terms done in different orders.
inline constexpr double RoundingTol = 0x1p-40;

/// A weighted running average of scalar iteration results.
class RAvg {
public:
  /// One line of the summary table.
  struct Row {
    double mean;    ///< This iteration's I_k.
    double sdev;    ///< This iteration's sigma_k.
    bool warmup;    ///< Excluded from the average.
    double avgMean; ///< Cumulative Ibar after this iteration.
    double avgSdev; ///< Cumulative sigma_Ibar.
    double chi2dof; ///< Cumulative chi2/dof.
    double Q;       ///< Cumulative Q.
  };

  /// Records iteration I = mean +- sdev; warm-up ones are not averaged.
  void add(double mean, double sdev, bool warmup = false);

  /// Iterations in the average (warm-up excluded).
  unsigned nitn() const { return unsigned(Itns.size()); }
  double mean() const { return Mean; }
  double sdev() const { return Sdev; }
  double chi2() const { return Chi2; }
  unsigned dof() const { return nitn() > 0 ? nitn() - 1 : 0; }
  double chi2dof() const { return dof() > 0 ? Chi2 / dof() : 0.0; }
  double Q() const { return chi2Q(Chi2, dof()); }
  /// Every iteration added, warm-up included, in order.
  const std::vector<Row> &summary() const { return Rows; }

private:
  void recompute();

  struct Itn {
    double Mean, Sdev;
    double Pred; ///< The predicted sigma_k that weights it.
  };
  std::vector<Itn> Itns;
  /// sigma of the last iteration added, warm-up included (NaN: none yet).
  double LastSdev = std::numeric_limits<double>::quiet_NaN();

public:
  /// The previous iteration's sigma (warm-up included), NaN before any.
  double lastSdev() const { return LastSdev; }

private:
  std::vector<Row> Rows;
  double Mean = std::numeric_limits<double>::quiet_NaN();
  double Sdev = std::numeric_limits<double>::quiet_NaN();
  double Chi2 = 0;
};

/// A weighted running average of vector-valued iteration results with
/// their covariance matrices.
class RAvgArray {
public:
  struct Row {
    std::vector<double> mean; ///< This iteration's I_k.
    std::vector<double> sdev; ///< sqrt(diag C_k).
    bool warmup;
    std::vector<double> avgMean; ///< Cumulative Ibar.
    std::vector<double> avgSdev; ///< sqrt(diag Cov(Ibar)).
    double chi2dof;
    double Q;
  };

  /// An average of vectors with `n` components, n >= 1.
  explicit RAvgArray(unsigned n)
      : N(n), Mean(n, std::numeric_limits<double>::quiet_NaN()),
        Cov(std::size_t(n) * n, std::numeric_limits<double>::quiet_NaN()) {}

  /// Records iteration mean (n values) with covariance cov (n x n,
  /// row-major, symmetric positive semi-definite).
  void add(std::span<const double> mean, std::span<const double> cov,
           bool warmup = false);

  unsigned size() const { return N; }
  unsigned nitn() const { return unsigned(Means.size()); }
  const std::vector<double> &mean() const { return Mean; }
  /// Cov(Ibar), n x n row-major.
  const std::vector<double> &cov() const { return Cov; }
  std::vector<double> sdev() const;
  double chi2() const { return Chi2; }
  unsigned dof() const { return nitn() > 0 ? N * (nitn() - 1) : 0; }
  double chi2dof() const { return dof() > 0 ? Chi2 / dof() : 0.0; }
  double Q() const { return chi2Q(Chi2, dof()); }
  const std::vector<Row> &summary() const { return Rows; }

private:
  void recompute();

  unsigned N;
  /// Counted iterations: means (n each), covariances and the predicted
  /// covariances that weight them (n x n each).
  std::vector<std::vector<double>> Means;
  std::vector<std::vector<double>> Covs;
  std::vector<std::vector<double>> Preds;
  /// The last iteration's covariance, warm-up included (empty: none yet).
  std::vector<double> LastCov;

public:
  /// The previous iteration's covariance (warm-up included), empty before
  /// any.
  const std::vector<double> &lastCov() const { return LastCov; }

private:
  std::vector<Row> Rows;
  std::vector<double> Mean;
  std::vector<double> Cov;
  double Chi2 = 0;
};

/// An integrand's running average, whatever its output count: RAvg for
/// one output, RAvgArray for more, chosen once (as vegas chooses its
/// result class), so the iteration loop and the result never ask which.
class IterationAverage {
public:
  /// The average for an integrand of \p Outputs components (>= 1).
  static std::unique_ptr<IterationAverage> create(unsigned Outputs);
  virtual ~IterationAverage() = default;
  /// Records an iteration: \p Mean and \p Error per component (Error_c =
  /// sqrt(Cov_cc)), \p Cov (row-major); warm-up ones are not averaged.
  virtual void add(std::span<const double> Mean, std::span<const double> Error,
                   std::span<const double> Cov, bool Warmup) = 0;
  virtual std::vector<double> mean() const = 0;
  virtual std::vector<double> sdev() const = 0;
  /// Cov(Ibar), row-major.
  virtual std::vector<double> cov() const = 0;
  virtual double chi2dof() const = 0;
  virtual double Q() const = 0;
  /// The variance that weights component 0 of the next measured iteration
  /// whose own variance is \p Own: the prediction p_k above. Histograms
  /// weight their bins by it, so that bins and flows add up to the
  /// integral's combined estimate.
  virtual double predictedVariance(double Own) const = 0;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_STATS_H
