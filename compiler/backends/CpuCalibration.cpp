//===- backends/CpuCalibration.cpp - Races between two forms --------------===//
//
// The cache entry is CompileCache's (checked length and hash); its payload
// "FORM ISA NS NS" is parsed strictly, and anything else is no entry.
//
//===----------------------------------------------------------------------===//

#include "backends/CpuCalibration.h"
#include "backends/CompileCache.h"
#include "backends/Targets.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"

#include <cpuid.h>

#include <cmath>
#include <cstring>

using namespace llvm;

namespace vf {

/// The cache entries' extension (CompileCache::load).
static constexpr const char *CacheExt = "calibration";

StringRef timingIsaName(TimingIsa I) {
  return I == TimingIsa::Avx512 ? "avx512"
         : I == TimingIsa::Avx2 ? "avx2"
                                : "none";
}

/// cpuid's brand string ("AMD EPYC 9B45", "Intel(R) Xeon(R) ..."), or
/// empty where the CPU has none.
static std::string cpuBrand() {
  unsigned Max = __get_cpuid_max(0x80000000u, nullptr);
  if (Max < 0x80000004u)
    return "";
  unsigned Regs[12];
  for (unsigned L = 0; L < 3; ++L)
    __get_cpuid(0x80000002u + L, &Regs[4 * L], &Regs[4 * L + 1],
                &Regs[4 * L + 2], &Regs[4 * L + 3]);
  char Brand[sizeof Regs + 1] = {};
  std::memcpy(Brand, Regs, sizeof Regs);
  return StringRef(Brand).trim().str();
}

std::string cpuCalibrationKey(StringRef Revision) {
  CompileCacheKey K;
  K.add(Revision);
  K.add(cpuBrand());
  K.add(hostTargetDescription());
  return K.finish();
}

/// The record a payload holds, if it is one.
static std::optional<RaceRecord>
parseRace(StringRef Payload, const std::array<StringRef, 2> &Forms) {
  SmallVector<StringRef, 4> Fields;
  Payload.trim().split(Fields, ' ');
  RaceRecord R;
  if (Fields.size() != 4 || Fields[2].getAsDouble(R.Ns[0]) ||
      Fields[3].getAsDouble(R.Ns[1]))
    return std::nullopt;
  for (double Ns : R.Ns)
    if (!std::isfinite(Ns) || Ns < 0)
      return std::nullopt;
  if (Fields[0] != Forms[0] && Fields[0] != Forms[1])
    return std::nullopt;
  R.Winner = Fields[0] == Forms[1];
  for (TimingIsa I : {TimingIsa::None, TimingIsa::Avx2, TimingIsa::Avx512})
    if (Fields[1] == timingIsaName(I)) {
      R.Isa = I;
      return R;
    }
  return std::nullopt;
}

std::optional<RaceRecord> cachedRace(const std::string &Dir,
                                     const std::string &Key,
                                     const std::array<StringRef, 2> &Forms) {
  std::optional<std::string> Hit = CompileCache(Dir).load(Key, CacheExt);
  return Hit ? parseRace(*Hit, Forms) : std::nullopt;
}

void storeRace(const std::string &Dir, const std::string &Key,
               const std::array<StringRef, 2> &Forms, const RaceRecord &R) {
  std::string Payload;
  raw_string_ostream(Payload) << Forms[R.Winner] << ' ' << timingIsaName(R.Isa)
                              << format(" %.4f %.4f", R.Ns[0], R.Ns[1]);
  CompileCache(Dir).store(Key, CacheExt, Payload);
}

} // namespace vf
