//===- frontend/HistRanges.cpp - Binnable histogram ranges ----------------===//

#include "frontend/HistRanges.h"

#include "frontend/ASTDump.h"

#include <cmath>

using namespace llvm;

namespace vf {

std::string sourcePlace(const Program &P, SMLoc Loc) {
  auto [Line, Col] = P.SM.getLineAndColumn(Loc);
  unsigned Buf = P.SM.FindBufferContainingLoc(Loc);
  std::string File =
      Buf ? P.SM.getMemoryBuffer(Buf)->getBufferIdentifier().str()
          : std::string("<input>");
  return File + ":" + std::to_string(Line) + ":" + std::to_string(Col);
}

std::string histRangeError(const std::string &Place, const std::string &Name,
                           double Lo, double Hi) {
  const std::string Range = Place + ": the range [" + formatNumber(Lo) + ", " +
                            formatNumber(Hi) + "] of histogram '" + Name +
                            "' is ";
  if (!(Hi > Lo) || !std::isfinite(Lo) || !std::isfinite(Hi))
    return Range + "empty or not finite with the current parameter "
                   "values; its upper bound must exceed its lower bound";
  if (!std::isfinite(Hi - Lo)) // the bins are computed from hi - lo
    return Range + "wider than the largest double with the current "
                   "parameter values (hi - lo overflows); narrow it";
  return "";
}

} // namespace vf
