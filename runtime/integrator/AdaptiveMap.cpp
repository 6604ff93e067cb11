//===- runtime/integrator/AdaptiveMap.cpp - The VEGAS map -----------------===//
//
// Mapping, inverse mapping and re-gridding of the VEGAS map; see the header
// for the derivation and ALGORITHM.md sections 1 and 3 for the rules.
//
//===----------------------------------------------------------------------===//
#include "integrator/AdaptiveMap.h"

#include "integrator/FormatDouble.h"

#include "Channel.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <string>
#include <utility>

using namespace vf;

AdaptiveMap::AdaptiveMap(unsigned Dim, unsigned Ninc)
    : Dim(Dim), Ninc(Ninc), Edges(std::size_t(Dim) * (Ninc + 1)),
      SumF2(std::size_t(Dim) * Ninc, 0.0),
      CountF(std::size_t(Dim) * Ninc, 0.0) {
  assert(Dim >= 1 && Ninc >= 1 && "a map needs an axis and an increment");
  for (unsigned D = 0; D < Dim; ++D)
    for (unsigned K = 0; K <= Ninc; ++K)
      Edges[D * (Ninc + 1) + K] = double(K) / Ninc;
}

AdaptiveMap::AdaptiveMap(unsigned Dim, unsigned Ninc, std::vector<double> E)
    : Dim(Dim), Ninc(Ninc), Edges(std::move(E)),
      SumF2(std::size_t(Dim) * Ninc, 0.0),
      CountF(std::size_t(Dim) * Ninc, 0.0) {
  assert(edgesProblem(Dim, Ninc, Edges).empty() && "not a map");
}

std::string AdaptiveMap::edgesProblem(unsigned Dim, unsigned Ninc,
                                      std::span<const double> E) {
  if (Ninc < 1 || E.size() != std::size_t(Dim) * (Ninc + 1))
    return std::to_string(E.size()) +
           " edges for Dim = " + std::to_string(Dim) +
           " and Ninc = " + std::to_string(Ninc) + " (Dim x (Ninc + 1) = " +
           std::to_string(std::uint64_t(Dim) * (std::uint64_t(Ninc) + 1)) + ")";
  for (unsigned D = 0; D < Dim; ++D) {
    const double *A = &E[std::size_t(D) * (Ninc + 1)];
    if (A[0] != 0.0 || A[Ninc] != 1.0)
      return "the edges of axis " + std::to_string(D) + " run from " +
             formatDouble(A[0]) + " to " + formatDouble(A[Ninc]) +
             ", not from 0 to 1";
    for (unsigned K = 0; K < Ninc; ++K)
      if (!(A[K] <= A[K + 1])) // also refuses NaN
        return "edge " + std::to_string(K + 1) + " of axis " +
               std::to_string(D) + " (" + formatDouble(A[K + 1]) +
               ") is below the one before it (" + formatDouble(A[K]) + ")";
  }
  return "";
}

unsigned AdaptiveMap::chooseNinc(std::uint64_t neval, unsigned nstrat,
                                 unsigned maxNinc) {
  std::uint64_t N =
      std::min<std::uint64_t>(maxNinc, std::max<std::uint64_t>(2, neval / 10));
  // Align increments with strata when possible; otherwise keep N.
  if (nstrat > 1 && nstrat <= N)
    N -= N % nstrat;
  return unsigned(N);
}

double AdaptiveMap::map(const double *y, double *x) const {
  double jac = 1.0;
  for (unsigned D = 0; D < Dim; ++D) {
    const double *E = &Edges[D * (Ninc + 1)];
    double T = y[D] * Ninc;
    // Direct indexing; y = 1 lands in the last increment with delta = 1.
    unsigned I = std::min(unsigned(T), Ninc - 1);
    double Delta = T - I;
    double Dx = E[I + 1] - E[I];
    x[D] = E[I] + Delta * Dx;
    jac *= Ninc * Dx;
  }
  return jac;
}

double AdaptiveMap::invmap(const double *x, double *y) const {
  // The sampling core's inverse (kernels/Channel.h), the one every target
  // has, so the host's and a kernel's inverse cannot drift apart.
  double jac = 1.0;
  for (unsigned D = 0; D < Dim; ++D)
    jac *= vf_map_invert_axis(&Edges[D * (Ninc + 1)], Ninc, x[D], &y[D]);
  return jac;
}

void AdaptiveMap::addTrainingData(unsigned axis, unsigned inc, double sumF2,
                                  double count) {
  assert(axis < Dim && inc < Ninc && "training data outside the map");
  SumF2[std::size_t(axis) * Ninc + inc] += sumF2;
  CountF[std::size_t(axis) * Ninc + inc] += count;
}

