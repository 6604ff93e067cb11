//===- backends/BlockStepCalibration.h - Block step per CPU -----*- C++ -*-===//
//
// The host kernel adds a block's 32 samples to their segments' sums in
// one of two forms with the same results (runtime/kernels/BlockSums.h):
// lane-parallel, with 32-lane vectors the backend splits into the host's
// registers, or run by run. Which is faster depends on the CPU's vector
// units (on AMD Zen 5 the lanes win with AVX-512 and lose with AVX2), and
// a rule shown on one vendor's CPUs is no proof for the other's, so it is
// measured, as the map's form is (MapLoadCalibration.h): a short
// calibration on this CPU (BlockStepTiming.h, under 1 ms) decides once
// per process, and its result is an entry of its own in the compile
// cache, keyed as the map's is. The chosen form is part of the host
// object's cache key.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_BLOCKSTEPCALIBRATION_H
#define VF_COMPILER_BACKENDS_BLOCKSTEPCALIBRATION_H

#include "backends/CpuCalibration.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace vf {

/// The block step's form: chosen by the calibration (Auto), or forced,
/// for tests and benchmarks (CompileOptions::BlockForm).
enum class BlockStep { Auto, Runs, Lanes };

/// The vector instructions the JIT compiles this CPU's kernel with.
using VectorIsa = TimingIsa;

/// AVX-512 where the JIT's target has it, else AVX2 where it has that,
/// else none (the lanes would be SSE registers, 16 per vector: runs stay,
/// unmeasured).
VectorIsa jitVectors();

/// What the calibration chose and why.
struct BlockStepChoice {
  BlockStep Form = BlockStep::Runs; ///< Runs or Lanes
  /// The instruction set both forms were timed in; None: not measured.
  VectorIsa Isa = VectorIsa::None;
  /// ns per sample of the block step in each form; 0 where not measured.
  double RunsNs = 0, LanesNs = 0;
  bool FromCache = false; ///< read from the cache, not measured now
  /// One line: the two timings, or why there are none.
  std::string reason() const;
};

/// "runs" or "lanes".
llvm::StringRef blockStepName(BlockStep F);

/// The form every CPU ran before the calibration: lanes with AVX-512,
/// runs elsewhere. The host object's cache key names the form only where
/// it differs from this, so the keys the calibration agrees with stay.
BlockStep blockStepRule();

/// Measures both forms on this CPU now and chooses; no cache.
BlockStepChoice measureBlockSteps();

/// This CPU's choice from the cache in \p Dir (CompileCache's folder;
/// empty: its default), or \p Measure's, stored there, where the cache has
/// none or an entry that cannot be read.
BlockStepChoice calibrateBlockSteps(
    const std::string &Dir,
    llvm::function_ref<BlockStepChoice()> Measure = measureBlockSteps);

/// The cache entry's key: cpuCalibrationKey (CpuCalibration.h) of
/// this calibration's revision.
std::string blockStepCacheKey();

/// The process's choice: calibrateBlockSteps(Dir) the first time
/// (\p UseCache false: measured and not stored), the same answer after.
const BlockStepChoice &hostBlockStep(const std::string &Dir, bool UseCache);

/// \p Requested, or the process's choice where it is Auto.
BlockStep resolveBlockStep(BlockStep Requested, const std::string &Dir,
                           bool UseCache);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_BLOCKSTEPCALIBRATION_H
