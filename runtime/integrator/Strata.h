//===- runtime/integrator/Strata.h - VEGAS+ stratification ------*- C++ -*-===//
//
// Adaptive stratified sampling of VEGAS+ (paper Eqs. 41-44, ALGORITHM.md
// section 2). The unit cube of y is cut into M strata per axis, N_h = M^D
// hypercubes; hypercube h gets n_h >= 2 samples y = (k_h + u)/M. After an
// iteration, samples move to the hypercubes where the integrand varies most:
// n_h ~ sigf_h^beta. This class owns the hypercube geometry, the allocation
// n_h and its prefix sums (which the sampler needs to turn a global sample
// index into its hypercube), and the per-hypercube moments that give the
// iteration's estimate and drive the next allocation. It knows nothing of
// the map, devices or integrands.
//
// Sample order. Samples of an iteration are numbered 0 ... nevalUsed() - 1
// by hypercube: hypercube h owns [offsets()[h], offsets()[h + 1]).
// Hypercube h has coordinates k_d = (h / M^d) mod M (axis 0 varies fastest).
//
// Estimates. With v = jac f (times the box volume) for a sample and its
// weight w = jac / (N_h n_h), a hypercube contributes
//   I_h = sum w f = mean_h(v) / N_h,
//   Var(I_h) = (n_h sum (w f)^2 - (sum w f)^2) / (n_h - 1)
//            = M2_h / (N_h^2 n_h (n_h - 1)),   M2_h = sum (v - mean_h(v))^2,
// and I = sum_h I_h, Var(I) = sum_h Var(I_h).
//
// Cancellation. Summing v and v^2 and subtracting loses all of M2_h when v is
// nearly constant (n sum v^2 and (sum v)^2 agree to 16 digits). So the kernel
// never forms raw power sums: for every run of consecutive samples of one
// hypercube that it processes (a "segment", e.g. the part of the hypercube
// inside one tile) it takes the first sample's v as a shift K and
// accumulates deviations from it, HypercubeSums{n, K, sum (v - K),
// sum (v - K)^2}. K is a draw from the same distribution, so the deviations
// are of the size of the spread and M2 = sum d^2 - (sum d)^2 / n loses at
// most a digit or so. A hypercube split across tiles is merged into one
// segment before it gets here, in tile order, by reduction/Segments.h (the
// pairwise update of Chan, Golub and LeVeque, keeping the first segment's
// shift); Strata receives each hypercube's sums once. A constant
// integrand gives M2 = 0 exactly.
//
// Allocation (for the next iteration). sigf_h = sqrt(Var(I_h) n_h) (the
// hypercube's volume times the standard deviation of v in it),
// d_h = sigf_h^beta, n_h = 2 + floor((neval - 2 N_h) d_h / sum d_h). Each d_h is
// first rounded to 40 significant bits, and the sum is taken in hypercube
// order, so inputs that differ only by rounding noise (another reduction
// order, another device) give the same allocation. The first iteration, beta
// = 0, and sum d_h = 0 (or not finite) give the uniform allocation
// max(2, floor(neval / N_h)). nevalUsed() = sum n_h may differ from neval.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_STRATA_H
#define VF_RUNTIME_INTEGRATOR_STRATA_H

#include <cstdint>
#include <span>
#include <vector>

namespace vf {

/// What the sampler kernel reports for one segment (a run of consecutive
/// samples of one hypercube). Plain data, four doubles, so a C kernel can
/// write it: n, shift K = v of the segment's first sample, sum (v - K),
/// sum (v - K)^2, where v = jac f (times the box volume).
struct HypercubeSums {
  double n;
  double shift;
  double sum_d;
  double sum_d2;
};

class Strata {
public:
  /// Default cap on the number of hypercubes N_h (memory: 40 bytes each).
  static constexpr std::uint64_t DefaultMaxHcube = 1000000;
  /// Default exponent of the VEGAS+ redistribution.
  static constexpr double DefaultBeta = 0.75;
  /// Fewest samples a hypercube gets (so its variance is defined).
  static constexpr std::uint64_t MinNevalHcube = 2;

  /// Strata for `dim` axes and about `neval` samples per iteration.
  ///   dim:      integration variables, >= 1.
  ///   neval:    samples per iteration requested, >= 2; typically 10^4-10^9.
  ///   beta:     redistribution exponent, default 0.75, range [0, 1]; 0 is
  ///             classic VEGAS with fixed, uniform stratification.
  ///   maxHcube: cap on N_h, default 10^6; M is lowered until M^D fits.
  /// nstrat M = floor((neval/4)^(1/dim)), at least 1. Allocation uniform.
  Strata(unsigned dim, std::uint64_t neval, double beta = DefaultBeta,
         std::uint64_t maxHcube = DefaultMaxHcube);

  /// The largest M of a single-precision run (--precision f32), whose
  /// y = (k + u)/M is a float: 2^24 / M distinct points per stratum, 1024
  /// at this cap (docs/algorithm.md, "Precision").
  static constexpr unsigned SingleMaxNstrat = 1u << 14;
  /// \p maxHcube lowered, for a \p single run, so that M^dim <= maxHcube
  /// keeps M <= SingleMaxNstrat.
  static std::uint64_t hcubeCap(unsigned dim, std::uint64_t maxHcube,
                                bool single);

