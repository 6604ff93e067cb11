//===- tests/unit/runtime/integrator/CheckpointTest.cpp - Saved states ----===//
//
// Integrator::saveState/loadState and saveGrid/loadGrid
// (runtime/integrator/Checkpoint.h): a run interrupted after any iteration
// and resumed in a new integrator (with another thread count) ends bitwise
// where the uninterrupted run ends, for scalar and vector integrands; a
// saved state reloads and saves to the same bytes; states of another
// integrand, seed, alpha, beta or parameter value, damaged files and a
// resume with other run arguments are refused with messages naming the
// difference; a trained grid lowers the first iteration's error and a grid
// of another dimension is refused.
//
//===----------------------------------------------------------------------===//
#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>
#include <unistd.h>

namespace {

using namespace vf;

constexpr unsigned Iterations = 5, Warmup = 2;
constexpr std::uint64_t Calls = 20000;

/// A peaked product on [0,1]^Dim (Outputs 1), or the peak and its x0
/// moment (Outputs 2): enough structure for the map and strata to move.
IntegrandInfo peak(std::string Name = "peak", unsigned Dim = 3,
                   unsigned Outputs = 1) {
  auto I = nativeIntegrand(
      Name, Dim, Outputs, std::vector<double>(Dim, 0.0),
      std::vector<double>(Dim, 1.0), NativeParams{{"w"}, {0.1}},
      [Outputs](std::span<const double> X, std::size_t N, std::size_t Dim,
                std::span<const double> P, std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K) {
          double R2 = 0;
          for (std::size_t D = 0; D < Dim; ++D)
            R2 += (X[K * Dim + D] - 0.3) * (X[K * Dim + D] - 0.3);
          double F = std::exp(-R2 / (P[0] * P[0]));
          Out[K * Outputs] = F;
          if (Outputs > 1)
            Out[K * Outputs + 1] = F * X[K * Dim];
        }
      });
  EXPECT_TRUE(bool(I)) << (I ? "" : I.message());
  return *I;
}

std::unique_ptr<Integrator> make(IntegrandInfo I, unsigned Threads,
                                 std::uint64_t Seed = 7, double Alpha = 0.5) {
  IntegratorOptions O;
  O.Seed = Seed;
  O.Alpha = Alpha;
  O.Threads = Threads;
  auto Integ = Integrator::create(std::move(I), O);
  EXPECT_TRUE(bool(Integ)) << (Integ ? "" : Integ.message());
  return std::move(*Integ);
}

std::string tempPath(const std::string &Tag) {
  return testing::TempDir() + "/vf_ckpt_" + std::to_string(::getpid()) + "_" +
         Tag;
}

