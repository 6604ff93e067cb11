//===- HelAmps.h - Helicity-amplitude building blocks -----------*- C++ -*-===//
//
// The building blocks generated matrix elements are assembled from, in the
// manner of HELAS (H. Murayama, I. Watanabe, K. Hagiwara, "HELAS: HELicity
// Amplitude Subroutines for Feynman diagram evaluations", KEK Report 91-11,
// 1992): numerical wavefunctions of the external particles, an off-shell
// boson made of a fermion pair and its propagator, and a vertex that closes
// a diagram into a complex amplitude. Written for this project, for
// massless fermions and vector bosons only, which is all e+e- -> mu+mu-
// and q qbar -> gamma*/Z -> l+l- need.
//
// Spinors are four-component Dirac spinors in the chiral (Weyl) basis of
// M. E. Peskin, D. V. Schroeder, "An Introduction to Quantum Field Theory"
// (1995), eq. 3.25: components 0 and 1 are the left-handed part psi_L,
// 2 and 3 the right-handed part psi_R, and
//   psibar gamma^mu psi' = psi_L^+ sigmabar^mu psi'_L + psi_R^+ sigma^mu psi'_R
// with sigma^mu = (1, sigma^i), sigmabar^mu = (1, -sigma^i) (eq. 3.40).
//
// Overall factors common to every diagram of a process (the i of each
// vertex and propagator) are left out: they drop out of |M|^2.
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXAMPLES_PROCESS_HELAMPS_H
#define VF_EXAMPLES_PROCESS_HELAMPS_H

#include <array>
#include <complex>

namespace vfexample {

using Complex = std::complex<double>;
/// A Dirac spinor in the chiral basis: [0], [1] left-handed, [2], [3]
/// right-handed.
using Spinor = std::array<Complex, 4>;
/// A vector wavefunction or current, contravariant components mu = 0..3.
using VectorWave = std::array<Complex, 4>;

/// A vertex psibar gamma^mu (Left P_L + Right P_R) psi V_mu.
struct ChiralCoupling {
  double Left, Right;
};

/// u(p, Hel) of a massless fermion of four-momentum P = (E, px, py, pz)
/// and helicity Hel/2 (Hel = +1 or -1): the spinor of an incoming fermion,
/// and (barred by the vertices) of an outgoing one.
Spinor fermionSpinor(const double *P, int Hel);

/// v(p, Hel) of a massless antifermion of helicity Hel/2: the spinor of an
/// outgoing antifermion, and (barred by the vertices) of an incoming one.
Spinor antifermionSpinor(const double *P, int Hel);

/// The off-shell vector boson a fermion pair makes, the current
/// Bar^+ gamma^0 gamma^mu (Left P_L + Right P_R) Psi times the propagator
/// 1 / (Q2 - Mass^2 + i Mass Width) at the boson's virtuality Q2. The
/// propagator's q^mu q^nu / Mass^2 term is left out: it vanishes against
/// the current of massless fermions.
VectorWave offShellVector(const Spinor &Bar, const Spinor &Psi,
                          ChiralCoupling C, double Q2, double Mass,
                          double Width);

/// The amplitude of the vertex Bar^+ gamma^0 gamma^mu (Left P_L + Right P_R)
/// Psi V_mu, which closes a diagram.
Complex vertexAmplitude(const Spinor &Bar, const Spinor &Psi,
                        const VectorWave &V, ChiralCoupling C);

} // namespace vfexample

#endif // VF_EXAMPLES_PROCESS_HELAMPS_H
