//===- frontend/DomainMap.h - Maps of infinite intervals --------*- C++ -*-===//
//
// An infinite interval is sampled by the runtime as t in (0, 1) and mapped
// onto the user's range by the integrand itself (codegen emits the same
// arithmetic as mapInfinite below, the reference the evaluator uses), with
// s > 0 the map's scale (`[0, inf; s]`, default 1) and u = 1 - t:
//
//   [a, inf]     x = a + s t/u          dx/dt = s / u^2
//   [-inf, b]    x = b - s u/t          dx/dt = s / t^2
//   [-inf, inf]  x = s (t/u - u/t)      dx/dt = s (1/u^2 + 1/t^2)
//
// These are the rational maps of W. H. Press et al., Numerical Recipes,
// 3rd ed. (2007), sec. 4.5, and of the GSL's QAGIU/QAGIL/QAGI (the GSL
// reference manual, "QAGI adaptive integration on infinite intervals",
// with t -> 1 - t): a tail f ~ 1/x^2 becomes flat in t, and a faster decay
// vanishes at the end, so VEGAS adapts on top of a bounded function. They
// use + - * / only, which IEEE rounds exactly, so the CPU and the GPU map
// every sample bit for bit alike (tan(pi (t - 1/2)) would not).
//
// The ends: t is a double in (0, 1), so u >= 2^-53 and the Jacobian stays
// below s 2^106, always finite. A sample at the numerical end of the range
// (u <= 2^-53 for an upper infinite side, t <= 2^-53 for a lower one; the
// VEGAS map only puts samples there when the integrand's weight piles up
// at the end) is evaluated at x = +-inf, its limit: an integrand that
// decays gives 0 or NaN there (0 * inf), which counts as 0; one that does
// not (its value there is a non-zero number or infinite) gives an infinite
// weight, which the runtime reports as a non-finite sample instead of
// returning a number for a divergent integral.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_DOMAINMAP_H
#define VF_COMPILER_FRONTEND_DOMAINMAP_H

#include <cmath>

namespace vf {

enum class InfiniteMap { Upper, Lower, Both };

/// The map of an interval with or without a finite lower and upper bound.
inline InfiniteMap infiniteMapOf(bool HasLo, bool HasHi) {
  return HasLo ? InfiniteMap::Upper : HasHi ? InfiniteMap::Lower
                                            : InfiniteMap::Both;
}

/// The width of the numerical end of an infinite side: 2^-53.
constexpr double MapEndWidth = 0x1p-53;

/// Maps \p T to \p X with the map \p K (lower or upper finite bound \p A,
/// scale \p S) and multiplies the Jacobian into \p Jac; returns true when
/// \p T lies at the numerical end of the range (then \p X is +-inf and
/// the weight does not use \p Jac).
inline bool mapInfinite(InfiniteMap K, double A, double S, double T,
                        double &X, double &Jac) {
  double U = 1.0 - T;
  bool LowEnd = K != InfiniteMap::Upper && T <= MapEndWidth;
  bool HighEnd = K != InfiniteMap::Lower && U <= MapEndWidth;
  switch (K) {
  case InfiniteMap::Upper:
    X = A + S * (T / U);
    Jac = Jac * (S / (U * U));
    break;
  case InfiniteMap::Lower:
    X = A - S * (U / T);
    Jac = Jac * (S / (T * T));
    break;
  case InfiniteMap::Both:
    X = S * (T / U - U / T);
    Jac = Jac * (S * (1.0 / (U * U) + 1.0 / (T * T)));
    break;
  }
  if (!(S > 0))
    X = NAN;
  if (LowEnd)
    X = -INFINITY;
  if (HighEnd)
    X = INFINITY;
  return LowEnd || HighEnd;
}

/// The t that mapInfinite maps nearest to \p X (a point of the interval:
/// X >= A for Upper, X <= A for Lower), for vegasc --eval --at: the
/// inverse of the map, then the double neighbours of that t, since the
/// map's roundings may land a neighbour exactly on \p X. An inverse at
/// the numerical end of the range is returned as it is (mapInfinite then
/// says so): \p X lies beyond what the map reaches.
inline double unmapInfinite(InfiniteMap K, double A, double S, double X) {
  double T = 0;
  switch (K) {
  case InfiniteMap::Upper: // t/u = r
    T = ((X - A) / S) / (1.0 + (X - A) / S);
    break;
  case InfiniteMap::Lower: // u/t = r
    T = 1.0 / (1.0 + (A - X) / S);
    break;
  case InfiniteMap::Both: { // q = t/u solves q - 1/q = y, q > 0
    double Y = X / S, R = std::sqrt(Y * Y + 4.0);
    double Q = Y >= 0 ? (Y + R) / 2.0 : 2.0 / (R - Y);
    T = std::isfinite(Q) ? Q / (1.0 + Q) : 1.0;
    break;
  }
  }
  double X0 = 0, Jac0 = 1;
  if (mapInfinite(K, A, S, T, X0, Jac0))
    return T;
  double Best = T, BestGap = INFINITY;
  double Lo = T, Hi = T;
  for (int Step = 0; Step < 4; ++Step) {
    const double Candidates[2] = {Lo, Hi};
    for (double C : Candidates) {
      double Xc = 0, Jac = 1;
      mapInfinite(K, A, S, C, Xc, Jac);
      if (std::fabs(Xc - X) < BestGap)
        Best = C, BestGap = std::fabs(Xc - X);
    }
    Lo = std::nextafter(Lo, 0.0);
    Hi = std::nextafter(Hi, 1.0);
  }
  return Best;
}

/// The weight of a sample with integrand value \p F and Jacobian \p Jac,
/// \p AtEnd when a coordinate lies at the numerical end of its range.
/// A zero value weighs 0 even where the Jacobians of several infinite
/// axes overflow together.
inline double mappedWeight(double F, double Jac, bool AtEnd) {
  if (F == 0)
    return 0.0;
  if (!AtEnd)
    return F * Jac;
  return std::isnan(F) ? 0.0 : F * INFINITY;
}

} // namespace vf

#endif // VF_COMPILER_FRONTEND_DOMAINMAP_H
