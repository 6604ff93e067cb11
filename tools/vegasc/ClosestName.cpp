//===- vegasc/ClosestName.cpp - The name a typo was meant to be -----------===//
//
// Levenshtein distance by one row of the dynamic programme; names are
// short (keys, parameters), so no bound is needed to keep it cheap.
//
//===----------------------------------------------------------------------===//

#include "vegasc/ClosestName.h"

#include <algorithm>
#include <numeric>
#include <vector>

namespace vf {

namespace {

/// Insertions, deletions and replacements that turn \p A into \p B.
std::size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<std::size_t> Row(B.size() + 1);
  std::iota(Row.begin(), Row.end(), std::size_t(0));
  for (std::size_t I = 1; I <= A.size(); ++I) {
    std::size_t Diagonal = Row[0];
    Row[0] = I;
    for (std::size_t J = 1; J <= B.size(); ++J) {
      const std::size_t Above = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1,
                         Diagonal + (A[I - 1] == B[J - 1] ? 0 : 1)});
      Diagonal = Above;
    }
  }
  return Row[B.size()];
}

/// True when \p A becomes \p B by swapping two adjacent characters, the
/// commonest typo ("alpah"), which plain edit distance counts as two edits.
bool isAdjacentSwap(std::string_view A, std::string_view B) {
  if (A.size() != B.size())
    return false;
  std::size_t K = 0;
  while (K < A.size() && A[K] == B[K])
    ++K;
  return K + 1 < A.size() && A[K] == B[K + 1] && A[K + 1] == B[K] &&
         A.substr(K + 2) == B.substr(K + 2);
}

} // namespace

std::string_view closestName(std::string_view Name,
                             std::span<const std::string_view> Candidates) {
  // A typo is at most a third of the name away (and at least one edit);
  // beyond that a suggestion is noise.
  std::size_t Best = std::max<std::size_t>(1, Name.size() / 3) + 1;
  std::string_view BestName;
  for (std::string_view C : Candidates) {
    if (C == Name)
      continue;
    const std::size_t D = isAdjacentSwap(Name, C) ? 1 : editDistance(Name, C);
    if (D < Best) {
      Best = D;
      BestName = C;
    }
  }
  return BestName;
}

} // namespace vf
