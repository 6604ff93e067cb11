//===- examples/cpp/ee_ll_std.cpp - e+e- -> mu+mu- with std::complex ------===//
//
// The helicity amplitudes of ee_ll.cpp's sigma_spinors (Dixon's spinor
// products, TASI 1995, hep-ph/9601359; the physics is explained there)
// written as a physicist would with the standard library: std::complex
// for the spinor products and the Z propagator, std::array for momenta.
// vegasflow's <complex> and <array> (docs/user-guide.md, "C and C++
// integrands") give the same bits on the CPU and a GPU;
// tests/python/test_cpp.py checks that this agrees with ee_ll.cpp's
// hand-written complex type to 1e-12 at 500 points, and is bitwise the
// same on threads and fake GPUs.
//
//   vegasc ee_ll_std.cpp --integrand sigma
//
//===----------------------------------------------------------------------===//

#include <array>
#include <cmath>
#include <complex>

#include "vf/integrand.h"

namespace {

using Complex = std::complex<double>;
/// (E, px, py, pz).
using Momentum = std::array<double, 4>;

constexpr double Alpha = 1.0 / 128;
constexpr double GF = 1.1663787e-5; // GeV^-2
constexpr double MZ = 91.1876;      // GeV
constexpr double GZ = 2.4952;       // GeV
constexpr double SW2 = 0.2312;
constexpr double GeV2pb = 0.3893794e9; // 1 GeV^-2 in pb

double dot(const Momentum &P, const Momentum &Q) {
  return P[0] * Q[0] - P[1] * Q[1] - P[2] * Q[2] - P[3] * Q[3];
}

/// p1, p2 incoming along +-z, p3, p4 outgoing at cos(theta) = 2u - 1,
/// phi = 2 pi v, seen in the frame rotated by one radian about x, where
/// no momentum is along -z (whose spinors would divide by p+ = 0).
std::array<Momentum, 4> momenta(double RootS, double U, double V) {
  const double E = RootS / 2, C = 2 * U - 1;
  const double SinT = std::sqrt(1 - C * C > 0 ? 1 - C * C : 0);
  const double Phi = 2 * M_PI * V;
  const Momentum K = {E, E * SinT * std::cos(Phi), E * SinT * std::sin(Phi),
                      E * C};
  std::array<Momentum, 4> P = {Momentum{E, 0, 0, E}, Momentum{E, 0, 0, -E}, K,
                               Momentum{E, -K[1], -K[2], -K[3]}};
  const double Cr = std::cos(1.0), Sr = std::sin(1.0);
  for (Momentum &Q : P)
    Q = {Q[0], Q[1], Cr * Q[2] - Sr * Q[3], Sr * Q[2] + Cr * Q[3]};
  return P;
}

/// <i j> = (p_perp_i p+_j - p_perp_j p+_i) / sqrt(p+_i p+_j), with
/// p+ = E + pz and p_perp = px + i py.
Complex angle(const Momentum &I, const Momentum &J) {
  const double PlusI = I[0] + I[3], PlusJ = J[0] + J[3];
  const Complex PerpI(I[1], I[2]), PerpJ(J[1], J[2]);
  return (PlusJ * PerpI - PlusI * PerpJ) / std::sqrt(PlusI * PlusJ);
}

/// [i j] = -<i j>*.
Complex square(const Momentum &I, const Momentum &J) {
  return -std::conj(angle(I, J));
}

/// The chiral couplings c_L = v + a, c_R = v - a of a lepton
/// (T3 = -1/2, Q = -1), v = T3 - 2 Q sin^2(theta_W), a = T3.
double chiral(bool Left) {
  const double V = -0.5 + 2 * SW2, A = -0.5;
  return Left ? V + A : V - A;
}

/// M(h, h') = 2 e^2 [Q^2 + c_h c_h' chi(s)] S(h, h') / s, with
/// chi(s) = k s / (s - mz^2 + i mz gz) and S the spinor structure.
Complex amplitude(const std::array<Momentum, 4> &P, bool LeftIn, bool LeftOut) {
  const double S = 2 * dot(P[0], P[1]);
  const double K = std::sqrt(2.0) * GF * MZ * MZ / (4 * M_PI * Alpha);
  const Complex Chi = K * S / Complex(S - MZ * MZ, MZ * GZ);
  const Complex Reduced = 1.0 + chiral(LeftIn) * chiral(LeftOut) * Chi;
  Complex Spinors;
  if (LeftIn == LeftOut)
    Spinors = LeftIn ? angle(P[1], P[2]) * square(P[0], P[3])
                     : square(P[1], P[2]) * angle(P[0], P[3]);
  else
    Spinors = LeftIn ? angle(P[1], P[3]) * square(P[0], P[2])
                     : square(P[1], P[3]) * angle(P[0], P[2]);
  return (2 * 4 * M_PI * Alpha / S) * (Reduced * Spinors);
}

} // namespace

/// sigma = integral du dv of 2 dsigma/dcos(theta), with
/// dsigma/dcos(theta) = (|M|^2 averaged) / (32 pi s).
VF_INTEGRAND(sigma, 2, 1, "rs = 91.19") {
  const std::array<Momentum, 4> P = momenta(params[0], x[0], x[1]);
  double Sum = 0;
  for (bool LeftIn : {true, false})
    for (bool LeftOut : {true, false})
      Sum += std::norm(amplitude(P, LeftIn, LeftOut));
  const double S = 2 * dot(P[0], P[1]);
  out[0] = 2 * GeV2pb * (Sum / 4) / (32 * M_PI * S);
}
