//===- tests/unit/runtime/tasks/TasksTest.cpp - The public task API -------===//
//
// vf/Tasks.h end to end on a native integrand: a run of three iterations
// (one warm-up) as parts, cut equally and by weights and merged in
// reverse order, is bitwise one integrator's run, and its states are
// checkpoints that integrator loads; damaged, truncated and foreign
// states and parts are errors naming them.
//
//===----------------------------------------------------------------------===//

#include "tasks/TaskCluster.h"

#include "vf/Native.h"
#include "vf/Tasks.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace vf;

namespace {

TaskRun productRun(std::uint64_t Seed = 7) {
  auto I = nativeIntegrand("product", 2, 1, {0, 0}, {1, 1},
                           [](std::span<const double> X, std::size_t N,
                              std::size_t D, std::span<double> Out) {
                             for (std::size_t K = 0; K < N; ++K)
                               Out[K] = X[K * D] * X[K * D + 1];
                           });
  EXPECT_TRUE(bool(I));
  TaskRun R;
  R.Integrand = *I;
  R.Options.Threads = 2;
  R.Options.Seed = Seed;
  R.Iterations = 2;
  R.Calls = 30000;
  R.Warmup = 1;
  return R;
}

/// Parts Count of \p State, each named "part K", last first.
std::vector<TaskBytes> parts(const TaskRun &R, const TaskBytes &State,
                             std::uint64_t Count,
                             std::vector<double> Weights = {}) {
  std::vector<TaskBytes> Out;
  for (std::uint64_t K = Count; K-- > 0;) {
    Expected<std::string> P = taskPart(R, State, partOf(K, Count, Weights));
    EXPECT_TRUE(bool(P)) << P.message();
    Out.push_back({P ? *P : "", "part " + std::to_string(K)});
  }
  return Out;
}

std::string messageOf(const Expected<TaskMerged> &M) {
  return M ? std::string() : M.message();
}

} // namespace

TEST(TasksTest, PartsMergeToOneIntegratorsRun) {
  TaskRun R = productRun();
  auto One = Integrator::create(R.Integrand, R.Options);
  ASSERT_TRUE(bool(One));
  Expected<Result> Alone = (*One)->run(R.Iterations, R.Calls, R.Warmup);
  ASSERT_TRUE(bool(Alone));

  Expected<std::string> Init = taskInit(R);
  ASSERT_TRUE(bool(Init)) << Init.message();
  TaskBytes State{*Init, "s0"};
  Expected<TaskProgress> P0 = taskProgress(R, State);
  ASSERT_TRUE(bool(P0));
  EXPECT_EQ(P0->Done, 0u);
  EXPECT_EQ(P0->Total, 0u);
  const std::vector<std::vector<double>> Cuts = {{}, {1, 3, 0.5}, {2, 1}};
  TaskProgress Last;
  for (std::size_t It = 0; It < Cuts.size(); ++It) {
    const std::uint64_t Count = Cuts[It].empty() ? 3 : Cuts[It].size();
    Expected<TaskMerged> M =
        taskMerge(R, State, parts(R, State, Count, Cuts[It]));
    ASSERT_TRUE(bool(M)) << M.message();
    State = {M->State, "s" + std::to_string(It + 1)};
    Last = M->Progress;
  }
  EXPECT_EQ(Last.Done, 3u);
  EXPECT_EQ(Last.Total, 3u);
  ASSERT_EQ(Last.SoFar.Iterations.size(), Alone->Iterations.size());
  for (std::size_t K = 0; K < Alone->Iterations.size(); ++K) {
    EXPECT_EQ(Last.SoFar.Iterations[K].Mean, Alone->Iterations[K].Mean);
    EXPECT_EQ(Last.SoFar.Iterations[K].Error, Alone->Iterations[K].Error);
  }
  EXPECT_EQ(Last.SoFar.Mean, Alone->Mean);
  EXPECT_EQ(Last.SoFar.Error, Alone->Error);
  EXPECT_EQ(Last.SoFar.Chi2Dof, Alone->Chi2Dof);
  // The last state is a finished run's checkpoint: no next iteration.
  Expected<std::string> After = taskPart(R, State, partOf(0, 1));
  ASSERT_FALSE(bool(After));
  EXPECT_NE(After.message().find("finished run"), std::string::npos);
}

TEST(TasksTest, BadStatesAndPartsAreNamedErrors) {
  TaskRun R = productRun();
  Expected<std::string> Init = taskInit(R);
  ASSERT_TRUE(bool(Init));
  const TaskBytes State{*Init, "s0"};
  auto partError = [&](const std::string &Bytes) {
    return taskPart(R, {Bytes, "bad"}, partOf(0, 2)).message();
  };
  EXPECT_NE(partError("hello").find("'bad' is not a vegasflow checkpoint"),
            std::string::npos);
  EXPECT_NE(partError(Init->substr(0, Init->size() - 1)).find("damaged"),
            std::string::npos);
  std::string Flipped = *Init;
  Flipped[20] ^= 1;
  EXPECT_NE(partError(Flipped).find("damaged"), std::string::npos);
  EXPECT_NE(partError(std::string(1 << 10, '\0')).find("not a vegasflow"),
            std::string::npos);

  std::vector<TaskBytes> Two = parts(R, State, 2);
  std::vector<TaskBytes> Damaged = Two;
  Damaged[0].Bytes[70] ^= 1;
  EXPECT_NE(messageOf(taskMerge(R, State, Damaged)).find("part 1"),
            std::string::npos);
  std::vector<TaskBytes> Short = {Two[0]};
  EXPECT_NE(messageOf(taskMerge(R, State, Short)).find("missing"),
            std::string::npos);
  EXPECT_NE(messageOf(taskMerge(R, State, {})).find("no parts"),
            std::string::npos);
  // Another seed: the state refuses the run, the parts the state.
  TaskRun Other = productRun(8);
  Expected<std::string> OtherInit = taskInit(Other);
  ASSERT_TRUE(bool(OtherInit));
  EXPECT_NE(taskPart(Other, State, partOf(0, 2)).message().find("seed"),
            std::string::npos);
  EXPECT_NE(messageOf(taskMerge(Other, {*OtherInit, "o0"}, Two))
                .find("another state"),
            std::string::npos);
  EXPECT_NE(taskPart(R, State, partOf(0, 65)).message().find("65 parts"),
            std::string::npos);
  TaskRun Ranked = R;
  Ranked.Options.Ranks = TaskCluster::forMerge({});
  EXPECT_FALSE(bool(taskInit(Ranked)));
}
