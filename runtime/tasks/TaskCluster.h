//===- tasks/TaskCluster.h - One iteration as independent tasks -*- C++ -*-===//
//
// The task engines' side of vf::Cluster. The integrator already shares an
// iteration among ranks by TrainingSums groups and exchanges what each
// computed (RankExchange.cpp); a task is a rank that lives for one
// iteration's exchanges, one per pass (one per channel of a multi-channel
// integrand, each pass with its own groups):
//   - a part task is rank 1 of 2 that only sends (sendsOnly): in each pass
//     it claims its range of groups, runs it on its devices, and its
//     packet is the part's pass; it goes on to the next pass without the
//     other parts, and after the last the run stops with Stopped, its
//     other arrays incomplete;
//   - the merge task is rank 0 of 1 + parts: it claims nothing and
//     receives every part's packet of a pass as the other ranks' packets,
//     so the iteration completes exactly as on one process, bit for bit
//     (every sum is in tile or group order, whoever computed it).
// A second iteration stops either task (Stopped): one iteration per task.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_TASKS_TASKCLUSTER_H
#define VF_RUNTIME_TASKS_TASKCLUSTER_H

#include "tasks/PartFile.h"

#include "vf/Cluster.h"

#include <chrono>
#include <functional>
#include <memory>

namespace vf {

class TaskCluster : public Cluster {
public:
  /// The groups [Begin, End) of \p Groups a part computes.
  using RangeOf = std::function<Expected<Range>(std::uint64_t Groups)>;
  /// A part task computing \p Which's range of each of \p Passes passes
  /// for the state \p StateHash.
  static std::shared_ptr<TaskCluster>
  forPart(RangeOf Which, std::uint64_t StateHash, std::size_t Passes);
  /// The merge task of the parts of each pass (partsByPass).
  static std::shared_ptr<TaskCluster>
  forMerge(std::vector<std::vector<Part>> PartsByPass);

  /// The message of the error that ends a task's run after its iteration.
  static const char *stoppedMessage();
  /// The part's passes (a part task whose run stopped at its last
  /// exchange).
  const std::vector<Part> *part() const { return Done ? &Out : nullptr; }

  int rank() const override { return Merging ? 0 : 1; }
  int size() const override { return Merging ? 1 + int(current().size()) : 2; }
  bool sendsOnly() const override { return !Merging; }
  int localRank() const override { return 0; }
  int localSize() const override { return 1; }
  Status startClaims(std::uint64_t Total) override;
  Expected<Range> claim(std::uint64_t Want) override;
  Expected<std::uint64_t> claimed() override;
  Status orAll(std::uint64_t *, std::size_t) override { return Status::ok(); }
  Status gatherWords(const std::vector<std::uint64_t> &Words,
                     std::vector<std::uint64_t> &All,
                     std::vector<std::size_t> &Counts) override;
  Expected<std::vector<double>>
  gatherAll(const std::vector<double> &Values) override;
  [[noreturn]] void abort(int Code) override;
  std::string describeRank(int Rank) const override;

private:
  /// The parts the merge receives in the current pass.
  const std::vector<Part> &current() const { return Parts[Pass]; }

  bool Merging = false;
  RangeOf Which;
  std::vector<std::vector<Part>> Parts; ///< the merge's, per pass
  std::vector<Part> Out;                ///< the part's, per pass
  /// The passes begun; the current one is Pass = Begun - 1.
  std::size_t Begun = 0, Pass = 0;
  bool Claimed = false, Done = false;
  std::uint64_t Groups = 0;
  std::chrono::steady_clock::time_point T0;
};

} // namespace vf

#endif // VF_RUNTIME_TASKS_TASKCLUSTER_H
