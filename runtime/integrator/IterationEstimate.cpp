//===- runtime/integrator/IterationEstimate.cpp - An iteration's estimate ===//
//
// Step 5 of an iteration (Iteration.h): the tiles' edge segments merged in
// tile order, the hypercubes' sums turned into the estimate, its
// (co)variance and Strata's moments, what those sums cannot give honestly
// refused with a message that says how to rescale, and the iteration's
// largest weight with its point.
//
//===----------------------------------------------------------------------===//

#include "integrator/Iteration.h"

#include "integrator/FormatDouble.h"

#include "SamplePoint.h"
#include "SinglePoint.h"
#include "reduction/Segments.h"

#include <cmath>

namespace vf {

std::vector<double> Iteration::samplePoint(const RunState &S,
                                           const vf_sampler_args &A,
                                           std::uint64_t Index) const {
  // Exactly as the kernel drew it: this iteration's map and allocation.
  std::uint64_t H = Strata::findHcube(S.Str->offsets(), Index);
  std::vector<double> X(I.Dim);
  if (A.single_edges) {
    vf_single_sample_x(&A, I.Dim, H, Index, X.data());
    return X;
  }
  std::vector<double> K(I.Dim);
  std::vector<vf_u32> Bin(I.Dim);
  vf_hcube_coords(H, I.Dim, A.nstrat, K.data());
  vf_sample_point(&A, I.Dim, Index, K.data(), X.data(), Bin.data());
  return X;
}

/// Merges the tiles' edge segments in tile order and turns the complete
/// hypercubes into the iteration's \p Mean and \p Cov and Strata's moments.
/// A hypercube whose sums overflowed, or whose variance underflowed, is an
/// error: its estimate would be NaN (and spread to every component through
/// the covariance) or taken as exact.
Status Iteration::estimate(RunState &S, const vf_sampler_args &A,
                           std::vector<double> &Mean,
                           std::vector<double> &Cov) {
  const unsigned K = I.Outputs, Stride = segmentStride(K);
  std::vector<double> &Segs = Buffers.Segs, &Edges = Buffers.Edges;
  const std::vector<vf_tile_result> &Results = Buffers.Results;
  // Segs is not cleared between iterations (2 MiB at 65536 hypercubes):
  // the kernels store each hypercube inside a tile whole, and only the
  // tiles' end hypercubes, built here from their edges, start from zero.
  for (const vf_tile_result &R : Results)
    for (std::uint64_t H : {R.first_hcube, R.last_hcube})
      std::fill_n(Segs.begin() + H * Stride, Stride, 0.0);
  for (std::uint64_t T = 0; T < Results.size(); ++T) {
    const vf_tile_result &R = Results[T];
    double *E = Edges.data() + T * 2 * Stride;
    mergeSegment(Segs.data() + R.first_hcube * Stride, E, K);
    if (R.last_hcube != R.first_hcube)
      mergeSegment(Segs.data() + R.last_hcube * Stride, E + Stride, K);
  }
  Mean.assign(K, 0.0);
  Cov.assign(K * K, 0.0);
  std::vector<double> Carry(K, 0.0);
  // Per component, the first hypercube whose variance underflowed.
  std::vector<std::uint64_t> Underflow(K, A.nhcube);
  // Per component, the largest |f J| seen (a hypercube's first value).
  std::vector<double> Largest(K, 0.0);
  // Every hypercube's moments are set below; a failed iteration leaves
  // none of its own.
  auto Fail = [&](Error E) {
    S.Str->clearSums();
    return E;
  };
  if (K == 1) {
    // Each hypercube's terms in a vector pass; here only the sums, which
    // keep hypercube order.
    HypercubeTerms &T = Buffers.Terms;
    singleOutputTerms(Segs.data(), A.nhcube, double(A.nhcube), T);
    for (std::uint64_t H = 0; H < A.nhcube; ++H) {
      const double *Seg = Segs.data() + H * Stride;
      if (T.Flags[H] & 1)
        return Fail(sumsError(S, H, Seg, 0, false));
      if (T.Flags[H] & 2 && Underflow[0] == A.nhcube)
        Underflow[0] = H;
      Largest[0] = std::max(Largest[0], std::fabs(Seg[1]));
      if (!(Seg[0] > 0)) {
        S.Str->setMoments(H, 0, 0, 0, 0);
        continue;
      }
      compensatedAdd(Mean[0], Carry[0], T.Mean[H]);
      Cov[0] += T.Var[H]; // 0 where n < 2, as addHypercubeEstimate skips
      S.Str->setMoments(H, Seg[0], Seg[1], T.MeanD[H], T.M2[H]);
    }
  } else {
    for (std::uint64_t H = 0; H < A.nhcube; ++H) {
      const double *Seg = Segs.data() + H * Stride;
      if (unsigned C = 0; segmentOverflows(Seg, K, C))
        return Fail(sumsError(S, H, Seg, C, false));
      for (unsigned C = 0; C < K; ++C) {
        if (Underflow[C] == A.nhcube && varianceUnderflows(Seg, K, C))
          Underflow[C] = H;
        Largest[C] = std::max(Largest[C], std::fabs(Seg[1 + C]));
      }
      addHypercubeEstimate(Seg, K, double(A.nhcube), Mean, Carry, Cov);
      S.Str->setSums(H,
                     HypercubeSums{Seg[0], Seg[1], Seg[1 + K], Seg[1 + 2 * K]});
    }
  }
  for (unsigned C = 0; C < K; ++C)
    Mean[C] += Carry[C];
  if (Status C = checkEstimate(S, A.nhcube, Mean, Cov, Underflow, Largest); !C)
    return Fail(C.error());
  return Status::ok();
}

/// What the hypercubes' sums cannot give honestly: values below the normal
/// range (their mean underflows to 0), a variance lost to underflow where
/// the values really differ, an estimate that overflows.
Status Iteration::checkEstimate(const RunState &S, std::uint64_t Nhcube,
                                const std::vector<double> &Mean,
                                const std::vector<double> &Cov,
                                const std::vector<std::uint64_t> &Underflow,
                                const std::vector<double> &Largest) const {
  const unsigned K = I.Outputs, Stride = segmentStride(K);
  const double *Segs = Buffers.Segs.data();
  // What an underflowed hypercube loses is below 1e-323 / (N_h (n - 1)):
  // nothing beside a variance that is not itself that small (a Gaussian's
  // far tail, say), everything when the whole component is tiny.
  for (unsigned C = 0; C < K; ++C)
    if (Mean[C] == 0 && Largest[C] != 0 && Largest[C] < 0x1p-1000)
      return tinyValuesError(C, Largest[C]);
  for (unsigned C = 0; C < K; ++C)
    if (Underflow[C] < Nhcube && Cov[C * K + C] < 1e-290 &&
        !roundingOnly(Segs + Underflow[C] * Stride, K, C))
      return sumsError(S, Underflow[C], Segs + Underflow[C] * Stride, C, true);
  for (unsigned C = 0; C < K; ++C)
    for (unsigned D = 0; D < K; ++D)
      if (!std::isfinite(Mean[C]) || !std::isfinite(Cov[C * K + D]))
        return Error{"the estimate of " + componentName(C) +
                     " overflows when its hypercubes are added (" +
                     formatDouble(Mean[C]) + " +- " +
                     formatDouble(std::sqrt(Cov[C * K + C])) +
                     "). Rescale the integrand: divide it by a constant "
                     "near its size and multiply the result back"};
  return Status::ok();
}

/// Sample \p Index (value \p V = J f_0) of hypercube \p H: its term of
/// the iteration's variance, n / (n - 1) ((V - v_h) / (n N_h))^2 with n
/// and v_h the hypercube's count and mean.
static double varianceTerm(const double *Seg, unsigned Outputs, double V,
                           double Nhcube) {
  const double N = Seg[0];
  if (!(N > 1))
    return 0;
  const double Dev = (V - (Seg[1] + Seg[1 + Outputs] / N)) / (N * Nhcube);
  return N / (N - 1) * Dev * Dev;
}

void Iteration::largestWeight(const RunState &S, const vf_sampler_args &A,
                              double Variance, IterationRow &Row) const {
  if (!(Variance > 0))
    return;
  // Each tile's candidate, and the first sample of its hypercube (the
  // segment's shift, which the kernel's deviations are taken from); in
  // tile order, the first largest wins: the same sample whatever device
  // ran which tile.
  const unsigned Stride = segmentStride(I.Outputs);
  double Best = 0;
  std::uint64_t BestIndex = 0;
  for (const vf_tile_result &R : Buffers.Results) {
    // Searched among the tile's own hypercubes: a search of the whole
    // allocation per tile missed the cache at every step.
    const std::uint64_t H =
        R.first_hcube +
        Strata::findHcube(S.Str->offsets().subspan(
                              R.first_hcube, R.last_hcube - R.first_hcube + 2),
                          R.max_index);
    const double *Seg = Buffers.Segs.data() + H * Stride;
    const double Nh = double(A.nhcube);
    const double Term = varianceTerm(Seg, I.Outputs, R.max_value, Nh),
                 First = varianceTerm(Seg, I.Outputs, Seg[1], Nh);
    if (Term > Best || First > Best) {
      Best = std::max(Term, First);
      BestIndex = Term >= First ? R.max_index : S.Str->offsets()[H];
    }
  }
  if (!(Best > 0))
    return;
  Row.MaxShare = std::min(1.0, Best / Variance);
  Row.MaxPoint = samplePoint(S, A, BestIndex);
}

std::string Iteration::componentName(unsigned C) const {
  return I.Outputs > 1 ? "component " + std::to_string(C) + " of integrand '" +
                             I.Name + "'"
                       : "integrand '" + I.Name + "'";
}

Error Iteration::tinyValuesError(unsigned C, double Largest) const {
  return Error{componentName(C) +
               " is too small to integrate: its weighted "
               "values f*J are at most " +
               formatDouble(Largest) +
               ", below the normal range of doubles, and their average "
               "underflows to 0. Rescale it: multiply it by a constant near "
               "1 / " +
               formatDouble(Largest) + " and divide the result by it"};
}

Error Iteration::sumsError(const RunState &S, std::uint64_t H,
                           const double *Seg, unsigned C,
                           bool Underflow) const {
  const double Value = Seg[1 + C]; // the hypercube's first weighted value
  const std::string Where = " in hypercube " + std::to_string(H) +
                            " of iteration " + std::to_string(S.Iteration);
  if (Underflow)
    return Error{
        componentName(C) + " is too small to have an error bar" + Where +
        ": its weighted values f*J (about " + formatDouble(Value) +
        ") differ, but the squares of their differences underflow "
        "to 0 (below 1e-308), so its variance would be taken as "
        "exactly 0. Rescale it: multiply it by a constant near 1 / " +
        formatDouble(std::fabs(Value)) + " and divide the result by it"};
  if (!std::isfinite(Value))
    return Error{componentName(C) +
                 " has a weighted value f*J that is not "
                 "finite" +
                 Where + " (" + formatDouble(Value) +
                 "), though f itself is: f times the Jacobian of the map "
                 "and the box volume overflows the double range (1.8e308). "
                 "Rescale the integrand or the integration variables, so "
                 "that f times the volume stays far below 1e154"};
  return Error{componentName(C) + " overflows" + Where +
               ": its weighted values f*J are about " + formatDouble(Value) +
               ", and their squares (for the variance) exceed the double "
               "range (1.8e308; values must stay below about 1e154). "
               "Rescale it: divide it by a constant near " +
               formatDouble(std::fabs(Value)) +
               " and multiply the result by it"};
}

} // namespace vf
