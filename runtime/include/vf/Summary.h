//===- vf/Summary.h - A result as vegas's summary table ---------*- C++ -*-===//
//
// The per-iteration table vegas users read (vegas's result.summary()): each
// iteration's estimate and error, the cumulative estimate and error, and
// chi2/dof and Q of the measured iterations up to it; then the result, the
// round-off floor when it matters, and why the run stopped.
//
//===----------------------------------------------------------------------===//
#ifndef VF_SUMMARY_H
#define VF_SUMMARY_H

#include "vf/Result.h"

#include <string>

namespace vf {

/// \p R as the summary table (text ending in a newline). Warm-up rows are
/// marked "w" and have no cumulative columns; a vector integrand has one
/// line per component ("3[1]").
std::string summary(const Result &R);
/// A multi-channel integrand's channels (empty text without): each one's
/// weight now, samples over the run, and last iteration's integral, error
/// and share of the variance; part of summary().
std::string channelTable(const Result &R);

/// The line that says a result was computed in single precision
/// (docs/user-guide.md, "Precision"); empty in double.
std::string precisionLine(const Result &R);

} // namespace vf

#endif // VF_SUMMARY_H
