//===- runtime/integrator/AdaptiveMap.h - The VEGAS map ---------*- C++ -*-===//
//
// The adaptive map of VEGAS (Lepage 1978; VEGAS+ paper, Eqs. 8-22): a
// per-axis, piecewise-linear change of variables x(y) from the unit cube of
// the sampler's y to the unit cube of x (the user's box is an affine map
// applied afterwards). Importance sampling comes from making the map's
// Jacobian large where |f| is large. The class knows nothing of integrands,
// devices or strata: it maps points, takes training sums and re-grids.
//
// The map. Axis d has ninc increments with edges
//   0 = x_{d,0} < x_{d,1} < ... < x_{d,ninc} = 1,
//   dx_{d,i} = x_{d,i+1} - x_{d,i}.
// A coordinate y in [0,1) picks increment i = floor(y ninc) and the offset
// delta = y ninc - i in [0,1) within it, and maps linearly across it:
//   x_d(y) = x_{d,i} + delta dx_{d,i}.
// Each increment receives the same share 1/ninc of y, so
//   dx_d/dy_d = ninc dx_{d,i},   jac(y) = prod_d ninc dx_{d,i(y_d)},
// and int f(x) dx = int jac(y) f(x(y)) dy. Finding i is a multiplication, not
// a search: "direct indexing". y = 1 (which (k + u)/M can round to) is
// clamped into the last increment, delta = 1. The uniform map (edges i/ninc)
// is the identity with jac = 1.
//
// Training (Eqs. 17-22). The sampler accumulates, per axis d and increment
// i, the sum of (jac f)^2 over the samples whose y_d fell in increment i and
// the number of such samples; adapt() averages, smooths (7:1 at the ends,
// 1:6:1 inside), normalises to r_i, damps with ((1 - r_i)/ln(1/r_i))^alpha
// and re-grids so each new increment carries an equal share of the damped
// weights, interpolating linearly inside the old increments. Everything is
// sequential per axis: the result does not depend on thread order.
//
// Edges are one flat array, axis-major, dim x (ninc + 1): edge k of axis d is
// edges()[d * (ninc + 1) + k]. The sampler kernel receives exactly this array.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_ADAPTIVEMAP_H
#define VF_RUNTIME_INTEGRATOR_ADAPTIVEMAP_H

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vf {

class AdaptiveMap {
public:
  /// Default upper bound on increments per axis (ALGORITHM.md section 1).
  static constexpr unsigned DefaultMaxNinc = 1000;
  /// Default damping exponent (VEGAS+ paper; classic VEGAS codes use 1.5).
  static constexpr double DefaultAlpha = 0.5;
  /// The least damping exponent of an adaptation after a warm-up
  /// iteration: the map converges faster while nothing is averaged
  /// (docs/algorithm.md, "The map", the warm-up's alpha).
  static constexpr double WarmupAlpha = 0.875;

  /// The exponent for the adaptation after a warm-up iteration, given the
  /// user's alpha (which the measured iterations use): at least
  /// WarmupAlpha; alpha = 0 (no adaptation) stays 0.
  static double warmupAlpha(double alpha) {
    return alpha > 0 ? std::max(alpha, WarmupAlpha) : alpha;
  }

  /// A uniform map (the identity) on `dim` axes with `ninc` increments each.
  ///   dim:  number of integration variables, >= 1.
  ///   ninc: increments per axis, >= 1; typically chooseNinc(...), <= 1000.
  AdaptiveMap(unsigned dim, unsigned ninc);
  /// A map with the given edges (a saved grid or checkpoint), dim x
  /// (ninc + 1), axis-major. edgesProblem() must be empty.
  AdaptiveMap(unsigned dim, unsigned ninc, std::vector<double> edges);
  /// Why `edges` is not a map, naming the axis and edge, or empty: a map
  /// is dim x (ninc + 1) values, each axis rising (non-strictly) from
  /// exactly 0 to exactly 1.
  static std::string edgesProblem(unsigned dim, unsigned ninc,
                                  std::span<const double> edges);

  /// Increments per axis for a run of `neval` samples per iteration with
  /// `nstrat` strata per axis: min(maxNinc, max(2, neval / 10)), rounded down
  /// to a multiple of nstrat when nstrat fits, so strata boundaries in y
  /// fall on increment boundaries.
  static unsigned chooseNinc(std::uint64_t neval, unsigned nstrat,
                             unsigned maxNinc = DefaultMaxNinc);

  unsigned dim() const { return Dim; }
  unsigned ninc() const { return Ninc; }

  /// Edge k (0 <= k <= ninc) of axis d.
  double edge(unsigned d, unsigned k) const {
    return Edges[d * (Ninc + 1) + k];
  }
  /// All edges, axis-major, dim x (ninc + 1).
  std::span<const double> edges() const { return Edges; }

  /// x = x(y) for one point; returns jac(y). y[d] in [0,1], x has dim slots.
  double map(const double *y, double *x) const;
  /// The same, filling `jac` as vegas's map(y, x, jac) does.
  void map(std::span<const double> y, std::span<double> x, double &jac) const {
    jac = map(y.data(), x.data());
  }

  /// y = y(x), the inverse map, for x[d] in [0,1]; returns jac(y(x)). Binary
  /// search: for tests and for seeding, not for the sampling loop.
  double invmap(const double *x, double *y) const;

  /// Adds `sumF2`, a sum of (jac f)^2 over `count` samples, to the training
  /// data of increment `inc` of axis `axis`.
  void addTrainingData(unsigned axis, unsigned inc, double sumF2, double count);
  /// Bulk form: sumF2 and counts are dim x ninc, axis-major, as the sampler
  /// kernel produces them (counts are whole numbers stored as double).
  void addTrainingData(std::span<const double> sumF2,
                       std::span<const double> counts);

  /// Re-grids every axis from the training data, then clear()s it.
  ///   alpha:   damping exponent, default 0.5, typical 0.1-2 (larger
  ///            adapts faster but can oscillate; classic VEGAS uses 1.5).
  ///   newNinc: increments per axis afterwards; 0 keeps ninc().
  /// An axis with no training weight (sum 0) is left unchanged.
  void adapt(double alpha = DefaultAlpha, unsigned newNinc = 0);

  /// Forgets the training data.
  void clear();

  /// Training sums, dim x ninc, axis-major (for inspection and MPI).
  std::span<const double> trainingSums() const { return SumF2; }
  std::span<const double> trainingCounts() const { return CountF; }

private:
  /// The damped, smoothed weights d_i of one axis from its averages.
  /// \p widths: each increment's width relative to the axis (sum 1);
  /// \p counts: its training samples; \p newNinc: increments after the
  /// regrid.
  static void smoothAndDamp(std::vector<double> &avg, double alpha,
                            const double *widths, const double *counts,
                            unsigned newNinc);
  /// New edges for one axis from weights d_i over the old increments.
  void regridAxis(unsigned d, const std::vector<double> &weights,
                  unsigned newNinc, std::vector<double> &newEdges) const;

  unsigned Dim;
  unsigned Ninc;
  /// Edges, first index is the axis, second the edge: dim x (ninc + 1).
  std::vector<double> Edges;
  /// Training data, first index is the axis, second the increment.
  std::vector<double> SumF2;
  std::vector<double> CountF;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_ADAPTIVEMAP_H
