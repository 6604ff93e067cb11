//===- runtime/integrator/VarianceCheck.h - Is the error bar reliable? -*- C++ -*-===//
//
// The diagnosis of an unstable variance estimate (docs/algorithm.md,
// "Unstable variance"). Each iteration reports the largest term a single
// sample contributes to its variance estimate, as a share of it
// (IterationRow::MaxShare). For an integrand of finite fourth moment that
// share falls like 1/N; for one of infinite variance it stays a sizeable
// fraction however many samples there are, and for a finite variance but
// infinite fourth moment it falls only like N^(2/a - 1) (a the tail index
// of |f w|, 2 < a < 4). The error estimate is then carried by a handful of
// samples and is unreliable, whatever chi2 says.
//
// Rule: unstable when the median share over the measured iterations
// exceeds UnstableShare. Measured (5 seeds each, their budgets): every
// known integral of tests/testdata/known_integrals.toml stays below 0.042
// (cuba_f1, whose share grows as the map converges and the residual
// variance gathers at x[0] = 0, 0.041; gsl_corners, whose variance is
// infinite in a corner of measure 1e-9 of the map, 0.032; the others below
// 0.01); the heavy-tailed integrands of
// bench/heavytail (30 seeds) are above 0.068.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_VARIANCECHECK_H
#define VF_RUNTIME_INTEGRATOR_VARIANCECHECK_H

#include "vf/Result.h"

#include <vector>

namespace vf {

/// Median largest-sample share above which the variance is unstable.
inline constexpr double UnstableShare = 0.045;

/// The diagnosis of \p Rows (warm-up rows are ignored) for an integrand on
/// the box [Lo, Hi] (used to say which coordinates sit near an end).
VarianceCheck checkVariance(const std::vector<IterationRow> &Rows,
                            const std::vector<double> &Lo,
                            const std::vector<double> &Hi);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_VARIANCECHECK_H
