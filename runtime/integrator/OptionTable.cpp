//===- integrator/OptionTable.cpp - The run options as data ---------------===//
//
// vf/Options.def expanded into the table every door reads (vf/Options.h),
// and the range each row states, checked and said the one way.
//
//===----------------------------------------------------------------------===//

#include "vf/Options.h"

#include <cmath>
#include <cstdio>
#include <limits>

namespace vf {

namespace {

#define VF_NO_BOUND std::numeric_limits<double>::infinity()
constexpr OptionInfo Table[] = {
#define VF_OPTION(ID, NAME, TYPE, LO, HI, DEFAULT, UNIT, FLAG, TOML, PYTHON,   \
                  JSON, DESCRIPTION)                                           \
  {NAME, TYPE, LO, HI, DEFAULT, UNIT, FLAG, TOML, PYTHON, JSON, DESCRIPTION},
#include "vf/Options.def"
};
#undef VF_NO_BOUND

/// \p V as the range of an option says it: 1e18 rather than its 19 digits,
/// 100000 and 4294967295 as they are, 1.5 in the fewest digits.
std::string boundText(double V) {
  const double Exponent = std::log10(V);
  if (V >= 1e7 && Exponent == std::floor(Exponent))
    return "1e" + std::to_string(int(Exponent));
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.15g", V);
  return Buf;
}

} // namespace

std::span<const OptionInfo> optionTable() { return Table; }

const OptionInfo &optionInfo(OptionId Id) { return Table[unsigned(Id)]; }

const OptionInfo *findOption(std::string_view Name) {
  for (const OptionInfo &O : Table)
    if (O.Name == Name)
      return &O;
  return nullptr;
}

bool inRange(OptionId Id, double V) {
  const OptionInfo &O = optionInfo(Id);
  return V >= O.Lo && V <= O.Hi;
}

std::string rangeText(OptionId Id) {
  const OptionInfo &O = optionInfo(Id);
  if (O.Lo == O.Hi)
    return "";
  if (std::isinf(O.Hi))
    return ">= " + boundText(O.Lo);
  return boundText(O.Lo) + " to " + boundText(O.Hi);
}

} // namespace vf
