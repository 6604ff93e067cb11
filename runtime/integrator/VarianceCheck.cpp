//===- runtime/integrator/VarianceCheck.cpp - Is the error bar reliable? --===//
//
// The median of the iterations' largest-sample shares against
// UnstableShare, and the message that names where the largest weights came
// from; see the header.
//
//===----------------------------------------------------------------------===//
#include "integrator/VarianceCheck.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>

using namespace vf;

namespace {

std::string shortNumber(double V) {
  char Buf[32];
  std::snprintf(Buf, sizeof(Buf), "%.3g", V);
  return Buf;
}

/// Within this fraction of its range from an end, a coordinate is "near"
/// that end.
constexpr double NearEnd = 0.01;

/// "near x[0] = 0, x[2] = 1" for the coordinates of \p X near an end of
/// [Lo, Hi], with a change of variables for the first; empty if none is.
std::string nearEnds(const std::vector<double> &X, const std::vector<double> &Lo,
                     const std::vector<double> &Hi, std::string &Remedy) {
  std::string Near;
  for (std::size_t D = 0; D < X.size() && D < Lo.size() && D < Hi.size();
       ++D) {
    const double W = Hi[D] - Lo[D];
    if (!(W > 0) || !std::isfinite(W))
      continue;
    const double T = (X[D] - Lo[D]) / W;
    const bool AtLo = T < NearEnd, AtHi = T > 1 - NearEnd;
    if (!AtLo && !AtHi)
      continue;
    const std::string Name = "x[" + std::to_string(D) + "]";
    const double End = AtLo ? Lo[D] : Hi[D];
    Near += (Near.empty() ? "" : ", ") + Name + " = " + shortNumber(End);
    if (Remedy.empty()) {
      const std::string Scale = W == 1 ? "" : shortNumber(W) + " * ";
      const std::string Base = End == 0 ? "" : shortNumber(End) + (AtLo ? " + " : " - ");
      Remedy = Name + " = " + Base + (AtHi && End == 0 ? "-" : "") + Scale +
               "u^2 with u in [0, 1], the integrand multiplied by its "
               "Jacobian " + (W == 1 ? "" : shortNumber(W) + " * ") + "2u";
    }
  }
  return Near;
}

std::string pointText(const std::vector<double> &X) {
  std::string S;
  for (double V : X)
    S += (S.empty() ? "" : ", ") + shortNumber(V);
  return "[" + S + "]";
}

} // namespace

VarianceCheck vf::checkVariance(const std::vector<IterationRow> &Rows,
                                const std::vector<double> &Lo,
                                const std::vector<double> &Hi) {
  VarianceCheck C;
  std::vector<double> Shares;
  const IterationRow *Largest = nullptr;
  for (const IterationRow &R : Rows) {
    if (R.Warmup)
      continue;
    Shares.push_back(R.MaxShare);
    if (!Largest || R.MaxShare > Largest->MaxShare)
      Largest = &R;
  }
  if (Shares.empty())
    return C;
  std::sort(Shares.begin(), Shares.end());
  const std::size_t M = Shares.size();
  C.Share = M % 2 ? Shares[M / 2] : (Shares[M / 2 - 1] + Shares[M / 2]) / 2;
  C.Point = Largest->MaxPoint;
  C.Unstable = C.Share > UnstableShare;
  if (!C.Unstable)
    return C;
  std::string Remedy;
  const std::string Near = nearEnds(C.Point, Lo, Hi, Remedy);
  C.Message =
      "the variance estimate is unstable: in the median iteration one "
      "sample carries " +
      shortNumber(100 * C.Share) +
      "% of it (well-behaved integrands: under 4.2%), so the error bar is "
      "unreliable: the integrand's variance (or its fourth moment) appears "
      "infinite" +
      (Near.empty() ? "" : " near " + Near) +
      " (the largest weight came from x = " + pointText(C.Point) + "). " +
      (Remedy.empty()
           ? "A change of variables that is steep where the integrand "
             "peaks would fix it"
           : "A change of variables such as " + Remedy + " would fix it");
  return C;
}
