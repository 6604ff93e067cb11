//===- tests/fakecuda/WarpEmulatorTest.cpp - The warp emulator's rules ----===//
//
// Small kernels written against the emulator's intrinsics table: the
// collectives give the PTX ISA's results, lanes really interleave (a
// missing sync changes the order of their side effects), divergent groups
// with their own masks complete, and every way a collective cannot
// complete is reported, naming the kernel, the lanes and the collective,
// instead of hanging. Geometry beyond the device's limits is refused.
//
//===----------------------------------------------------------------------===//

#include "WarpEmulator.h"

#include <gtest/gtest.h>

#include <mutex>
#include <vector>

using namespace vf::fakecuda;

namespace {

const vf_gpu_emu_ops &E = *emulatorOps();
constexpr std::uint32_t Full = 0xffffffffu;

unsigned lane() { return E.sreg(VF_EMU_TID_X) & 31u; }

LaunchGeometry block(unsigned Threads, unsigned Blocks = 1) {
  LaunchGeometry G;
  G.Grid[0] = Blocks;
  G.Block[0] = Threads;
  return G;
}

std::string run(vf_gpu_emu_kernel_fn K, void **Params, const LaunchGeometry &G,
                Fault F = Fault::None, std::uint64_t Seed = 0) {
  EmulatorOptions O;
  O.Inject = F;
  O.Seed = Seed;
  return runEmulated("test_kernel", K, Params, G, O);
}

/// out[tid] = shfl.idx from lane 5, bfly max of the lane ids, match.any
/// of lane / 4, ballot of odd lanes.
void collectives(void **P) {
  auto *Out = *static_cast<std::uint32_t **>(P[0]);
  const unsigned L = lane(), T = E.sreg(VF_EMU_TID_X);
  Out[4 * T] = std::uint32_t(E.shfl_idx(Full, int(100 + L), 5, 31));
  int M = int(L);
  for (int Off = 16; Off > 0; Off /= 2)
    M = std::max(M, E.shfl_bfly(Full, M, Off, 31));
  Out[4 * T + 1] = std::uint32_t(M);
  Out[4 * T + 2] = E.match_any(Full, int(L / 4));
  Out[4 * T + 3] = E.ballot(Full, L & 1);
}

TEST(WarpEmulator, CollectivesFollowThePtxIsa) {
  std::vector<std::uint32_t> Out(4 * 64);
  std::uint32_t *Ptr = Out.data();
  void *Params[] = {&Ptr};
  ASSERT_EQ(run(collectives, Params, block(64)), "");
  for (unsigned T = 0; T < 64; ++T) {
    const unsigned L = T % 32;
    EXPECT_EQ(Out[4 * T], 105u) << T;
    EXPECT_EQ(Out[4 * T + 1], 31u) << T;
    EXPECT_EQ(Out[4 * T + 2], 0xfu << (L / 4 * 4)) << T;
    EXPECT_EQ(Out[4 * T + 3], 0xaaaaaaaau) << T;
  }
  // The injected bug the integration test relies on: match.any finds each
  // lane alone; the other collectives are untouched.
  ASSERT_EQ(run(collectives, Params, block(64), Fault::MatchAnyAlone), "");
  for (unsigned T = 0; T < 64; ++T) {
    EXPECT_EQ(Out[4 * T + 2], 1u << (T % 32)) << T;
    EXPECT_EQ(Out[4 * T + 3], 0xaaaaaaaau) << T;
  }
}

/// Each lane appends its id to a shared log, in rank steps separated by
/// bar.warp.sync (lane L in step L % 4): the log is in step order only if
/// the lanes really meet at each sync.
struct Log {
  std::mutex M;
  std::vector<unsigned> Ids;
};
void ranked(void **P) {
  auto *G = *static_cast<Log **>(P[0]);
  const unsigned L = lane();
  for (unsigned Step = 0; Step < 4; ++Step) {
    if (L % 4 == Step) {
      std::lock_guard<std::mutex> Lock(G->M);
      G->Ids.push_back(L);
    }
    E.bar_warp_sync(Full);
  }
}

TEST(WarpEmulator, LanesInterleaveAndMeetAtSyncs) {
  for (std::uint64_t Seed : {0ull, 7ull}) {
    Log G;
    Log *Ptr = &G;
    void *Params[] = {&Ptr};
    ASSERT_EQ(run(ranked, Params, block(32), Fault::None, Seed), "");
    ASSERT_EQ(G.Ids.size(), 32u);
    for (unsigned I = 1; I < 32; ++I)
      EXPECT_LE(G.Ids[I - 1] % 4, G.Ids[I] % 4) << "seed " << Seed;
    // Within a step the lanes do not run in lane order.
    EXPECT_NE(G.Ids[0], 0u) << "seed " << Seed;
  }
  Log G;
  Log *Ptr = &G;
  void *Params[] = {&Ptr};
  ASSERT_EQ(run(ranked, Params, block(32), Fault::NoWarpSync), "");
  bool StepOrder = true;
  for (unsigned I = 1; I < 32; ++I)
    StepOrder &= G.Ids[I - 1] % 4 <= G.Ids[I] % 4;
  EXPECT_FALSE(StepOrder) << "a dropped bar.warp.sync must show";
}

/// Lanes 0-15 and 16-31 shuffle within their own halves.
void halves(void **P) {
  auto *Out = *static_cast<int **>(P[0]);
  const unsigned L = lane();
  const std::uint32_t Mask = L < 16 ? 0x0000ffffu : 0xffff0000u;
  Out[L] = E.shfl_idx(Mask, int(L), 0, (16 << 8) | 31);
}

TEST(WarpEmulator, DivergentGroupsCompleteWithTheirMasks) {
  std::vector<int> Out(32, -1);
  int *Ptr = Out.data();
  void *Params[] = {&Ptr};
  ASSERT_EQ(run(halves, Params, block(32)), "");
  for (unsigned L = 0; L < 32; ++L)
    EXPECT_EQ(Out[L], L < 16 ? 0 : 16) << L;
}

void fullShuffle(void **) { (void)E.shfl_idx(Full, 1, 0, 31); }
void earlyExit(void **) {
  if (lane() == 3)
    return;
  (void)E.shfl_idx(Full, 1, 0, 31);
}
void mismatched(void **) {
  if (lane() < 8)
    E.bar_warp_sync(Full);
  else
    (void)E.ballot(Full, 1);
}
void notInMask(void **) { (void)E.ballot(lane() == 2 ? 1u : Full, 1); }
void readsOutside(void **) {
  if (lane() < 16)
    (void)E.shfl_idx(0x0000ffffu, 1, 20, 31);
  else
    E.bar_warp_sync(0xffff0000u);
}

TEST(WarpEmulator, ACollectiveThatCannotCompleteIsReported) {
  void *Params[] = {nullptr};
  EXPECT_EQ(run(fullShuffle, Params, block(48)),
            "test_kernel: block (0, 0, 0) warp 1: deadlock: lane 0 waits at "
            "shfl.sync.idx (mask 0xffffffff) for lane 16, which is not in "
            "the block (48 x 1 x 1 threads)");
  EXPECT_EQ(run(earlyExit, Params, block(32, 2)),
            "test_kernel: block (0, 0, 0) warp 0: deadlock: lane 0 waits at "
            "shfl.sync.idx (mask 0xffffffff) for lane 3, which has exited");
  EXPECT_EQ(run(mismatched, Params, block(32)),
            "test_kernel: block (0, 0, 0) warp 0: deadlock: lane 0 waits at "
            "bar.warp.sync (mask 0xffffffff) for lane 8, which waits at "
            "vote.ballot.sync (mask 0xffffffff)");
  EXPECT_EQ(run(notInMask, Params, block(32)),
            "test_kernel: block (0, 0, 0) warp 0: lane 2 calls "
            "vote.ballot.sync with mask 0x00000001, which leaves itself out");
  EXPECT_EQ(run(readsOutside, Params, block(32)),
            "test_kernel: block (0, 0, 0) warp 0: lane 0's shfl.sync.idx "
            "reads lane 20, outside its mask 0x0000ffff");
}

TEST(WarpEmulator, GeometryBeyondTheDeviceIsRefused) {
  void *Params[] = {nullptr};
  LaunchGeometry G = block(1025);
  EXPECT_NE(run(fullShuffle, Params, G).find("exceeds the device's 1024 "
                                             "threads per block"),
            std::string::npos);
  G = block(32);
  G.SharedBytes = 64 * 1024;
  EXPECT_NE(run(fullShuffle, Params, G).find("65536 bytes of dynamic shared "
                                             "memory exceed the 49152"),
            std::string::npos);
  G = block(32, 0);
  EXPECT_NE(checkGeometry(G).find("has an empty dimension"), std::string::npos);
  EXPECT_EQ(checkGeometry(block(1024, 100000)), "");
}

} // namespace
