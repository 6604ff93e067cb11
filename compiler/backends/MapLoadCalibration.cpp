//===- backends/MapLoadCalibration.cpp - Which map form this CPU runs -----===//
//
// The cache entry is CompileCache's (checked length and hash), its payload
// one line, "FORM ISA PAIRS_NS GATHERS_NS"; an entry that does not parse
// is measured again and replaced, never trusted.
//
//===----------------------------------------------------------------------===//

#include "backends/MapLoadCalibration.h"
#include "backends/CompileCache.h"
#include "backends/MapLoadTiming.h"
#include "backends/Targets.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <cpuid.h>

#include <cmath>
#include <cstring>
#include <mutex>
#include <optional>

using namespace llvm;

namespace vf {

/// Bump when the measurement or the rule changes: every CPU then measures
/// again.
static constexpr const char *CalibrationRevision = "map-loads-1";

/// The cache entries' extension (CompileCache::load).
static constexpr const char *CacheExt = "calibration";

/// Gathers must beat the pairs by this much: a tie keeps the pairs, the
/// form of every CPU before the calibration, and a noisy measurement near
/// the tie does not flip the choice (both give the same bits anyway).
static constexpr double GathersMargin = 0.97;

StringRef mapLoadsName(MapLoads F) {
  return F == MapLoads::Gathers ? "gathers"
         : F == MapLoads::Pairs ? "pairs"
                                : "auto";
}

/// The payload's and the reason's name of \p I.
static StringRef isaName(GatherIsa I) {
  return I == GatherIsa::Avx512 ? "avx512"
         : I == GatherIsa::Avx2 ? "avx2"
                                : "none";
}

GatherIsa jitGathers() {
  auto TM = createHostTargetMachine();
  if (!TM) {
    consumeError(TM.takeError());
    return GatherIsa::None;
  }
  const MCSubtargetInfo &STI = *(*TM)->getMCSubtargetInfo();
  if (STI.checkFeatures("+prefer-no-gather"))
    return GatherIsa::None;
  if (STI.checkFeatures("+avx512f"))
    return GatherIsa::Avx512;
  return STI.checkFeatures("+avx2,+fast-gather") ? GatherIsa::Avx2
                                                 : GatherIsa::None;
}

std::string MapLoadChoice::reason() const {
  if (Isa == GatherIsa::None)
    return "not measured: the JIT makes the gathers scalar loads on this "
           "CPU (no AVX-512, and LLVM does not tune it for fast gathers)";
  std::string S;
  raw_string_ostream(S) << "measured on this CPU ("
                        << (Isa == GatherIsa::Avx512 ? "AVX-512" : "AVX2")
                        << (FromCache ? ", cached): " : "): ")
                        << format("16-byte loads %.2f ns, gathers %.2f ns",
                                  PairsNs, GathersNs)
                        << " per sample of 8 axes";
  return S;
}

MapLoadChoice measureMapLoads() {
  MapLoadChoice C;
  const GatherIsa Isa = jitGathers();
  if (Isa == GatherIsa::None ||
      !vf_time_map_loads(Isa == GatherIsa::Avx512 ? VF_TIMING_AVX512
                                                  : VF_TIMING_AVX2,
                         &C.PairsNs, &C.GathersNs))
    return C;
  C.Isa = Isa;
  C.Form = C.GathersNs < GathersMargin * C.PairsNs ? MapLoads::Gathers
                                                   : MapLoads::Pairs;
  return C;
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

std::string mapLoadsCacheKey() {
  return cpuCalibrationKey(CalibrationRevision);
}

/// The choice a cache payload ("FORM ISA PAIRS_NS GATHERS_NS") holds, if
/// it is one.
static std::optional<MapLoadChoice> parseChoice(StringRef Payload) {
  SmallVector<StringRef, 4> Fields;
  Payload.trim().split(Fields, ' ');
  MapLoadChoice C;
  if (Fields.size() != 4 || Fields[2].getAsDouble(C.PairsNs) ||
      Fields[3].getAsDouble(C.GathersNs) || !std::isfinite(C.PairsNs) ||
      !std::isfinite(C.GathersNs) || C.PairsNs < 0 || C.GathersNs < 0)
    return std::nullopt;
  if (Fields[0] != "pairs" && Fields[0] != "gathers")
    return std::nullopt;
  C.Form = Fields[0] == "gathers" ? MapLoads::Gathers : MapLoads::Pairs;
  for (GatherIsa I : {GatherIsa::None, GatherIsa::Avx2, GatherIsa::Avx512})
    if (Fields[1] == isaName(I)) {
      C.Isa = I;
      C.FromCache = true;
      return C;
    }
  return std::nullopt;
}

MapLoadChoice calibrateMapLoads(const std::string &Dir,
                                function_ref<MapLoadChoice()> Measure) {
  CompileCache Cache(Dir);
  const std::string Key = mapLoadsCacheKey();
  if (std::optional<std::string> Hit = Cache.load(Key, CacheExt))
    if (std::optional<MapLoadChoice> C = parseChoice(*Hit))
      return *C;
  MapLoadChoice C = Measure();
  std::string Payload;
  raw_string_ostream(Payload) << mapLoadsName(C.Form) << ' ' << isaName(C.Isa)
                              << format(" %.4f %.4f", C.PairsNs, C.GathersNs);
  Cache.store(Key, CacheExt, Payload);
  return C;
}

const MapLoadChoice &hostMapLoads(const std::string &Dir, bool UseCache) {
  static std::once_flag Once;
  static MapLoadChoice Choice;
  std::call_once(Once, [&] {
    Choice = UseCache ? calibrateMapLoads(Dir) : measureMapLoads();
  });
  return Choice;
}

MapLoads resolveMapLoads(MapLoads Requested, const std::string &Dir,
                         bool UseCache) {
  return Requested == MapLoads::Auto ? hostMapLoads(Dir, UseCache).Form
                                     : Requested;
}

} // namespace vf
