//===- tests/unit/runtime/integrator/RunStateTest.cpp - Where a run stands ===//
//
// RunState on its own, without an integrand or a device: add() keeps the
// device totals by name and the counters that a checkpoint's invariants
// compare (StateChecks.cpp), startFreshStatistics() keeps what trains the
// next run, and save() then load() gives back a state that saves to the
// same bytes, its combined average bit for bit.
//
//===----------------------------------------------------------------------===//
#include "integrator/RunState.h"

#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <vector>

using vf::CheckpointState;
using vf::DeviceStats;
using vf::IterationRow;
using vf::RunState;

namespace {

/// A row as an iteration hands it to the loop (Iteration::run).
IterationRow row(unsigned Index, bool Warmup, std::vector<DeviceStats> D) {
  IterationRow R;
  R.Index = Index;
  R.Warmup = Warmup;
  R.Samples = 1000;
  R.Seconds = 0.25;
  R.Devices = std::move(D);
  return R;
}

/// A two-output state of two dimensions: a map, an allocation, one
/// warm-up and two measured iterations.
RunState trainedState() {
  RunState S(2, 2, 0);
  S.Map = std::make_unique<vf::AdaptiveMap>(2, 8);
  S.Str = std::make_unique<vf::Strata>(2, 1000);
  S.Plan = vf::RunPlan{2, 1000, 1, 0};
  S.Iteration = 3;
  S.NextEvent = 7;
  const std::vector<double> Cov{0.04, 0.01, 0.01, 0.09};
  S.add(row(1, true, {}), std::vector<double>{1.5, 2.5}, Cov);
  S.add(row(2, false, {}), std::vector<double>{1.1, 2.1}, Cov);
  S.add(row(3, false, {}), std::vector<double>{0.9, 1.9}, Cov);
  return S;
}

/// The identity a checkpoint carries around the run state (State.cpp).
CheckpointState saved(const RunState &S) {
  CheckpointState C;
  C.Name = "f";
  C.Dim = 2;
  C.Outputs = 2;
  S.save(C);
  return C;
}

TEST(RunStateTest, AddKeepsDeviceTotalsByNameAndTheCounters) {
  RunState S(1, 1, 0);
  S.Plan = vf::RunPlan{2, 1000, 0, 0};
  const std::vector<double> Mean{1.0}, Cov{0.01};
  S.add(row(1, false,
            {{"cpu:0", "cpu", 600, 3, 0.1, 0.0, ""},
             {"sim:0", "sim", 400, 2, 0.1, 0.0, "it broke"}}),
        Mean, Cov);
  S.add(row(2, false, {{"cpu:0", "cpu", 1000, 5, 0.2, 0.0, ""}}), Mean, Cov);
  ASSERT_EQ(S.Devices.size(), 2u);
  EXPECT_EQ(S.Devices[0].Samples, 1600u);
  EXPECT_EQ(S.Devices[0].Chunks, 8u);
  EXPECT_EQ(S.Devices[1].Error, "it broke");
  EXPECT_EQ(S.Evaluations, 2000u);
  EXPECT_EQ(S.Wall, 0.5);
  EXPECT_EQ(S.Plan.Done, 2u);
  ASSERT_EQ(S.Rows.size(), 2u);
  // Each row's error holds the round-off floor, its covariance too, as a
  // checkpoint's invariants require.
  EXPECT_EQ(S.Rows[1].Error[0], std::sqrt(S.Covs[1][0]));
}

TEST(RunStateTest, StartFreshStatisticsKeepsTheMapAndTheStreams) {
  RunState S = trainedState();
  const std::vector<double> Edges(S.Map->edges().begin(), S.Map->edges().end());
  S.startFreshStatistics();
  EXPECT_TRUE(S.Rows.empty());
  EXPECT_TRUE(S.Covs.empty());
  EXPECT_EQ(S.Evaluations, 0u);
  EXPECT_EQ(S.Wall, 0.0);
  EXPECT_EQ(std::vector<double>(S.Map->edges().begin(), S.Map->edges().end()),
            Edges);
  EXPECT_EQ(S.Iteration, 3u);
  EXPECT_EQ(S.NextEvent, 7u);
}

TEST(RunStateTest, SaveLoadSaveIsIdentical) {
  const RunState S = trainedState();
  const CheckpointState First = saved(S);
  RunState Loaded(2, 2, 0);
  ASSERT_TRUE(Loaded.load(First, vf::IntegratorOptions{}));
  EXPECT_EQ(vf::encodeCheckpoint(saved(Loaded)), vf::encodeCheckpoint(First));
  // The average is rebuilt from the rows: the same bits, not near them.
  EXPECT_EQ(Loaded.Average->mean(), S.Average->mean());
  EXPECT_EQ(Loaded.Average->cov(), S.Average->cov());
  EXPECT_EQ(Loaded.Average->chi2dof(), S.Average->chi2dof());
}

TEST(RunStateTest, LoadRefusesAnAllocationForOtherCalls) {
  CheckpointState C = saved(trainedState());
  C.StrataNeval = 10;
  RunState S(2, 2, 0);
  vf::Status Loaded = S.load(C, vf::IntegratorOptions{});
  ASSERT_FALSE(Loaded);
  EXPECT_NE(Loaded.message().find("does not fit 10 calls"), std::string::npos);
}

} // namespace
