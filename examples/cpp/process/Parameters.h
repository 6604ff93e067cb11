//===- Parameters.h - The model's parameters, read from a card --*- C++ -*-===//
//
// The electroweak parameters of e+e- -> mu+mu- and q qbar -> gamma*/Z ->
// l+l-, in the shape of the Parameters_sm class of MadGraph's standalone
// output: the independent parameters are read from an SLHA card once,
// then the derived parameters and the couplings are computed from them
// once, and the process reads them as plain members.
//
// The scheme is that of examples/physics/ee_mumu.vf: alpha (at the Z
// scale) couples the photon, G_F and MZ the Z, and
// sin^2(theta_W) = 1 - MW^2/MZ^2 (the on-shell definition) enters the Z's
// vector couplings.
//
//===----------------------------------------------------------------------===//
#ifndef VF_EXAMPLES_PROCESS_PARAMETERS_H
#define VF_EXAMPLES_PROCESS_PARAMETERS_H

#include "HelAmps.h"
#include "SlhaReader.h"

namespace vfexample {

/// A fermion's couplings to the photon and the Z.
struct FermionCouplings {
  ChiralCoupling Photon, Z;
};

class Parameters {
public:
  /// Reads the independent parameters from Card (an error names the
  /// missing entry) and computes everything else.
  void setIndependentParameters(const SlhaReader &Card);

  // Independent parameters, from the card.
  double AEWM1 = 0; ///< 1/alpha: SMINPUTS 1
  double GF = 0;    ///< G_F in GeV^-2: SMINPUTS 2
  double MZ = 0;    ///< GeV: MASS 23
  double MW = 0;    ///< GeV: MASS 24
  double WZ = 0;    ///< the Z width in GeV: DECAY 23

  // Derived parameters.
  double Alpha = 0; ///< 1/AEWM1
  double EE = 0;    ///< the positron charge e = sqrt(4 pi alpha)
  double SW2 = 0;   ///< sin^2(theta_W) = 1 - MW^2/MZ^2
  /// g / cos(theta_W) = 2 MZ sqrt(sqrt(2) G_F), from
  /// G_F / sqrt(2) = g^2 / (8 MW^2) and MW = MZ cos(theta_W).
  double GZ = 0;

  // Couplings: e Q to the photon; to the Z, GZ (T3 - Q sin^2(theta_W)) for
  // the left-handed fermion and -GZ Q sin^2(theta_W) for the right-handed
  // one.
  FermionCouplings ChargedLepton, UpQuark, DownQuark;

private:
  void setIndependentCouplings();
  FermionCouplings couplings(double Charge, double T3) const;
};

} // namespace vfexample

#endif // VF_EXAMPLES_PROCESS_PARAMETERS_H
