//===- examples/cpp/ee_ll.cpp - f fbar -> gamma/Z -> f' fbar' at tree level -===//
//
// Tree-level matrix elements of e+ e- -> mu+ mu- and of the partonic
// Drell-Yan processes q qbar -> gamma*/Z -> l+ l- (q = u, d), massless
// fermions, written as helicity amplitudes with spinor products (the
// conventions of L. Dixon, "Calculating scattering amplitudes
// efficiently", TASI 1995, hep-ph/9601359, sections 2 and 3), for
// vegasflow: compiled by `vegasc` with Clang for every CPU core and GPU.
//
// Physics. For massless fermions only helicity-conserving currents
// survive; with the incoming fermion of helicity h and the outgoing one of
// helicity h' (h, h' = L or R),
//
//   M(h, h') = 2 e^2 [ Q_i Q_f + c_h^i c_h'^f chi(s) ] S(h, h') / s,
//
// where c_L = v + a, c_R = v - a are the Z's chiral couplings in the
// normalisation of R. K. Ellis, W. J. Stirling, B. R. Webber, "QCD and
// Collider Physics" (CUP 1996), ch. 3: v = T3 - 2 Q sin^2(theta_W),
// a = T3, and
//
//   chi(s) = k s / (s - mz^2 + i mz gz),  k = sqrt(2) GF mz^2 / (4 pi alpha).
//
// S(h, h') is a product of spinor products: <2 3>[1 4] for LL and
// RR (|S|^2 = u^2) and <2 4>[1 3] for LR and RL (|S|^2 = t^2), with
// p1 (fermion) and p2 (antifermion) incoming, p3 (fermion) and p4
// (antifermion) outgoing. Averaged over the four initial helicities (and
// the three colours of a quark), dsigma/dcos(theta) = |M|^2 / (32 pi s).
//
// Two ways in (docs/user-guide.md, "C and C++ integrands"):
//
//   vegasc ee_ll.cpp --integrand sigma          the whole integrand here
//   vegasc ee_mumu_extern.vf --integrand sigma  kinematics in .vf, calling
//                                               msq_ee below
//
// Both agree with examples/physics/ee_mumu.vf (the closed formula) to
// 1e-12 at every point, and drell_yan.vf holds the formula for q qbar
// (tests/integration/cpp_example.py checks both).
//
//===----------------------------------------------------------------------===//

#include "vf/integrand.h"