void AdaptiveMap::addTrainingData(std::span<const double> sumF2,
                                  std::span<const double> counts) {
  assert(sumF2.size() == SumF2.size() && counts.size() == CountF.size() &&
         "training arrays must be dim x ninc");
  for (std::size_t J = 0; J < SumF2.size(); ++J) {
    SumF2[J] += sumF2[J];
    CountF[J] += counts[J];
  }
}

void AdaptiveMap::clear() {
  std::fill(SumF2.begin(), SumF2.end(), 0.0);
  std::fill(CountF.begin(), CountF.end(), 0.0);
}

/// Added to every normalised r_i before damping, as Lepage's vegas does
/// (its TINY), so that an increment with little data is not damped to 0.
static constexpr double DampFloor = 1e-257;
/// An empty increment is one with no training weight: no sample in it saw
/// f != 0. Its weight comes from the nearest increment with data in each
/// direction (width w_n), through a floor profile in the distance d from
/// the edge of that data, with D the weight of one new increment, the
/// total damped weight of the increments with data over the new ninc:
///   density D / w_n                      for d < w_n   (the core),
///   density EmptyTail D w_n / d^2        for d > w_n   (the tail),
/// so an empty increment over [d1, d2] gets D (F(d2) - F(d1)) with
///   F(d) = min(d, w_n) / w_n + EmptyTail (1 - w_n / max(d, w_n)).
/// The core holds one new increment's weight within w_n of the data: the
/// regrid always puts an edge about w_n past the last increment with data,
/// so the increment that contains the step stays about as narrow as its
/// neighbours. The tail holds EmptyTail D however wide the region is. An
/// empty region therefore keeps about 1 + EmptyTail increments, whatever
/// its size (and however fast the data's increments shrink: D is a new
/// increment's weight, not an old one's), plus the empty part of the
/// increment that contains its edge, and receives that share of the
/// samples, no more.
///
/// Why: each sample that lands in an empty region adds (0 - I)^2 to the
/// variance, which no stratification can remove when the region's edge
/// runs through a hypercube: a zero region holding a share q of y costs
/// about q in the relative variance per sample. On genz6 (x[1] 96.5%
/// zero, x[0] 41%) the previous floor, decaying like 1/d, kept ln(Z/w_n),
/// 6-9, increments per axis (q = 1.5%, most of the variance once the map
/// had converged). A floor that vanishes (Lepage's vegas, arXiv:2009.05112
/// Eqs. 17-22, an empty increment weighted by damp(TINY)), or one whose
/// tail is integrable without a core, lets the region collapse into one
/// increment whose lower edge then drifts into the data: that increment
/// has a huge Jacobian and a sliver of non-zero f, which the samples
/// rarely hit, and the iterations drift low with too small an error
/// (measured on genz6: pulls of -10 to -40). docs/algorithm.md, "The map".
static constexpr double EmptyTail = 1.0;

/// ((1 - r)/ln(1/r))^alpha for r in (0, 1]; r = 1 leaves the weight at 1.
static double damp(double R, double Alpha) {
  if (R <= 0)
    return 0.0;
  if (R >= 1)
    return 1.0;
  return std::pow((1 - R) / -std::log(R), Alpha);
}

/// F(d) of the floor profile above, for distance D from the data's edge
/// and the data increment's width Wn.
static double emptyProfile(double D, double Wn) {
  return std::min(D, Wn) / Wn + EmptyTail * (1 - Wn / std::max(D, Wn));
}

/// Adds to Floor[i] of each empty increment (Empty[i]) of one axis the
/// floor from the nearest increment with data in the direction walked:
/// \p Step +1 walks left to right (data on the left), -1 right to left.
/// \p D: one new increment's weight.
static void addEmptyFloor(std::vector<double> &Floor,
                          const std::vector<bool> &Empty, const double *Widths,
                          double D, int Step) {
  const std::ptrdiff_t N = std::ptrdiff_t(Floor.size());
  double Wn = 0, Dist = 0; // Dist: from the data's edge so far
  bool Seen = false;
  for (std::ptrdiff_t K = 0; K < N; ++K) {
    const std::ptrdiff_t I = Step > 0 ? K : N - 1 - K;
    if (!Empty[I]) {
      Seen = true;
      Wn = std::max(Widths[I], 1e-12);
      Dist = 0;
      continue;
    }
    if (!Seen)
      continue;
    const double Next = Dist + Widths[I];
    Floor[I] += D * (emptyProfile(Next, Wn) - emptyProfile(Dist, Wn));
    Dist = Next;
  }
}

