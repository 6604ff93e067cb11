//===- backends/MapLoadCalibration.cpp - Which map form this CPU runs -----===//
//
// The cache entry (CpuCalibration.h) holds "FORM ISA PAIRS_NS GATHERS_NS";
// one that does not parse is measured again and replaced, never trusted.
//
//===----------------------------------------------------------------------===//

#include "backends/MapLoadCalibration.h"
#include "backends/MapLoadTiming.h"
#include "backends/Targets.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <mutex>
#include <optional>

using namespace llvm;

namespace vf {

/// Bump when the measurement or the rule changes: every CPU then measures
/// again.
static constexpr const char *CalibrationRevision = "map-loads-2";

/// Gathers must beat the pairs by this much: a tie keeps the pairs, the
/// form of every CPU before the calibration, and a noisy measurement near
/// the tie does not flip the choice (both give the same bits anyway).
static constexpr double GathersMargin = 0.97;

StringRef mapLoadsName(MapLoads F) {
  return F == MapLoads::Gathers ? "gathers"
         : F == MapLoads::Pairs ? "pairs"
                                : "auto";
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

std::string mapLoadsCacheKey() {
  return cpuCalibrationKey(CalibrationRevision);
}

/// The forms' names in the cache entry, pairs first.
static const std::array<StringRef, 2> Forms = {"pairs", "gathers"};

MapLoadChoice calibrateMapLoads(const std::string &Dir,
                                function_ref<MapLoadChoice()> Measure) {
  const std::string Key = mapLoadsCacheKey();
  MapLoadChoice C;
  if (std::optional<RaceRecord> R = cachedRace(Dir, Key, Forms)) {
    C.Form = R->Winner ? MapLoads::Gathers : MapLoads::Pairs;
    C.Isa = R->Isa;
    C.PairsNs = R->Ns[0];
    C.GathersNs = R->Ns[1];
    C.FromCache = true;
    return C;
  }
  C = Measure();
  storeRace(Dir, Key, Forms,
            {C.Form == MapLoads::Gathers, C.Isa, {C.PairsNs, C.GathersNs}});
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
