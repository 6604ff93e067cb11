//===- Parameters.cpp - The model's parameters, read from a card ----------===//

#include "Parameters.h"

#include <cmath>

namespace vfexample {

void Parameters::setIndependentParameters(const SlhaReader &Card) {
  AEWM1 = Card.value("SMINPUTS", {1});
  GF = Card.value("SMINPUTS", {2});
  MZ = Card.value("MASS", {23});
  MW = Card.value("MASS", {24});
  WZ = Card.width(23);

  Alpha = 1 / AEWM1;
  EE = std::sqrt(4 * M_PI * Alpha);
  SW2 = 1 - MW * MW / (MZ * MZ);
  GZ = 2 * MZ * std::sqrt(std::sqrt(2.0) * GF);
  setIndependentCouplings();
}

void Parameters::setIndependentCouplings() {
  ChargedLepton = couplings(-1, -0.5);
  UpQuark = couplings(2.0 / 3, 0.5);
  DownQuark = couplings(-1.0 / 3, -0.5);
}

FermionCouplings Parameters::couplings(double Charge, double T3) const {
  return {{EE * Charge, EE * Charge},
          {GZ * (T3 - Charge * SW2), -GZ * Charge * SW2}};
}

} // namespace vfexample
