//===- frontend/HistRanges.cpp - Histogram ranges for parameter values ----===//

#include "frontend/HistRanges.h"

#include "frontend/ASTDump.h"
#include "frontend/Evaluator.h"

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

std::string histogramRanges(const Program &P, const IntegrandDecl &I,
                            ArrayRef<double> Params,
                            std::vector<double> &Ranges) {
  Evaluator Ev(Params);
  Ranges.clear();
  for (const HistStmt *H : I.Histograms)
    for (unsigned A = 0; A < H->Axes; ++A) {
      const double L = Ev.eval(H->lo(A)), Hi = Ev.eval(H->hi(A));
      const std::string Range =
          sourcePlace(P, H->Range.Start) + ": the range [" + formatNumber(L) +
          ", " + formatNumber(Hi) + "] of histogram '" + H->Name + "' is ";
      if (!(Hi > L) || !std::isfinite(L) || !std::isfinite(Hi))
        return Range + "empty or not finite with the current parameter "
                       "values; its upper bound must exceed its lower bound";
      if (!std::isfinite(Hi - L)) // the bins are computed from hi - lo
        return Range + "wider than the largest double with the current "
                       "parameter values (hi - lo overflows); narrow it";
      Ranges.push_back(L);
      Ranges.push_back(Hi);
    }
  return "";
}

} // namespace vf
