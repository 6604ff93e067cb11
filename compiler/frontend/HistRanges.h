//===- frontend/HistRanges.h - Histogram ranges for parameter values -*- C++
//-*-===//
//
// A histogram's range may be made of parameters: for given values it is
// evaluated, and checked to be binnable (hi > lo, both finite, and a width
// hi - lo that does not overflow, since the bins are computed from it),
// by the runtime's binding before each iteration and by --eval alike.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_HISTRANGES_H
#define VF_COMPILER_FRONTEND_HISTRANGES_H

#include "frontend/Program.h"

#include "llvm/ADT/ArrayRef.h"

#include <string>
#include <vector>

namespace vf {

/// "file:line:col" of \p Loc, for errors found after compiling.
std::string sourcePlace(const Program &P, llvm::SMLoc Loc);

/// \p I's histogram ranges for \p Params (lo and hi of each axis, histogram
/// after histogram) into \p Ranges; "" when all can be binned, otherwise
/// the error, at the statement's place.
std::string histogramRanges(const Program &P, const IntegrandDecl &I,
                            llvm::ArrayRef<double> Params,
                            std::vector<double> &Ranges);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_HISTRANGES_H
