//===- runtime/pdf/ErrorType.cpp - A set's error members ------------------===//
//
// The formulas are G. Watt's (JHEP 1109 (2011) 069, arXiv:1106.5788) as
// LHAPDF 6.5 applies them; the levels convert through the chi-squared
// quantile of one degree of freedom, which is z^2 (z the half-width of
// the central interval of a standard normal).
//
//===----------------------------------------------------------------------===//

#include "pdf/ErrorType.h"

#include <algorithm>
#include <cmath>

namespace vf::pdf {

double standardNormalHalfWidth(double Level) {
  // erf(z / sqrt 2) rises from 0 to 1: bisect to the last bit.
  double Lo = 0, Hi = 40;
  for (int I = 0; I < 200 && Hi - Lo > 0; ++I) {
    double Mid = 0.5 * (Lo + Hi);
    if (Mid == Lo || Mid == Hi)
      break;
    (std::erf(Mid / std::sqrt(2.0)) < Level ? Lo : Hi) = Mid;
  }
  return 0.5 * (Lo + Hi);
}

/// The core type before the first '+', and the number of '+' parts.
static std::pair<std::string, unsigned> splitType(const std::string &Type) {
  auto Plus = Type.find('+');
  return {Type.substr(0, Plus),
          unsigned(std::count(Type.begin(), Type.end(), '+'))};
}

ErrorMembers errorMembers(const PdfSet &Set) {
  ErrorMembers E;
  const std::string Type = Set.info().textOr("ErrorType", "");
  const auto [Core, Parts] = splitType(Type);
  auto Refuse = [&](const std::string &Why) {
    E = ErrorMembers{};
    E.Why = Why;
    return E;
  };
  if (Core == "replicas")
    E.Band = WeightBand::Replicas;
  else if (Core == "hessian")
    E.Band = WeightBand::Hessian;
  else if (Core == "symmhessian")
    E.Band = WeightBand::SymmHessian;
  else
    return Refuse(Type.empty() ? "it declares no ErrorType"
                               : "its ErrorType '" + Type +
                                     "' is none of replicas, hessian, "
                                     "symmhessian");
  long Count = long(Set.numMembers()) - 1 - 2 * long(Parts);
  if (Count < (E.Band == WeightBand::Replicas ? 2 : 1))
    return Refuse("it has too few error members (" +
                  std::to_string(std::max(Count, 0L)) + ")");
  if (E.Band == WeightBand::Hessian && Count % 2)
    return Refuse("its " + std::to_string(Count) +
                  " Hessian members do not make pairs");
  E.Count = unsigned(Count);
  if (E.Band == WeightBand::Replicas || !Set.info().has("ErrorConfLevel"))
    return E;
  Expected<double> Level = Set.info().number("ErrorConfLevel");
  if (!Level || !(*Level > 0 && *Level < 100))
    return Refuse("its ErrorConfLevel is not a percentage in (0, 100) (" +
                  Set.info().where("ErrorConfLevel") + ")");
  E.Scale = 1 / standardNormalHalfWidth(*Level / 100);
  return E;
}

} // namespace vf::pdf
