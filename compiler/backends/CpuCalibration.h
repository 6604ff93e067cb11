//===- backends/CpuCalibration.h - Races between two forms ------*- C++ -*-===//
//
// Where the host kernel has two forms of a phase with the same results
// (the map's edge loads, MapLoadCalibration.h; the block step,
// BlockStepCalibration.h), the faster is found by timing both on this
// CPU. What the calibrations share lives here: the instruction set a race
// is timed in, the key of its compile-cache entry (the calibration's
// revision, the CPU's model and the JIT's target), and the entry itself,
// one line "FORM ISA NS NS" that is never trusted unless it parses.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_CPUCALIBRATION_H
#define VF_COMPILER_BACKENDS_CPUCALIBRATION_H

#include "llvm/ADT/StringRef.h"

#include <array>
#include <optional>
#include <string>

namespace vf {

/// The vector instructions a race was timed in; None: not measured.
enum class TimingIsa { None, Avx2, Avx512 };

/// "avx512", "avx2" or "none" (the entries' spelling).
llvm::StringRef timingIsaName(TimingIsa I);

/// A race's outcome as its cache entry holds it.
struct RaceRecord {
  unsigned Winner = 0; ///< 0 or 1: the index of the form that won
  TimingIsa Isa = TimingIsa::None;
  std::array<double, 2> Ns = {0, 0}; ///< each form's ns per sample
};

/// The compile-cache key of a calibration of revision \p Revision on
/// this CPU: the revision, cpuid's brand string and the JIT's target (CPU
/// name and features).
std::string cpuCalibrationKey(llvm::StringRef Revision);

/// The race cached in \p Dir (CompileCache's folder; empty: its default)
/// under \p Key, its forms named \p Forms; none where there is no entry,
/// or one that is damaged or does not parse.
std::optional<RaceRecord>
cachedRace(const std::string &Dir, const std::string &Key,
           const std::array<llvm::StringRef, 2> &Forms);

/// Stores \p R under \p Key in \p Dir, its forms named \p Forms.
void storeRace(const std::string &Dir, const std::string &Key,
               const std::array<llvm::StringRef, 2> &Forms,
               const RaceRecord &R);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_CPUCALIBRATION_H
