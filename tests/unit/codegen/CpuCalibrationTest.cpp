//===- tests/unit/codegen/CpuCalibrationTest.cpp - Cached races -----------===//
//
// The calibrations' shared cache entry (backends/CpuCalibration.h): a race
// stored is read back as it was, under its key only; a damaged entry (its
// hash no longer matches) and an intact one whose payload is no race of
// the named forms are no entry, so the calibration measures again.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "backends/CompileCache.h"
#include "backends/CpuCalibration.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace vf;
using namespace vf::test;

namespace {

const std::array<llvm::StringRef, 2> Forms = {"pairs", "gathers"};

TEST(CpuCalibration, StoredRaceReadsBackUnderItsKey) {
  TempDir Dir;
  const std::string Key = cpuCalibrationKey("test-1");
  EXPECT_FALSE(cachedRace(Dir.path(), Key, Forms));
  storeRace(Dir.path(), Key, Forms, {1, TimingIsa::Avx512, {3.5, 2.25}});
  const std::optional<RaceRecord> R = cachedRace(Dir.path(), Key, Forms);
  ASSERT_TRUE(R);
  EXPECT_EQ(R->Winner, 1u);
  EXPECT_EQ(R->Isa, TimingIsa::Avx512);
  EXPECT_EQ(R->Ns[0], 3.5);
  EXPECT_EQ(R->Ns[1], 2.25);
  // Another revision is another entry.
  EXPECT_NE(cpuCalibrationKey("test-2"), Key);
  EXPECT_FALSE(cachedRace(Dir.path(), cpuCalibrationKey("test-2"), Forms));
}

TEST(CpuCalibration, DamagedOrUnparsableEntriesAreNone) {
  TempDir Dir;
  const std::string Key = cpuCalibrationKey("test-1");
  storeRace(Dir.path(), Key, Forms, {0, TimingIsa::Avx2, {1, 2}});
  const std::vector<std::string> Files = Dir.files(".calibration");
  ASSERT_EQ(Files.size(), 1u);
  std::ofstream(Files[0], std::ios::binary | std::ios::trunc) << "garbage";
  EXPECT_FALSE(cachedRace(Dir.path(), Key, Forms));
  for (const char *Bad :
       {"fast avx2 1 2", "gathers avx2 1", "pairs avx2 -1 2", "pairs avx2 1 x",
        "pairs sse 1 2", "pairs 1 2", "gathers avx2 inf 2", "lanes avx2 1 2"}) {
    CompileCache(Dir.path()).store(Key, "calibration", Bad);
    EXPECT_FALSE(cachedRace(Dir.path(), Key, Forms)) << Bad;
  }
  CompileCache(Dir.path()).store(Key, "calibration", "pairs none 0 0\n");
  EXPECT_TRUE(cachedRace(Dir.path(), Key, Forms));
}

} // namespace
