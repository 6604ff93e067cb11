//===- tasks/PartSplit.h - Which groups a part computes ---------*- C++ -*-===//
//
// A part is a contiguous range of an iteration's TrainingSums groups; the
// drivers cut the groups into N parts, equal or in proportion to weights
// (each worker's measured throughput), so that slow and fast workers
// finish together. Every part task computes its own range from the same
// N and weights, so the ranges tile [0, Groups) without talking to each
// other; which cut is chosen never changes the result (each group's sums
// are the same whoever computes them).
//
// A group cannot be shared by two parts: its partial is a sum of its
// tiles in tile order from zero, which two half-groups added together
// would not reproduce bit for bit. So an iteration has at most Groups
// parts (TrainingSums::groupCount: at most 64, fewer for few tiles or
// large histograms), and asking for more is an error saying so.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_TASKS_PARTSPLIT_H
#define VF_RUNTIME_TASKS_PARTSPLIT_H

#include "vf/Cluster.h"

#include <cstdint>
#include <vector>

namespace vf {

/// Part \p Index of \p Count of an iteration of \p Groups groups: equal
/// ranges when \p Weights is empty, otherwise ranges in proportion to the
/// Count positive, finite weights, each at least one group.
Expected<Cluster::Range> partRange(std::uint64_t Groups, std::uint64_t Index,
                                   std::uint64_t Count,
                                   const std::vector<double> &Weights);

} // namespace vf

#endif // VF_RUNTIME_TASKS_PARTSPLIT_H
