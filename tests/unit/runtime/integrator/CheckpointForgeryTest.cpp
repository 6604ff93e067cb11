//===- tests/unit/runtime/integrator/CheckpointForgeryTest.cpp - Forgery --===//
//
// A checkpoint whose checksum is recomputed over inconsistent contents (as
// a script editing one field would) is refused on load, the error naming
// the field: each invariant of integrator/StateChecks.cpp is broken once
// here, through the same encoder the integrator uses (writeCheckpoint
// recomputes the checksum) or, for a flag byte that no bool can hold, by
// patching the bytes and recomputing FNV-1a by hand. Non-regular files and
// damaged grids are refused too. Patched the same way into the previous
// format (version 3, which ended before the channel index), a state still
// loads and resumes bitwise as the current file does.
//
//===----------------------------------------------------------------------===//
#include "integrator/Checkpoint.h"

#include "vf/Integrator.h"
#include "vf/Native.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iterator>
#include <sys/stat.h>
#include <unistd.h>

namespace {

using namespace vf;

IntegrandInfo product() {
  auto I = nativeIntegrand(
      "product", 2, 2, {0, 0}, {1, 1},
      [](std::span<const double> X, std::size_t N, std::size_t D,
         std::span<double> Out) {
        for (std::size_t K = 0; K < N; ++K) {
          Out[2 * K] = X[K * D] * X[K * D + 1];
          Out[2 * K + 1] = X[K * D];
        }
      });
  EXPECT_TRUE(bool(I));
  return *I;
}

std::unique_ptr<Integrator> make() {
  IntegratorOptions O;
  O.Threads = 2;
  auto I = Integrator::create(product(), O);
  EXPECT_TRUE(bool(I));
  return std::move(*I);
}

std::string path(const std::string &Tag) {
  return testing::TempDir() + "/vf_forge_" + std::to_string(::getpid()) +
         "_" + Tag;
}

/// A checkpoint saved after 3 of 2 warm-up + 4 iterations.
std::string savedMidRun() {
  const std::string P = path("valid");
  auto I = make();
  EXPECT_TRUE(bool(I->checkpointTo(P)));
  int N = 0;
  I->onIteration([&](const IterationRow &) {
    if (++N == 3)
      throw 1; // stop here, resumable
  });
  EXPECT_ANY_THROW((void)I->run(4, 8000, 2));
  return P;
}

/// Loads \p P into a fresh integrator and expects every needle.
void expectRefused(const std::string &P, std::vector<std::string> Needles) {
  Status S = make()->loadState(P);
  ASSERT_FALSE(bool(S)) << "accepted a forged state (" << Needles[0] << ")";
  for (const std::string &N : Needles)
    EXPECT_NE(S.message().find(N), std::string::npos)
        << "'" << N << "' not in: " << S.message();
}

/// Reads the valid state, applies \p Forge, writes it with its checksum
/// recomputed and expects it refused naming \p Field.
void forge(const std::function<void(CheckpointState &)> &Forge,
           std::vector<std::string> Needles) {
  const std::string Valid = savedMidRun();
  Expected<CheckpointState> S = readCheckpoint(Valid);
  ASSERT_TRUE(bool(S)) << S.message();
  ASSERT_TRUE(bool(make()->loadState(Valid))); // the original is fine
  Forge(*S);
  const std::string Forged = path("forged");
  ASSERT_TRUE(bool(writeCheckpoint(Forged, *S)));
  Needles.insert(Needles.begin(), "not a valid checkpoint");
  expectRefused(Forged, Needles);
  std::remove(Forged.c_str());
  std::remove(Valid.c_str());
}

TEST(CheckpointForgery, DoneMustMatchTheRows) {
  forge([](CheckpointState &S) { S.Plan.Done = 5; }, {"Plan.Done = 5"});
  forge([](CheckpointState &S) { S.Plan.Done = 9; }, {"Plan.Done = 9"});
  forge([](CheckpointState &S) { S.Rows[0].Warmup = false; },
        {"warm-up flag"});
  forge([](CheckpointState &S) { S.Plan.Iterations = 0; }, {"Plan:"});
}

TEST(CheckpointForgery, CountersMustAgree) {
  forge([](CheckpointState &S) { S.Iteration = 1; }, {"Iteration = 1"});
  forge([](CheckpointState &S) { S.Rows[2].Index = 1; }, {"Index = 1"});
  forge([](CheckpointState &S) { S.Evaluations += 1; }, {"Evaluations"});
  forge([](CheckpointState &S) { S.Wall = NAN; }, {"Wall"});
  forge([](CheckpointState &S) { S.Channel = 1; }, {"Channel = 1"});
}

TEST(CheckpointForgery, MapAndAllocationMustBeValid) {
  forge([](CheckpointState &S) { S.Edges[3] = S.Edges[1] - 0.5; },
        {"edge", "axis 0", "below"});
  forge([](CheckpointState &S) { S.Edges[S.Ninc] = 2; },
        {"axis 0", "not from 0 to 1"});
  forge([](CheckpointState &S) { S.Edges[2] = NAN; }, {"axis 0"});
  forge([](CheckpointState &S) { S.Ninc += 1; }, {"edges for Dim = 2"});
  forge([](CheckpointState &S) { S.Dim = 0; }, {"Dim = 0"});
  forge([](CheckpointState &S) { S.Offsets[2] = S.Offsets[1]; },
        {"Offsets[2]"});
  forge([](CheckpointState &S) { S.StrataNeval = 2; }, {"StrataNeval"});
  forge([](CheckpointState &S) { S.Offsets.clear(); }, {"Offsets"});
}

TEST(CheckpointForgery, RowValuesMustBeFiniteAndAgree) {
  forge([](CheckpointState &S) { S.Rows[1].Mean[1] = NAN; },
        {"row 2", "not finite"});
  forge([](CheckpointState &S) { S.Covs[0][3] = INFINITY; },
        {"row 1", "not finite"});
  forge([](CheckpointState &S) { S.Rows[0].Error[0] *= 2; },
        {"Error[0]", "square root"});
  forge([](CheckpointState &S) { S.Rows[0].Q = 2; }, {"Q = 2"});
  forge([](CheckpointState &S) { S.Rows[0].Mean.pop_back(); },
        {"outputs' size"});
  forge([](CheckpointState &S) { S.Params = {NAN}; S.ParamNames = {"a"}; },
        {"parameter 'a'"});
}

std::string slurp(const std::string &P) {
  std::ifstream In(P, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// FNV-1a over everything but the last 8 bytes, stored there (what a
/// forger recomputes).
void rehash(std::string &B) {
  std::uint64_t H = 0xcbf29ce484222325ull;
  for (std::size_t K = 0; K + 8 < B.size(); ++K) {
    H ^= static_cast<unsigned char>(B[K]);
    H *= 0x100000001b3ull;
  }
  for (int K = 0; K < 8; ++K)
    B[B.size() - 8 + K] = char((H >> (8 * K)) & 0xff);
}

/// Frozen = 7: the one byte where a frozen and an unfrozen state differ.
TEST(CheckpointForgery, FlagsAreZeroOrOne) {
  const std::string A = path("thawed"), B = path("frozen");
  auto I = make();
  ASSERT_TRUE(bool(I->run(1, 8000)));
  ASSERT_TRUE(bool(I->saveState(A)));
  I->freeze();
  ASSERT_TRUE(bool(I->saveState(B)));
  std::string Thawed = slurp(A), Frozen = slurp(B);
  ASSERT_EQ(Thawed.size(), Frozen.size());
  std::size_t At = 0, Diffs = 0;
  for (std::size_t K = 0; K + 8 < Thawed.size(); ++K)
    if (Thawed[K] != Frozen[K])
      At = K, ++Diffs;
  ASSERT_EQ(Diffs, 1u);
  Frozen[At] = 7;
  rehash(Frozen);
  std::ofstream(B, std::ios::binary) << Frozen;
  expectRefused(B, {"Frozen is neither 0 nor 1"});
  std::remove(A.c_str());
  std::remove(B.c_str());
}

/// The state of \p Valid, a single-channel run of \p Rows iterations, as
/// an older format wrote it: version 4, whose fields end before the
/// channels' (for a run without channels, all zero bytes: three empty
/// arrays, a floor of 0, no grids and no channel rows per row), or
/// version 3, which also ends before the channel index (the u32 before).
std::string asVersion(const std::string &Valid, std::size_t Rows, char V) {
  std::string B = slurp(Valid);
  EXPECT_EQ(B[8], char(CheckpointVersion));
  const std::size_t Channels = 40 + 8 * Rows, Cut = Channels + (V < 4 ? 4 : 0);
  EXPECT_EQ(B.substr(B.size() - 8 - Cut, Cut), std::string(Cut, '\0'));
  B.erase(B.size() - 8 - Cut, Cut);
  B[8] = V;
  rehash(B);
  return B;
}

/// Version 3 and 4 files load (their runs sampled channel 0 and had no
/// channels) and resume bitwise as the current file; a still older
/// version is refused.
TEST(CheckpointForgery, Version3And4FilesStillLoad) {
  const std::string Valid = savedMidRun(), Old = path("v3");
  auto Probe = make();
  ASSERT_TRUE(bool(Probe->loadState(Valid)));
  const std::size_t Rows = Probe->result().Iterations.size();
  std::string B4 = asVersion(Valid, Rows, 4);
  std::ofstream(Old, std::ios::binary) << B4;
  auto From4 = make();
  ASSERT_TRUE(bool(From4->loadState(Old)));
  std::string B = asVersion(Valid, Rows, 3);
  std::ofstream(Old, std::ios::binary) << B;
  auto FromNew = make(), FromOld = make();
  ASSERT_TRUE(bool(FromNew->loadState(Valid)));
  Status S = FromOld->loadState(Old);
  ASSERT_TRUE(bool(S)) << S.message();
  Expected<Result> A = FromNew->run(4, 8000, 2), C = FromOld->run(4, 8000, 2);
  ASSERT_TRUE(bool(A) && bool(C));
  EXPECT_EQ(A->Mean, C->Mean);
  EXPECT_EQ(A->Error, C->Error);
  EXPECT_EQ(A->Iterations.size(), 6u);
  EXPECT_EQ(C->Iterations.size(), 6u);
  Expected<Result> D = From4->run(4, 8000, 2);
  ASSERT_TRUE(bool(D));
  EXPECT_EQ(A->Mean, D->Mean);
  EXPECT_EQ(A->Error, D->Error);
  B[8] = 2;
  rehash(B);
  std::ofstream(Old, std::ios::binary) << B;
  expectRefused(Old, {"format version 2", "reads version 3 to 5"});
  std::remove(Old.c_str());
  std::remove(Valid.c_str());
}

TEST(CheckpointForgery, NonRegularFilesAreRefused) {
  const std::string Fifo = path("fifo");
  ASSERT_EQ(::mkfifo(Fifo.c_str(), 0600), 0);
  for (const std::string &P : {testing::TempDir(), Fifo,
                               std::string("/dev/zero"),
                               std::string("/dev/null")}) {
    auto I = make();
    Status S = I->loadState(P);
    ASSERT_FALSE(bool(S)) << P;
    EXPECT_NE(S.message().find("not a regular file"), std::string::npos)
        << S.message();
    Status G = I->loadGrid(P);
    ASSERT_FALSE(bool(G)) << P;
    EXPECT_NE(G.message().find("not a regular file"), std::string::npos);
    Status C = I->checkpointTo(P);
    ASSERT_FALSE(bool(C)) << P;
    EXPECT_NE(C.message().find("outputs replace only regular files"),
              std::string::npos)
        << C.message();
  }
  struct stat St;
  ASSERT_EQ(::stat(Fifo.c_str(), &St), 0);
  EXPECT_TRUE(S_ISFIFO(St.st_mode)); // never replaced
  std::remove(Fifo.c_str());
}

TEST(CheckpointForgery, GridsNameTheirFault) {
  const std::string P = path("grid");
  auto I = make();
  ASSERT_TRUE(bool(I->run(1, 8000)));
  ASSERT_TRUE(bool(I->saveGrid(P)));
  Expected<GridFile> G = readGrid(P);
  ASSERT_TRUE(bool(G));
  G->Edges[1] = -1;
  ASSERT_TRUE(bool(writeGrid(P, *G)));
  Status S = I->loadGrid(P);
  ASSERT_FALSE(bool(S));
  EXPECT_NE(S.message().find("below the one before it"), std::string::npos)
      << S.message();
  std::remove(P.c_str());
}

/// A version 1 grid (before channels: it ends after the edges) loads as
/// the current one does; forged channel fields are refused.
TEST(CheckpointForgery, Version1GridsStillLoadAndChannelsAreChecked) {
  const std::string P = path("grid2"), Old = path("grid1");
  auto I = make();
  ASSERT_TRUE(bool(I->run(1, 8000)));
  ASSERT_TRUE(bool(I->saveGrid(P)));
  std::string B = slurp(P);
  EXPECT_EQ(B[8], char(GridVersion));
  // No weights, no other maps: two zero counts before the hash.
  EXPECT_EQ(B.substr(B.size() - 24, 16), std::string(16, '\0'));
  B.erase(B.size() - 24, 16);
  B[8] = 1;
  rehash(B);
  std::ofstream(Old, std::ios::binary) << B;
  Expected<GridFile> A = readGrid(P), C = readGrid(Old);
  ASSERT_TRUE(bool(A) && bool(C)) << (C ? "" : C.error().Message);
  EXPECT_EQ(A->Edges, C->Edges);
  EXPECT_TRUE(bool(make()->loadGrid(Old)));
  A->Alpha = {0.5, 0.6};
  A->OtherMaps.push_back({A->Ninc, A->Edges});
  ASSERT_TRUE(bool(writeGrid(P, *A)));
  Expected<GridFile> Bad = readGrid(P);
  ASSERT_FALSE(bool(Bad));
  EXPECT_NE(Bad.error().Message.find("adding up to 1.1"), std::string::npos)
      << Bad.error().Message;
  std::remove(P.c_str());
  std::remove(Old.c_str());
}

/// A temporary left by a killed writer is removed by the next checkpoint.
TEST(CheckpointForgery, StaleTemporariesAreRemoved) {
  const std::string P = path("stale");
  const std::string Stale = P + ".tmp.999999999"; // no such process
  std::ofstream(Stale) << "left by kill -9";
  auto I = make();
  ASSERT_TRUE(bool(I->checkpointTo(P)));
  EXPECT_NE(::access(Stale.c_str(), F_OK), 0);
  std::remove(Stale.c_str());
}

} // namespace
