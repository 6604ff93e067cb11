//===- Processes.cpp - e+e- -> mu+mu- and q qbar -> l+l- as classes -------===//
//
// The diagrams, with the external spinors as HelAmps.h numbers them:
//
//   f(p1) fbar(p2) -> gamma*/Z (q = p1 + p2) -> l-(p3) l+(p4)
//
//   M = sum over V = gamma, Z of
//       [vbar(p2) gamma^mu (cL P_L + cR P_R) u(p1)] / (q^2 - MV^2 + i MV WV)
//       [ubar(p3) gamma_mu (cL' P_L + cR' P_R) v(p4)]
//
// evaluated numerically for each of the 2^4 helicity configurations, as
// generated code does (only the four that conserve helicity along each
// fermion line are non-zero for massless fermions; the loop does not
// assume it).
//
//===----------------------------------------------------------------------===//

#include "Processes.h"

#include <cmath>
#include <stdexcept>

namespace vfexample {

namespace {

constexpr int NComb = 16;

/// Every helicity configuration of the four fermions.
constexpr int HelicityTable[NComb][NeutralCurrentProcess::nexternal] = {
    {-1, -1, -1, -1}, {-1, -1, -1, 1}, {-1, -1, 1, -1}, {-1, -1, 1, 1},
    {-1, 1, -1, -1},  {-1, 1, -1, 1},  {-1, 1, 1, -1},  {-1, 1, 1, 1},
    {1, -1, -1, -1},  {1, -1, -1, 1},  {1, -1, 1, -1},  {1, -1, 1, 1},
    {1, 1, -1, -1},   {1, 1, -1, 1},   {1, 1, 1, -1},   {1, 1, 1, 1}};

/// Two helicity states per initial fermion.
constexpr double InitialHelicityStates = 4;

} // namespace

NeutralCurrentProcess::NeutralCurrentProcess(InitialFermion Initial,
                                             std::string Name)
    : Initial(Initial), Name(std::move(Name)), Momenta(4 * nexternal),
      Wavefunctions(nexternal), Bosons(2), Amplitudes(2),
      MatrixElements(nprocesses) {}

void NeutralCurrentProcess::initProc(const std::string &ParamCard) {
  Pars.setIndependentParameters(SlhaReader::fromFile(ParamCard));
  switch (Initial) {
  case InitialFermion::ChargedLepton:
    In = Pars.ChargedLepton;
    break;
  case InitialFermion::UpQuark:
    In = Pars.UpQuark;
    break;
  case InitialFermion::DownQuark:
    In = Pars.DownQuark;
    break;
  }
  Out = Pars.ChargedLepton;
  Initialised = true;
}

void NeutralCurrentProcess::setMomenta(std::vector<double *> &P) {
  if (P.size() != nexternal)
    throw std::invalid_argument(Name + ": setMomenta needs " +
                                std::to_string(nexternal) + " momenta, got " +
                                std::to_string(P.size()));
  for (int Particle = 0; Particle < nexternal; ++Particle)
    for (int Mu = 0; Mu < 4; ++Mu)
      Momenta[4 * Particle + Mu] = P[Particle][Mu];
}

void NeutralCurrentProcess::sigmaKin() {
  if (!Initialised)
    throw std::logic_error(Name + ": sigmaKin before initProc");
  MatrixElements[0] = matrix();
}

void NeutralCurrentProcess::calculateWavefunctions(const int *Helicities) {
  Wavefunctions[0] = fermionSpinor(momentum(0), Helicities[0]);
  Wavefunctions[1] = antifermionSpinor(momentum(1), Helicities[1]);
  Wavefunctions[2] = fermionSpinor(momentum(2), Helicities[2]);
  Wavefunctions[3] = antifermionSpinor(momentum(3), Helicities[3]);

  double Q[4];
  for (int Mu = 0; Mu < 4; ++Mu)
    Q[Mu] = momentum(0)[Mu] + momentum(1)[Mu];
  const double Q2 = Q[0] * Q[0] - Q[1] * Q[1] - Q[2] * Q[2] - Q[3] * Q[3];

  // The initial pair makes the boson; the final pair closes the diagram.
  Bosons[0] =
      offShellVector(Wavefunctions[1], Wavefunctions[0], In.Photon, Q2, 0, 0);
  Bosons[1] = offShellVector(Wavefunctions[1], Wavefunctions[0], In.Z, Q2,
                             Pars.MZ, Pars.WZ);
  Amplitudes[0] = vertexAmplitude(Wavefunctions[2], Wavefunctions[3], Bosons[0],
                                  Out.Photon);
  Amplitudes[1] =
      vertexAmplitude(Wavefunctions[2], Wavefunctions[3], Bosons[1], Out.Z);
}

double NeutralCurrentProcess::matrix() {
  double Sum = 0;
  for (const auto &Helicities : HelicityTable) {
    calculateWavefunctions(Helicities);
    Sum += std::norm(Amplitudes[0] + Amplitudes[1]);
  }
  // A colour-singlet boson joins a quark and an antiquark of the same
  // colour: 3 of the 9 colour states contribute, each with weight 1.
  const double ColourAverage =
      Initial == InitialFermion::ChargedLepton ? 1 : 1.0 / 3;
  return Sum * ColourAverage / InitialHelicityStates;
}

EeMuMuProcess::EeMuMuProcess()
    : NeutralCurrentProcess(InitialFermion::ChargedLepton, "e- e+ > mu- mu+") {}

QqbarLLProcess::QqbarLLProcess(Quark Q)
    : NeutralCurrentProcess(Q == Quark::Up ? InitialFermion::UpQuark
                                           : InitialFermion::DownQuark,
                            Q == Quark::Up ? "u u~ > l- l+" : "d d~ > l- l+") {}

} // namespace vfexample
