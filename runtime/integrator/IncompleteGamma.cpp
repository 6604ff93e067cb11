//===- runtime/integrator/IncompleteGamma.cpp - chi2 to Q -----------------===//
//
// Q(a, x) by its power series below x = a + 1 and by a continued fraction
// (modified Lentz) above, as Numerical Recipes splits it: each converges
// fast on its side.
//
//===----------------------------------------------------------------------===//
#include "integrator/IncompleteGamma.h"

#include <cmath>
#include <limits>

using namespace vf;

/// Relative accuracy at which the series and the continued fraction stop.
static constexpr double GammaEps = 1e-16;
/// Guards the continued fraction's denominators against 0 (Lentz).
static constexpr double GammaTiny = 1e-300;
/// Enough terms for a up to ~10^8 (the series needs O(sqrt(a)) terms near
/// x = a; the continued fraction converges faster).
static constexpr int GammaMaxTerms = 100000;

/// exp(-x) x^a / Gamma(a): the common prefactor.
static double gammaPrefactor(double A, double X) {
  return std::exp(-X + A * std::log(X) - std::lgamma(A));
}

/// P(a, x) by its power series, for x < a + 1.
static double gammaPSeries(double A, double X) {
  double Term = 1 / A, Sum = Term;
  for (int N = 1; N < GammaMaxTerms; ++N) {
    Term *= X / (A + N);
    Sum += Term;
    if (std::fabs(Term) < std::fabs(Sum) * GammaEps)
      break;
  }
  return Sum * gammaPrefactor(A, X);
}

/// Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
static double gammaQFraction(double A, double X) {
  double B = X + 1 - A;
  double C = 1 / GammaTiny, D = 1 / B, H = D;
  for (int I = 1; I < GammaMaxTerms; ++I) {
    double An = -I * (I - A);
    B += 2;
    D = An * D + B;
    if (std::fabs(D) < GammaTiny)
      D = GammaTiny;
    C = B + An / C;
    if (std::fabs(C) < GammaTiny)
      C = GammaTiny;
    D = 1 / D;
    double Delta = D * C;
    H *= Delta;
    if (std::fabs(Delta - 1) < GammaEps)
      break;
  }
  return H * gammaPrefactor(A, X);
}

double vf::gammaQ(double a, double x) {
  if (!(a > 0) || !(x >= 0))
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 0)
    return 1.0;
  if (std::isinf(x))
    return 0.0;
  if (x < a + 1)
    return 1 - gammaPSeries(a, x);
  return gammaQFraction(a, x);
}

double vf::chi2Q(double chi2, double dof) {
  if (dof <= 0)
    return 1.0;
  return gammaQ(dof / 2, chi2 / 2);
}
