//===- frontend/HistRanges.h - Binnable histogram ranges --------*- C++ -*-===//
//
// A histogram's range may be made of parameters: for given values the
// compiled code computes it (backends/IntegrandBounds.h), and it must be
// binnable (hi > lo, both finite, and a width hi - lo that does not
// overflow, since the bins are computed from it) before an iteration or
// --eval bins a sample.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_HISTRANGES_H
#define VF_COMPILER_FRONTEND_HISTRANGES_H

#include "frontend/Program.h"

#include <string>

namespace vf {

/// "file:line:col" of \p Loc, for errors found after compiling.
std::string sourcePlace(const Program &P, llvm::SMLoc Loc);

/// "" when [\p Lo, \p Hi] can be binned; otherwise why not, for histogram
/// \p Name whose statement is at \p Place ("file:line:col").
std::string histRangeError(const std::string &Place, const std::string &Name,
                           double Lo, double Hi);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_HISTRANGES_H