namespace {

//===-- Constants (those of examples/physics/ee_mumu.vf) --------------------===//

constexpr double Alpha = 1.0 / 128;
constexpr double GF = 1.1663787e-5; // GeV^-2
constexpr double MZ = 91.1876;      // GeV
constexpr double GZ = 2.4952;       // GeV
constexpr double SW2 = 0.2312;
constexpr double GeV2pb = 0.3893794e9; // 1 GeV^-2 in pb
constexpr double Pi = M_PI;

//===-- Complex numbers (no <complex> on a GPU) -----------------------------===//

struct Complex {
  double Re = 0, Im = 0;
};

constexpr Complex operator+(Complex A, Complex B) {
  return {A.Re + B.Re, A.Im + B.Im};
}
constexpr Complex operator-(Complex A, Complex B) {
  return {A.Re - B.Re, A.Im - B.Im};
}
constexpr Complex operator*(Complex A, Complex B) {
  return {A.Re * B.Re - A.Im * B.Im, A.Re * B.Im + A.Im * B.Re};
}
constexpr Complex operator*(double S, Complex A) { return {S * A.Re, S * A.Im}; }
constexpr Complex conj(Complex A) { return {A.Re, -A.Im}; }
constexpr double norm(Complex A) { return A.Re * A.Re + A.Im * A.Im; }

Complex divide(Complex A, Complex B) {
  const double D = norm(B);
  return {(A.Re * B.Re + A.Im * B.Im) / D, (A.Im * B.Re - A.Re * B.Im) / D};
}

//===-- Four-vectors ---------------------------------------------------------===//

struct FourVector {
  double E = 0, X = 0, Y = 0, Z = 0;
};

FourVector fourVector(const double *P) { return {P[0], P[1], P[2], P[3]}; }

double dot(const FourVector &P, const FourVector &Q) {
  return P.E * Q.E - P.X * Q.X - P.Y * Q.Y - P.Z * Q.Z;
}

/// The 2 -> 2 kinematics of the .vf examples (std/phasespace's
/// two_body_rest for massless particles, cos(theta) = 2u - 1,
/// phi = 2 pi v), with the beams along z: p1 = (E, 0, 0, E) is the
/// fermion, p2 = (E, 0, 0, -E) the antifermion.
struct Kinematics {
  FourVector P[4];
};

Kinematics collide(double RootS, double U, double V) {
  const double E = RootS / 2;
  const double P = sqrt(RootS * RootS) / 2;
  const double C = 2 * U - 1;
  const double SinT = sqrt(1 - C * C > 0 ? 1 - C * C : 0);
  const double KX = P * SinT * cos(2 * Pi * V), KY = P * SinT * sin(2 * Pi * V);
  const double KZ = P * C;
  Kinematics K;
  K.P[0] = {E, 0, 0, E};
  K.P[1] = {E, 0, 0, -E};
  K.P[2] = {sqrt(P * P), KX, KY, KZ};
  K.P[3] = {sqrt(P * P), -KX, -KY, -KZ};
  return K;
}

//===-- Spinor products -----------------------------------------------------===//
//
// For massless momenta of positive energy (Dixon, eq. 2.13):
//   <i j> = sqrt(|s_ij|) e^(i phi_ij),  [i j] = -<i j>*  (so that
//   <i j>[j i] = s_ij = 2 p_i.p_j),
// computed from the light-cone components p+ = E + pz, p_perp = px + i py:
//   <i j> = (p_perp_i p+_j - p_perp_j p+_i) / sqrt(p+_i p+_j).
// A momentum along -z has p+ = 0 (the incoming antifermion): the
// amplitudes are computed in a frame rotated by one radian about x
// (rotated() below), where no beam is along -z; |M|^2 does not change.

struct LightCone {
  double Plus;
  Complex Perp;
};

LightCone lightCone(const FourVector &P) {
  return {P.E + P.Z, {P.X, P.Y}};
}

Complex angle(const FourVector &I, const FourVector &J) {
  const LightCone A = lightCone(I), B = lightCone(J);
  const double Root = sqrt(A.Plus * B.Plus);
  return (1.0 / Root) * (B.Plus * A.Perp - A.Plus * B.Perp);
}

Complex square(const FourVector &I, const FourVector &J) {
  const Complex A = angle(I, J);
  return {-A.Re, A.Im}; // -<ij>*
}

/// |<ij>|^2 = |s_ij|, from the invariant.
double angleNorm(const FourVector &I, const FourVector &J) {
  const double S = 2 * dot(I, J);
  return S < 0 ? -S : S;
}

//===-- Couplings -----------------------------------------------------------===//

struct Fermion {
  double Q;  ///< charge in units of e
  double T3; ///< third component of weak isospin of its left-handed part
  int Colours;
};

constexpr Fermion Electron{-1, -0.5, 1};
constexpr Fermion Muon{-1, -0.5, 1};
constexpr Fermion Up{2.0 / 3, 0.5, 3};
constexpr Fermion Down{-1.0 / 3, -0.5, 3};

double vector(const Fermion &F) { return F.T3 - 2 * F.Q * SW2; }
double axial(const Fermion &F) { return F.T3; }

enum Helicity { L = 0, R = 1 };

/// The chiral coupling c_L = v + a, c_R = v - a.
double chiral(const Fermion &F, Helicity H) {
  return H == L ? vector(F) + axial(F) : vector(F) - axial(F);
}

/// chi(s) = k s / (s - mz^2 + i mz gz).
Complex zPropagator(double S) {
  const double K = sqrt(2.0) * GF * MZ * MZ / (4 * Pi * Alpha);
  return divide({K * S, 0}, {S - MZ * MZ, MZ * GZ});
}

//===-- Helicity amplitudes -------------------------------------------------===//

/// The event rotated by one radian about x (see the spinor products).
Kinematics rotated(const Kinematics &K) {
  const double C = cos(1.0), S = sin(1.0);
  Kinematics R;
  for (int I = 0; I < 4; ++I) {
    const FourVector &P = K.P[I];
    R.P[I] = {P.E, P.X, C * P.Y - S * P.Z, S * P.Y + C * P.Z};
  }
  return R;
}

/// The spinor structure S(h, h'): the helicity of the fermion line decides
/// which pair of momenta the currents join.
Complex spinorStructure(const Kinematics &Event, Helicity In, Helicity Out) {
  const Kinematics K = rotated(Event);
  const FourVector &P1 = K.P[0], &P2 = K.P[1], &P3 = K.P[2], &P4 = K.P[3];
  if (In == Out)
    return In == L ? angle(P2, P3) * square(P1, P4)
                   : square(P2, P3) * angle(P1, P4);
  return In == L ? angle(P2, P4) * square(P1, P3)
                 : square(P2, P4) * angle(P1, P3);
}

/// |S(h, h')|^2 from the invariants (u^2 or t^2), for the squared sum.
double spinorNorm(const Kinematics &K, Helicity In, Helicity Out) {
  const FourVector &P1 = K.P[0], &P2 = K.P[1], &P3 = K.P[2], &P4 = K.P[3];
  return In == Out ? angleNorm(P2, P3) * angleNorm(P1, P4)
                   : angleNorm(P2, P4) * angleNorm(P1, P3);
}

/// The reduced amplitude Q_i Q_f + c_h^i c_h'^f chi(s), which multiplies
/// 2 e^2 S(h, h') / s.
Complex reducedAmplitude(const Fermion &In, const Fermion &Out, Helicity HIn,
                         Helicity HOut, Complex Chi) {
  const double Photon = In.Q * Out.Q;
  const double Z = chiral(In, HIn) * chiral(Out, HOut);
  return Complex{Photon, 0} + Z * Chi;
}

/// The full amplitude M(h, h') (its phase is the spinor structure's).
Complex amplitude(const Kinematics &K, const Fermion &In, const Fermion &Out,
                  Helicity HIn, Helicity HOut) {
  const double S = 2 * dot(K.P[0], K.P[1]);
  const double E2 = 4 * Pi * Alpha;
  const Complex A = reducedAmplitude(In, Out, HIn, HOut, zPropagator(S));
  return (2 * E2 / S) * (A * spinorStructure(K, HIn, HOut));
}

/// |M|^2 summed over helicities, averaged over the initial ones and the
/// initial colours. |M(h, h')|^2 is taken as |A|^2 |S|^2 (4 e^4 / s^2),
/// with |S|^2 from the invariants: the same number as |amplitude()|^2 up
/// to rounding, without the spinor phases' cancellations.
double averagedSquare(const Kinematics &K, const Fermion &In,
                      const Fermion &Out) {
  const double S = 2 * dot(K.P[0], K.P[1]);
  const double E2 = 4 * Pi * Alpha;
  const Complex Chi = zPropagator(S);
  double Sum = 0;
  for (int HIn = L; HIn <= R; ++HIn)
    for (int HOut = L; HOut <= R; ++HOut) {
      const Complex A = reducedAmplitude(In, Out, Helicity(HIn),
                                         Helicity(HOut), Chi);
      Sum += norm(A) * spinorNorm(K, Helicity(HIn), Helicity(HOut));
    }
  const double Couplings = 4 * E2 * E2 / (S * S);
  return Couplings * Sum / 4 / In.Colours;
}

/// dsigma/dcos(theta) in pb.
double dsigma(const Kinematics &K, const Fermion &In, const Fermion &Out) {
  const double S = 2 * dot(K.P[0], K.P[1]);
  return GeV2pb * averagedSquare(K, In, Out) / (32 * Pi * S);
}

/// The angle between the outgoing fermion and the beam, as the .vf
/// examples compute it (std/phasespace's costheta).
double cosTheta(const FourVector &P) {
  return P.Z / sqrt(P.X * P.X + P.Y * P.Y + P.Z * P.Z);
}

/// The bin of examples/physics/ee_mumu.vf's 'bins': ten of width 0.18 over
/// |cos(theta)| < 0.9, or -1.
int binOf(double C) {
  for (int K = 0; K < 10; ++K)
    if (C >= -0.9 + 0.18 * K && C < -0.9 + 0.18 * (K + 1))
      return K;
  return -1;
}

} // namespace

