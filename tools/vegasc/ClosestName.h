//===- vegasc/ClosestName.h - The name a typo was meant to be ---*- C++ -*-===//
//
// A misspelt key, parameter or schedule in a batch file is answered with
// "did you mean 'X'?": the known name fewest edits away, when that is few
// enough to be a plausible typo, by the same rule as the compiler's own
// suggestions.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_CLOSESTNAME_H
#define VF_TOOLS_VEGASC_CLOSESTNAME_H

#include <span>
#include <string_view>

namespace vf {

/// The candidate closest to \p Name by edit distance (an adjacent swap
/// counting as one edit), or "" when none is within a third of the name.
std::string_view closestName(std::string_view Name,
                             std::span<const std::string_view> Candidates);

} // namespace vf

#endif // VF_TOOLS_VEGASC_CLOSESTNAME_H