std::string slurp(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// Every number a user sees, compared bitwise (memcmp, so -0 and NaN too).
void expectSameBits(const Result &A, const Result &B) {
  auto same = [](const std::vector<double> &X, const std::vector<double> &Y) {
    return X.size() == Y.size() &&
           std::memcmp(X.data(), Y.data(), X.size() * sizeof(double)) == 0;
  };
  EXPECT_TRUE(same(A.Mean, B.Mean));
  EXPECT_TRUE(same(A.Error, B.Error));
  EXPECT_TRUE(same(A.Covariance, B.Covariance));
  EXPECT_TRUE(same({A.Chi2Dof, A.Q}, {B.Chi2Dof, B.Q}));
  EXPECT_EQ(A.Evaluations, B.Evaluations);
  ASSERT_EQ(A.Iterations.size(), B.Iterations.size());
  for (std::size_t K = 0; K < A.Iterations.size(); ++K) {
    const IterationRow &X = A.Iterations[K], &Y = B.Iterations[K];
    EXPECT_EQ(X.Index, Y.Index);
    EXPECT_EQ(X.Warmup, Y.Warmup);
    EXPECT_EQ(X.Samples, Y.Samples);
    EXPECT_TRUE(same(X.Mean, Y.Mean)) << "iteration " << K;
    EXPECT_TRUE(same(X.Error, Y.Error)) << "iteration " << K;
    EXPECT_TRUE(same(X.CumMean, Y.CumMean)) << "iteration " << K;
    EXPECT_TRUE(same(X.CumError, Y.CumError)) << "iteration " << K;
    EXPECT_TRUE(same({X.Chi2Dof, X.Q}, {Y.Chi2Dof, Y.Q})) << "iteration " << K;
  }
}

/// Interrupts a run after `StopAfter` iterations (a checkpoint written by
/// checkpointTo, as vegasc --checkpoint does), resumes it in a new
/// integrator with another thread count, and compares with the whole run.
void resumeMatches(unsigned Outputs, unsigned StopAfter) {
  Result Whole =
      *make(peak("peak", 3, Outputs), 2)->run(Iterations, Calls, Warmup);
  std::string Ckpt = tempPath("resume" + std::to_string(Outputs));
  std::string Copy = Ckpt + ".at" + std::to_string(StopAfter);
  {
    auto First = make(peak("peak", 3, Outputs), 2);
    ASSERT_TRUE(First->checkpointTo(Ckpt));
    First->onIteration([&](const IterationRow &R) {
      if (R.Index == StopAfter) // the file is complete when this is called
        std::rename(Ckpt.c_str(), Copy.c_str());
    });
    ASSERT_TRUE(bool(First->run(Iterations, Calls, Warmup)));
  }
  auto Second = make(peak("peak", 3, Outputs), 1);
  Status S = Second->loadState(Copy);
  ASSERT_TRUE(bool(S)) << S.message();
  EXPECT_EQ(Second->plan().Done, StopAfter);
  EXPECT_EQ(Second->result().Iterations.size(), StopAfter);
  auto Resumed = Second->run(Iterations, Calls, Warmup);
  ASSERT_TRUE(bool(Resumed)) << Resumed.message();
  EXPECT_EQ(Second->result().Iterations.size(), Iterations + Warmup);
  expectSameBits(Whole, *Resumed);
  std::remove(Ckpt.c_str());
  std::remove(Copy.c_str());
}

/// loadState + run: a resumed run equals the uninterrupted one, bitwise,
/// whether it stopped during warm-up, at its end, or in the measured part.
TEST(Checkpoint, ResumeIsBitwiseTheUninterruptedRun) {
  for (unsigned StopAfter : {1u, Warmup, Warmup + 2})
    resumeMatches(1, StopAfter);
}

/// The same for a vector-valued integrand (covariances in the state).
TEST(Checkpoint, ResumeVectorIntegrand) { resumeMatches(2, Warmup + 1); }

/// saveState after loadState writes the same bytes: nothing is lost.
TEST(Checkpoint, SaveLoadSaveIsIdentical) {
  std::string A = tempPath("a"), B = tempPath("b");
  auto Integ = make(peak(), 2);
  ASSERT_TRUE(bool(Integ->run(2, Calls, 1)));
  Integ->freeze();
  ASSERT_TRUE(bool(Integ->saveState(A)));
  auto Other = make(peak(), 3);
  ASSERT_TRUE(bool(Other->loadState(A)));
  EXPECT_TRUE(Other->frozen());
  ASSERT_TRUE(bool(Other->saveState(B)));
  EXPECT_FALSE(slurp(A).empty());
  EXPECT_EQ(slurp(A), slurp(B));
  std::remove(A.c_str());
  std::remove(B.c_str());
}

/// Expects loadState(Path) into `Integ` to fail with all of `Needles`.
void expectRefused(Integrator &Integ, const std::string &Path,
                   std::initializer_list<const char *> Needles) {
  Status S = Integ.loadState(Path);
  ASSERT_FALSE(bool(S));
  for (const char *N : Needles)
    EXPECT_NE(S.message().find(N), std::string::npos)
        << "'" << N << "' not in: " << S.message();
  // A refused state leaves the integrator as it was.
  EXPECT_TRUE(Integ.result().Iterations.empty());
}

/// loadState refuses a state of another integrand or other options.
TEST(Checkpoint, RefusesIncompatibleStates) {
  std::string Path = tempPath("refuse");
  auto Integ = make(peak(), 2);
  ASSERT_TRUE(bool(Integ->run(1, Calls, 1)));
  ASSERT_TRUE(bool(Integ->saveState(Path)));

  expectRefused(*make(peak("other"), 2), Path, {"integrand", "'other'"});
  expectRefused(*make(peak("peak", 2), 2), Path, {"dimensions 3 vs 2"});
  expectRefused(*make(peak(), 2, 8), Path, {"seed 7 vs 8"});
  expectRefused(*make(peak(), 2, 7, 1.5), Path, {"alpha 0.5 vs 1.5"});
  auto OtherParam = make(peak(), 2);
  ASSERT_TRUE(bool(OtherParam->setParam("w", 0.2)));
  expectRefused(*OtherParam, Path, {"parameter w"});

  // Damaged: the last byte flipped; truncated; not a checkpoint at all.
  std::string Bytes = slurp(Path);
  std::string Bad = tempPath("bad");
  std::ofstream(Bad, std::ios::binary)
      << Bytes.substr(0, Bytes.size() - 1) + char(Bytes.back() ^ 1);
  expectRefused(*make(peak(), 2), Bad, {"damaged"});
  std::ofstream(Bad, std::ios::binary) << Bytes.substr(0, Bytes.size() / 2);
  expectRefused(*make(peak(), 2), Bad, {"damaged"});
  std::ofstream(Bad, std::ios::binary) << "integrand f(x) = 1\n";
  expectRefused(*make(peak(), 2), Bad, {"not a vegasflow checkpoint"});
  expectRefused(*make(peak(), 2), Bad + ".missing", {"cannot read"});
  std::remove(Bad.c_str());
  std::remove(Path.c_str());
}

/// A restored unfinished run continues only with the same run arguments.
TEST(Checkpoint, ResumeNeedsTheSameRunArguments) {
  std::string Path = tempPath("args");
  auto Integ = make(peak(), 2);
  ASSERT_TRUE(Integ->checkpointTo(Path));
  Integ->onIteration([&](const IterationRow &R) {
    if (R.Index == 2)
      (void)Integ->checkpointTo(""); // the file keeps 2 of 4 iterations
  });
  ASSERT_TRUE(bool(Integ->run(3, Calls, 1)));
  auto Other = make(peak(), 2);
  ASSERT_TRUE(bool(Other->loadState(Path)));
  EXPECT_TRUE(Other->plan().unfinished());
  auto R = Other->run(3, 2 * Calls, 1);
  ASSERT_FALSE(bool(R));
  EXPECT_NE(R.message().find("20000 calls"), std::string::npos) << R.message();
  EXPECT_NE(R.message().find("40000 calls"), std::string::npos) << R.message();
  EXPECT_EQ(Other->result().Iterations.size(), 2u);
  std::remove(Path.c_str());
}

/// checkpointTo checks that the folder is writable with a new file of its
/// own: a user's file next to the checkpoint, named like the old probe
/// (which was opened, emptied and deleted), survives.
TEST(Checkpoint, WritabilityProbeLeavesOtherFilesAlone) {
  std::string Path = tempPath("probe");
  std::string Neighbour = Path + ".probe";
  std::ofstream(Neighbour) << "the user's data\n";
  auto Integ = make(peak(), 1);
  ASSERT_TRUE(Integ->checkpointTo(Path));
  std::ifstream In(Neighbour);
  std::string Line;
  std::getline(In, Line);
  EXPECT_EQ(Line, "the user's data");
  std::remove(Neighbour.c_str());
  EXPECT_FALSE(std::ifstream(Path).good()) << "nothing is written yet";
}

/// saveGrid/loadGrid: a trained map starts the next run ahead of a
/// uniform one; a grid of another dimension, or before any training, is
/// refused.
TEST(Checkpoint, GridRoundTrip) {
  std::string Path = tempPath("grid");
  auto Trained = make(peak(), 2);
  Status NoGrid = Trained->saveGrid(Path);
  EXPECT_FALSE(bool(NoGrid));
  EXPECT_NE(NoGrid.message().find("no iteration"), std::string::npos);
  ASSERT_TRUE(bool(Trained->run(6, Calls, 0)));
  ASSERT_TRUE(bool(Trained->saveGrid(Path)));

  auto Uniform = make(peak(), 2, 11);
  auto Loaded = make(peak(), 2, 11);
  ASSERT_TRUE(bool(Loaded->loadGrid(Path)));
  auto U = Uniform->run(1, Calls, 0);
  auto L = Loaded->run(1, Calls, 0);
  ASSERT_TRUE(U && L);
  // Same seed and samples: only the map differs.
  EXPECT_LT(L->Error[0], 0.5 * U->Error[0]);

  auto Flat = make(peak("flat", 2), 2);
  Status S = Flat->loadGrid(Path);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("3 dimensions"), std::string::npos) << S.message();
  EXPECT_NE(S.message().find("has 2"), std::string::npos) << S.message();
  // A checkpoint is not a grid.
  ASSERT_TRUE(bool(Trained->saveState(Path)));
  S = Loaded->loadGrid(Path);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("not a vegasflow grid"), std::string::npos);
  std::remove(Path.c_str());
}

} // namespace
