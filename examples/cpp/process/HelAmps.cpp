//===- HelAmps.cpp - Helicity-amplitude building blocks -------------------===//
//
// The spinors follow Peskin and Schroeder, eqs. 3.50 and 3.62, with
// two-component helicity eigenstates chi_+ and chi_- of the momentum's
// direction (theta, phi):
//   chi_+ = (cos(theta/2), e^{i phi} sin(theta/2)),
//   chi_- = (-e^{-i phi} sin(theta/2), cos(theta/2)),
// written with p+ = |p| + pz and pT = px + i py as
//   chi_+ = (p+, pT) / sqrt(2 |p| p+),
//   chi_- = (-conj(pT), p+) / sqrt(2 |p| p+).
// For a massless particle of energy E that makes
//   u(p, +) = sqrt(2E) (0, chi_+),    u(p, -) = sqrt(2E) (chi_-, 0),
//   v(p, +) = sqrt(2E) (chi_-, 0),    v(p, -) = -sqrt(2E) (0, chi_+),
// in (psi_L, psi_R) halves: an antifermion of helicity h is the
// negative-energy solution of spin -h, hence chi_{-h} in v.
//
//===----------------------------------------------------------------------===//

#include "HelAmps.h"

#include <cmath>

namespace vfexample {

namespace {

using TwoSpinor = std::array<Complex, 2>;

/// chi_Hel of P's direction. p+ is computed without the cancellation of
/// |p| + pz near the -z axis, from p+ p- = pT^2; along -z itself the
/// limits chi_+ = (0, 1), chi_- = (-1, 0) are taken (theta = pi, phi = 0).
TwoSpinor helicityEigenstate(const double *P, int Hel) {
  const double PT2 = P[1] * P[1] + P[2] * P[2];
  const double Abs = std::sqrt(PT2 + P[3] * P[3]);
  const double Plus = P[3] >= 0 ? Abs + P[3] : PT2 / (Abs - P[3]);
  if (Plus == 0)
    return Hel > 0 ? TwoSpinor{0.0, 1.0} : TwoSpinor{-1.0, 0.0};
  const double Norm = 1 / std::sqrt(2 * Abs * Plus);
  const Complex PT(P[1], P[2]);
  if (Hel > 0)
    return {Plus * Norm, PT * Norm};
  return {-std::conj(PT) * Norm, Plus * Norm};
}

/// A Dirac spinor with only its left- or right-handed half, Scale * Chi.
Spinor chiral(const TwoSpinor &Chi, bool RightHanded, double Scale) {
  if (RightHanded)
    return {0.0, 0.0, Scale * Chi[0], Scale * Chi[1]};
  return {Scale * Chi[0], Scale * Chi[1], 0.0, 0.0};
}

/// a^+ sigma^mu b (Sign = +1) or a^+ sigmabar^mu b (Sign = -1), for the
/// Pauli matrices sigma^1 = [[0, 1], [1, 0]], sigma^2 = [[0, -i], [i, 0]],
/// sigma^3 = [[1, 0], [0, -1]].
VectorWave sandwich(const Complex *A, const Complex *B, double Sign) {
  const Complex A0 = std::conj(A[0]), A1 = std::conj(A[1]);
  const Complex I(0, 1);
  return {A0 * B[0] + A1 * B[1], Sign * (A0 * B[1] + A1 * B[0]),
          Sign * I * (A1 * B[0] - A0 * B[1]), Sign * (A0 * B[0] - A1 * B[1])};
}

/// Bar^+ gamma^0 gamma^mu (Left P_L + Right P_R) Psi: the left-handed
/// halves through sigmabar^mu, the right-handed ones through sigma^mu.
VectorWave current(const Spinor &Bar, const Spinor &Psi, ChiralCoupling C) {
  const VectorWave L = sandwich(&Bar[0], &Psi[0], -1);
  const VectorWave R = sandwich(&Bar[2], &Psi[2], +1);
  VectorWave J;
  for (int Mu = 0; Mu < 4; ++Mu)
    J[Mu] = C.Left * L[Mu] + C.Right * R[Mu];
  return J;
}

/// The Minkowski product V.W (metric +,-,-,-), without conjugation.
Complex minkowski(const VectorWave &V, const VectorWave &W) {
  return V[0] * W[0] - V[1] * W[1] - V[2] * W[2] - V[3] * W[3];
}

} // namespace

Spinor fermionSpinor(const double *P, int Hel) {
  return chiral(helicityEigenstate(P, Hel), Hel > 0, std::sqrt(2 * P[0]));
}

Spinor antifermionSpinor(const double *P, int Hel) {
  const double Scale = std::sqrt(2 * P[0]);
  const bool RightHanded = Hel < 0;
  return chiral(helicityEigenstate(P, -Hel), RightHanded,
                RightHanded ? -Scale : Scale);
}

VectorWave offShellVector(const Spinor &Bar, const Spinor &Psi,
                          ChiralCoupling C, double Q2, double Mass,
                          double Width) {
  const Complex Propagator = 1.0 / Complex(Q2 - Mass * Mass, Mass * Width);
  VectorWave V = current(Bar, Psi, C);
  for (Complex &Component : V)
    Component *= Propagator;
  return V;
}

Complex vertexAmplitude(const Spinor &Bar, const Spinor &Psi,
                        const VectorWave &V, ChiralCoupling C) {
  return minkowski(current(Bar, Psi, C), V);
}

} // namespace vfexample
