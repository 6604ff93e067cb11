//===- tasks/PartSplit.cpp - Which groups a part computes -----------------===//

#include "tasks/PartSplit.h"

#include <algorithm>
#include <cmath>
#include <string>

namespace vf {

namespace {

/// The K-th cut of \p Groups in proportion to \p Weights' prefix sums,
/// rounded to the nearest group, leaving every part at least one group.
/// The same doubles in the same order on every task: the same cut.
std::uint64_t weightedCut(std::uint64_t Groups,
                          const std::vector<double> &Weights, std::size_t K,
                          double Total, std::uint64_t Previous) {
  if (K == Weights.size())
    return Groups;
  double Prefix = 0;
  for (std::size_t J = 0; J < K; ++J)
    Prefix += Weights[J];
  auto Cut = std::uint64_t(std::llround(double(Groups) * (Prefix / Total)));
  const std::uint64_t After = Weights.size() - K; // parts from K on
  return std::clamp<std::uint64_t>(Cut, Previous + 1, Groups - After);
}

} // namespace

Expected<Cluster::Range> partRange(std::uint64_t Groups, std::uint64_t Index,
                                   std::uint64_t Count,
                                   const std::vector<double> &Weights) {
  if (Count == 0 || Index >= Count)
    return Error{"part I of N needs 0 <= I < N"};
  if (Count > Groups)
    return Error{std::to_string(Count) + " parts, but the state's next "
                 "iteration has only " + std::to_string(Groups) +
                 " groups of tiles (a part holds at least one whole group; "
                 "an iteration has at most 64, fewer with few tiles or "
                 "large histograms): give at most " + std::to_string(Groups) +
                 " parts"};
  if (Weights.empty())
    return Cluster::Range{Index * Groups / Count, (Index + 1) * Groups / Count};
  if (Weights.size() != Count)
    return Error{std::to_string(Weights.size()) + " weights for " +
                 std::to_string(Count) + " parts (give one per part)"};
  double Total = 0;
  for (double W : Weights) {
    if (!(W > 0) || !std::isfinite(W))
      return Error{"a part's weight must be a positive finite number"};
    Total += W;
  }
  if (!std::isfinite(Total))
    return Error{"the parts' weights add up to more than a double holds"};
  // Cut K depends on cut K - 1 (at least one group each): walk to Index.
  std::uint64_t Begin = 0;
  for (std::size_t K = 1; K <= Index; ++K)
    Begin = weightedCut(Groups, Weights, K, Total, Begin);
  return Cluster::Range{
      Begin, weightedCut(Groups, Weights, Index + 1, Total, Begin)};
}

} // namespace vf