//===-- Integrands (VF_INTEGRAND) on [0, 1]^2: x = (u, v) of the angles ----===//
//
// integral du dv of 2 dsigma/dc = sigma: c = 2u - 1 has dc = 2 du.

VF_INTEGRAND(sigma, 2, 1, "rs = 91.19") {
  const Kinematics K = collide(params[0], x[0], x[1]);
  out[0] = 2 * dsigma(K, Electron, Muon);
}

VF_INTEGRAND(bins, 2, 10, "rs = 91.19") {
  const Kinematics K = collide(params[0], x[0], x[1]);
  const double W = 2 * dsigma(K, Electron, Muon);
  const int B = binOf(cosTheta(K.P[2]));
  for (int I = 0; I < 10; ++I)
    out[I] = I == B ? W : 0;
}

VF_INTEGRAND(uubar_ll, 2, 1, "rs = 91.19") {
  const Kinematics K = collide(params[0], x[0], x[1]);
  out[0] = 2 * dsigma(K, Up, Muon);
}

VF_INTEGRAND(ddbar_ll, 2, 1, "rs = 91.19") {
  const Kinematics K = collide(params[0], x[0], x[1]);
  out[0] = 2 * dsigma(K, Down, Muon);
}

/// The same cross section from the complex helicity amplitudes themselves
/// (their squares summed), which checks the spinor products against the
/// invariants; the test compares it with 'sigma'.
VF_INTEGRAND(sigma_spinors, 2, 1, "rs = 91.19") {
  const Kinematics K = collide(params[0], x[0], x[1]);
  double Sum = 0;
  for (int HIn = L; HIn <= R; ++HIn)
    for (int HOut = L; HOut <= R; ++HOut)
      Sum += norm(amplitude(K, Electron, Muon, Helicity(HIn), Helicity(HOut)));
  const double S = 2 * dot(K.P[0], K.P[1]);
  out[0] = 2 * GeV2pb * (Sum / 4) / (32 * Pi * S);
}

//===-- Functions a .vf file calls (VF_FUNCTION) ----------------------------===//
//
// p holds four momenta (E, px, py, pz): the incoming fermion, the incoming
// antifermion, the outgoing fermion, the outgoing antifermion. out[0] is
// the averaged |M|^2 (GeV^0), as ee_mumu_extern.vf declares:
//   extern "ee_ll.cpp" fn msq_ee(p: [16]) -> [1]

static Kinematics fromMomenta(const double *P) {
  Kinematics K;
  for (int I = 0; I < 4; ++I)
    K.P[I] = fourVector(P + 4 * I);
  return K;
}

VF_FUNCTION void msq_ee(const double *p, double *out) {
  out[0] = averagedSquare(fromMomenta(p), Electron, Muon);
}

/// q qbar -> l+ l- for the quark of charge q (2/3: up-type, -1/3:
/// down-type), colour-averaged.
VF_FUNCTION double msq_qq(const double *p, double q) {
  return averagedSquare(fromMomenta(p), q > 0 ? Up : Down, Muon);
}