  /// The M above: largest M >= 1 with 4 M^dim <= neval and M^dim <=
  /// min(maxHcube, 2^50).
  static unsigned chooseNstrat(unsigned dim, std::uint64_t neval,
                               std::uint64_t maxHcube = DefaultMaxHcube);

  unsigned dim() const { return Dim; }
  unsigned nstrat() const { return Nstrat; }
  std::uint64_t nhcube() const { return Nhcube; }
  double beta() const { return Beta; }
  std::uint64_t neval() const { return Neval; }
  /// The neval the constructor chose the hypercubes for (setNeval does
  /// not change it).
  std::uint64_t sizedFor() const { return SizedFor; }
  /// sum_h n_h: the samples an iteration actually draws.
  std::uint64_t nevalUsed() const { return Offsets.back(); }

  /// n_h.
  std::uint64_t nevalHcube(std::uint64_t h) const {
    return Offsets[h + 1] - Offsets[h];
  }
  /// Prefix sums of n_h, nhcube() + 1 entries: hypercube h owns the sample
  /// indices [offsets()[h], offsets()[h + 1]). For the sampler kernel.
  std::span<const std::uint64_t> offsets() const { return Offsets; }

  /// The hypercube owning sample `index` (< offsets.back()): binary search.
  static std::uint64_t findHcube(std::span<const std::uint64_t> offsets,
                                 std::uint64_t index);
  std::uint64_t hcubeOf(std::uint64_t index) const {
    return findHcube(Offsets, index);
  }
  /// k_h: the integer coordinates (0 ... M - 1) of hypercube h, dim slots.
  void coordinates(std::uint64_t h, unsigned *k) const;

  /// Forgets the moments (start of an iteration).
  void clearSums();
  /// Hypercube h's moments from its whole iteration's sums (its segments
  /// already merged, reduction/Segments.h); n = 0 leaves it empty.
  void setSums(std::uint64_t h, const HypercubeSums &sums);
  /// The moments setSums derives, computed elsewhere (the estimate's
  /// vector pass): n, shift, sum_d / n, max(0, sum_d2 - sum_d (sum_d / n)).
  void setMoments(std::uint64_t h, double n, double shift, double meanD,
                  double m2) {
    Moments[h] = {n, shift, meanD, m2};
  }

  /// Samples in hypercube h.
  double count(std::uint64_t h) const { return Moments[h].N; }
  /// I_h and Var(I_h) from the moments (Var 0 if n < 2).
  double integralHcube(std::uint64_t h) const;
  double varianceHcube(std::uint64_t h) const;

  /// Reallocates n_h from the accumulated moments (sigf^beta rule above).
  /// Does not clear the moments.
  void adapt();
  /// Back to the uniform allocation.
  void resetUniform();
  /// Samples per iteration from now on, which the next adapt() or
  /// resetUniform() allocates; the hypercubes stay. A channel of a
  /// multi-channel integrand gets a share of an iteration that moves with
  /// its weight (ChannelWeights.h).
  void setNeval(std::uint64_t neval) { Neval = neval; }
  /// Restores a saved allocation (prefix sums as offsets() gives them).
  /// False, changing nothing, unless it has nhcube() + 1 entries starting
  /// at 0 with every n_h >= MinNevalHcube. The moments are not part of
  /// the state: every iteration starts by clearing them.
  bool restoreOffsets(std::span<const std::uint64_t> offsets);

  /// x rounded to 40 significant bits (round to nearest): the allocation's
  /// defence against rounding noise.
  static double roundTo40Bits(double x);
  /// roundTo40Bits(pow(x, beta)), bit for bit, for x >= 0.
  static double powTo40Bits(double x, double beta);

private:
  /// Moments of v in one hypercube: count, the shift, the mean relative
  /// to it, and the sum of squared deviations from the mean.
  struct Moment {
    double N = 0;
    double Shift = 0;
    double MeanD = 0;
    double M2 = 0;
  };

  /// Sets Offsets from n_h = 2 + floor((neval - 2 N_h) d_h / sum d), so
  /// that sum n_h stays at most neval.
  void allocate(const std::vector<double> &d, double sum);
  /// d_h for beta = 3/4 where no pow is needed, -1 elsewhere (adapt()).
  /// Both passes are compiled for the widest vectors the CPU has, chosen
  /// at load time.
  __attribute__((target_clones("avx512f", "avx2", "default"))) void
  dampThreeQuarters(double *d) const;
  /// floor(spare d_h / sum) for every hypercube (allocate()).
  __attribute__((target_clones("avx512f", "avx2", "default"))) void
  shares(const double *d, double spare, double sum,
         std::uint64_t *share) const;

  unsigned Dim;
  std::uint64_t Neval;
  std::uint64_t SizedFor; ///< the neval the hypercubes were chosen for
  double Beta;
  unsigned Nstrat;
  std::uint64_t Nhcube;
  /// Prefix sums of n_h, Nhcube + 1 entries.
  std::vector<std::uint64_t> Offsets;
  /// Per-hypercube moments of the current iteration.
  std::vector<Moment> Moments;
  /// adapt()'s d_h, kept between iterations (half a megabyte at 65536
  /// hypercubes, fresh pages every time otherwise).
  std::vector<double> Damped;
};

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_STRATA_H
