//===- tests/unit/runtime/pdf/ToyFormula.h - The set's formula -*- C++ -*-===//
//
// x f(x, Q) of the set VFToyLO as tests/testdata/pdf/make_set.py writes it
// (the Les Houches toy shapes, hep-ph/0204316, with the script's stand-in Q
// dependence): the truth the interpolation is measured against. Change
// both together.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_RUNTIME_PDF_TOYFORMULA_H
#define VF_TESTS_UNIT_RUNTIME_PDF_TOYFORMULA_H

#include <cmath>

namespace vf::pdf::test {

/// PDG id \p Pid (21: gluon) at (X, Q); bottom from Q = 4.5 GeV on.
inline double toyXf(int Pid, double X, double Q) {
  const double Lam2 = 0.2 * 0.2;
  const double S = std::log(std::log(Q * Q / Lam2) / std::log(2.0 / Lam2));
  const double Om = 1 - X;
  const double Uv = 5.1072 * std::pow(X, 0.8 + 0.1 * S) * std::pow(Om, 3 + S);
  const double Dv = 3.06432 * std::pow(X, 0.8 + 0.1 * S) * std::pow(Om, 4 + S);
  const double Dbar =
      0.1939875 * std::pow(X, -0.1 - 0.15 * S) * std::pow(Om, 6 + S);
  const double Ubar = Om * Dbar;
  switch (Pid) {
  case 21:
    return 1.7 * std::pow(X, -0.1 - 0.15 * S) * std::pow(Om, 5 + S);
  case 1:
    return Dbar + Dv;
  case 2:
    return Ubar + Uv;
  case -1:
    return Dbar;
  case -2:
    return Ubar;
  case 3:
  case -3:
    return 0.2 * (Ubar + Dbar);
  case 4:
  case -4:
    return 0.1 * Dbar;
  case 5:
  case -5:
    return Q >= 4.5 ? 0.05 * (1 + std::log(Q * Q / (4.5 * 4.5))) * Dbar : 0;
  default:
    return 0;
  }
}

} // namespace vf::pdf::test

#endif // VF_TESTS_UNIT_RUNTIME_PDF_TOYFORMULA_H