void AdaptiveMap::smoothAndDamp(std::vector<double> &Avg, double Alpha,
                                const double *Widths, const double *Counts,
                                unsigned NewNinc) {
  std::size_t N = Avg.size();
  std::vector<double> Smooth(N);
  if (N == 1) {
    Smooth[0] = Avg[0];
  } else {
    Smooth[0] = (7 * Avg[0] + Avg[1]) / 8;
    Smooth[N - 1] = (Avg[N - 2] + 7 * Avg[N - 1]) / 8;
    for (std::size_t I = 1; I + 1 < N; ++I)
      Smooth[I] = (Avg[I - 1] + 6 * Avg[I] + Avg[I + 1]) / 8;
  }
  double Sum = 0;
  for (double S : Smooth)
    Sum += S;
  // Empty: samples fell in it and all saw f = 0, or none did and the
  // smoothing has nothing either. An increment that no sample reached
  // between data (few samples per increment) keeps Lepage's smoothing.
  std::vector<bool> Empty(N);
  for (std::size_t I = 0; I < N; ++I)
    Empty[I] = !(Avg[I] > 0) && (Counts[I] > 0 || !(Smooth[I] > 0));
  double DataSum = 0;
  for (std::size_t I = 0; I < N; ++I) {
    // The smoothing gives an empty neighbour of data 1/8 of its average.
    Avg[I] = Smooth[I] > 0 ? damp(Smooth[I] / Sum + DampFloor, Alpha) : 0.0;
    if (!Empty[I])
      DataSum += Avg[I];
  }
  std::vector<double> Floor(N, 0.0);
  addEmptyFloor(Floor, Empty, Widths, DataSum / NewNinc, +1);
  addEmptyFloor(Floor, Empty, Widths, DataSum / NewNinc, -1);
  // The floor replaces what the smoothing gave an empty neighbour of data:
  // that is a share of an old increment's weight, whatever its width, many
  // new increments while the data's increments shrink.
  for (std::size_t I = 0; I < N; ++I)
    if (Empty[I])
      Avg[I] = Floor[I];
}

void AdaptiveMap::regridAxis(unsigned D, const std::vector<double> &W,
                             unsigned NewNinc,
                             std::vector<double> &NewEdges) const {
  const double *E = &Edges[D * (Ninc + 1)];
  double *Out = &NewEdges[D * (NewNinc + 1)];
  double Total = 0;
  for (double V : W)
    Total += V;
  Out[0] = E[0];
  Out[NewNinc] = E[Ninc];
  // Walk the old increments with a running sum Below = sum of W[<J]; the
  // k-th new edge sits where the running sum crosses k Total / NewNinc.
  unsigned J = 0;
  double Below = 0;
  for (unsigned K = 1; K < NewNinc; ++K) {
    double Target = Total * K / NewNinc;
    while (J + 1 < Ninc && Below + W[J] < Target)
      Below += W[J++];
    // W[J] > 0 here unless rounding exhausted the sum in the last increment.
    double Frac =
        W[J] > 0 ? std::clamp((Target - Below) / W[J], 0.0, 1.0) : 1.0;
    Out[K] = E[J] + Frac * (E[J + 1] - E[J]);
    // Rounding must not make the grid decrease.
    Out[K] = std::max(Out[K], Out[K - 1]);
  }
}

void AdaptiveMap::adapt(double alpha, unsigned newNinc) {
  if (newNinc == 0)
    newNinc = Ninc;
  if (alpha == 0 && newNinc == Ninc) {
    clear(); // alpha = 0: no adaptation
    return;
  }
  std::vector<double> NewEdges(std::size_t(Dim) * (newNinc + 1));
  std::vector<double> W(Ninc);
  for (unsigned D = 0; D < Dim; ++D) {
    double Sum = 0;
    for (unsigned I = 0; I < Ninc; ++I) {
      std::size_t J = std::size_t(D) * Ninc + I;
      W[I] = CountF[J] > 0 ? SumF2[J] / CountF[J] : 0.0;
      Sum += W[I];
    }
    bool HasData = Sum > 0 && std::isfinite(Sum);
    if (!HasData && newNinc == Ninc) {
      // Left alone: the old edges exactly, not an interpolation of them.
      std::copy_n(&Edges[D * (Ninc + 1)], Ninc + 1,
                  &NewEdges[D * (newNinc + 1)]);
      continue;
    }
    if (HasData) {
      const double *E = &Edges[D * (Ninc + 1)];
      std::vector<double> Widths(Ninc);
      for (unsigned I = 0; I < Ninc; ++I)
        Widths[I] = (E[I + 1] - E[I]) / (E[Ninc] - E[0]);
      smoothAndDamp(W, alpha, Widths.data(), &CountF[std::size_t(D) * Ninc],
                    newNinc);
    } else // No information, but a new ninc: re-sample the same map.
      std::fill(W.begin(), W.end(), 1.0);
    regridAxis(D, W, newNinc, NewEdges);
  }
  Edges = std::move(NewEdges);
  Ninc = newNinc;
  SumF2.assign(std::size_t(Dim) * Ninc, 0.0);
  CountF.assign(std::size_t(Dim) * Ninc, 0.0);
}
