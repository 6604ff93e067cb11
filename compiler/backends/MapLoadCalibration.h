//===- backends/MapLoadCalibration.h - The map's form for a CPU -*- C++ -*-===//
//
// The host kernel's map loads an increment's two edges in one of two forms
// (runtime/kernels/ChannelX8.h): 16-byte loads of the neighbouring pair
// plus a transpose, or two gathers. Which is faster depends on the CPU,
// not on its vendor (microcode makes AVX-512 gathers slow on many Intel
// parts, while AMD's Zen runs the loads faster), so it is measured: a
// short calibration on this CPU (MapLoadTiming.h, under 1 ms) decides,
// once per process, and its result is cached with the compiled code,
// keyed by the CPU's model and the calibration's revision. Both forms give
// the same bits; the chosen one is part of the host object's cache key.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_MAPLOADCALIBRATION_H
#define VF_COMPILER_BACKENDS_MAPLOADCALIBRATION_H

#include "backends/CpuCalibration.h"

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace vf {

/// The map's form: chosen by the calibration (Auto), or forced, for tests
/// and benchmarks (CompileOptions::MapLoads).
enum class MapLoads { Auto, Pairs, Gathers };

/// The gather instructions the JIT emits for this CPU's kernel.
using GatherIsa = TimingIsa;

/// AVX-512's on every CPU that has it; AVX2's where LLVM tunes the CPU as
/// one whose gathers are fast; elsewhere none (the gathers become scalar
/// loads, which never beat the pairs, so nothing is measured).
GatherIsa jitGathers();

/// What the calibration chose and why.
struct MapLoadChoice {
  MapLoads Form = MapLoads::Pairs; ///< Pairs or Gathers
  /// The instruction set both forms were timed in; None: not measured.
  GatherIsa Isa = GatherIsa::None;
  /// ns per sample of eight axes' lookups in each form; 0 where not
  /// measured.
  double PairsNs = 0, GathersNs = 0;
  bool FromCache = false; ///< read from the cache, not measured now
  /// One line: the two timings, or why there are none.
  std::string reason() const;
};

/// "pairs" or "gathers".
llvm::StringRef mapLoadsName(MapLoads F);

/// Measures both forms on this CPU now and chooses; no cache.
MapLoadChoice measureMapLoads();

/// This CPU's choice from the cache in \p Dir (CompileCache's folder; empty:
/// its default), or \p Measure's, stored there, where the cache has none
/// or an entry that cannot be read.
MapLoadChoice calibrateMapLoads(
    const std::string &Dir,
    llvm::function_ref<MapLoadChoice()> Measure = measureMapLoads);

/// The cache entry's key: cpuCalibrationKey (CpuCalibration.h) of this
/// calibration's revision.
std::string mapLoadsCacheKey();

/// The process's choice: calibrateMapLoads(Dir) the first time (\p UseCache
/// false: measured and not stored), the same answer after.
const MapLoadChoice &hostMapLoads(const std::string &Dir, bool UseCache);

/// \p Requested, or the process's choice where it is Auto.
MapLoads resolveMapLoads(MapLoads Requested, const std::string &Dir,
                         bool UseCache);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_MAPLOADCALIBRATION_H
