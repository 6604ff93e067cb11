//===- tasks/TaskCluster.cpp - One iteration as independent tasks ---------===//

#include "tasks/TaskCluster.h"

#include <cstdlib>

namespace vf {

std::shared_ptr<TaskCluster> TaskCluster::forPart(RangeOf Which,
                                                  std::uint64_t StateHash,
                                                  std::size_t Passes) {
  auto C = std::make_shared<TaskCluster>();
  C->Which = std::move(Which);
  C->Out.resize(Passes);
  for (Part &P : C->Out)
    P.StateHash = StateHash;
  return C;
}

std::shared_ptr<TaskCluster>
TaskCluster::forMerge(std::vector<std::vector<Part>> PartsByPass) {
  auto C = std::make_shared<TaskCluster>();
  C->Merging = true;
  C->Parts = std::move(PartsByPass);
  return C;
}

const char *TaskCluster::stoppedMessage() {
  return "the task's iteration is done";
}

Status TaskCluster::startClaims(std::uint64_t Total) {
  const std::size_t Passes = Merging ? Parts.size() : Out.size();
  if (Begun == Passes)
    return Error{stoppedMessage()};
  Pass = Begun++;
  Claimed = false;
  Groups = Total;
  T0 = std::chrono::steady_clock::now();
  if (Merging) {
    if (current().front().Groups != Total)
      return Error{"the parts cut pass " + std::to_string(Pass) +
                   " of the iteration into " +
                   std::to_string(current().front().Groups) +
                   " groups, the state's next iteration has " +
                   std::to_string(Total) + " (parts of another state?)"};
    return Status::ok();
  }
  Expected<Range> R = Which(Total);
  if (!R)
    return R.error();
  Out[Pass].Groups = Total;
  Out[Pass].Begin = R->Begin;
  Out[Pass].End = R->End;
  return Status::ok();
}

Expected<Cluster::Range> TaskCluster::claim(std::uint64_t) {
  if (Merging || Claimed)
    return Range{};
  Claimed = true;
  return Range{Out[Pass].Begin, Out[Pass].End};
}

Expected<std::uint64_t> TaskCluster::claimed() {
  return Merging || Claimed ? Groups : 0;
}

Status TaskCluster::gatherWords(const std::vector<std::uint64_t> &Words,
                                std::vector<std::uint64_t> &All,
                                std::vector<std::size_t> &Counts) {
  if (!Merging) {
    Out[Pass].Words = Words;
    Out[Pass].BusySeconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - T0)
            .count();
    if (Begun < Out.size())
      return Status::ok(); // on to the next pass (sendsOnly)
    Done = true;
    return Error{stoppedMessage()};
  }
  All = Words;
  Counts.assign(1, Words.size());
  for (const Part &P : current()) {
    All.insert(All.end(), P.Words.begin(), P.Words.end());
    Counts.push_back(P.Words.size());
  }
  return Status::ok();
}

Expected<std::vector<double>>
TaskCluster::gatherAll(const std::vector<double> &Values) {
  // Rows of (samples, busy, idle): the parts' busy time, as measured there.
  std::vector<double> All = Values;
  for (const Part &P : current())
    All.insert(All.end(), {0.0, P.BusySeconds, 0.0});
  All.resize(std::size_t(size()) * Values.size(), 0.0);
  return All;
}

void TaskCluster::abort(int Code) { std::_Exit(Code); }

std::string TaskCluster::describeRank(int Rank) const {
  // Rank R >= 1 of a merge is current()[R - 1] (gatherWords' order).
  if (Merging && Rank >= 1 && std::size_t(Rank) <= current().size())
    return "part '" + current()[std::size_t(Rank) - 1].Origin + "'";
  return Cluster::describeRank(Rank);
}

} // namespace vf
