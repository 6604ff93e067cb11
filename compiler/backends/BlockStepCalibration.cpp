//===- backends/BlockStepCalibration.cpp - Which block step this CPU runs -===//
//
// The cache entry (CpuCalibration.h) holds "FORM ISA RUNS_NS LANES_NS";
// one that does not parse is measured again and replaced, never trusted.
//
//===----------------------------------------------------------------------===//

#include "backends/BlockStepCalibration.h"
#include "backends/BlockStepTiming.h"
#include "backends/Targets.h"

#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

#include <map>
#include <mutex>
#include <optional>

using namespace llvm;

namespace vf {

/// Bump when the measurement or the rule changes: every CPU then measures
/// again.
static constexpr const char *CalibrationRevision = "block-step-1";

/// The lanes must beat the runs by this much: a tie keeps the runs, the
/// simpler form, and a noisy measurement near the tie does not flip the
/// choice (both give the same bits anyway).
static constexpr double LanesMargin = 0.97;

StringRef blockStepName(BlockStep F) {
  return F == BlockStep::Lanes  ? "lanes"
         : F == BlockStep::Runs ? "runs"
                                : "auto";
}

/// What jitVectors says of a target, from its TargetMachine.
static VectorIsa targetVectors() {
  auto TM = createHostTargetMachine();
  if (!TM) {
    consumeError(TM.takeError());
    return VectorIsa::None;
  }
  const MCSubtargetInfo &STI = *(*TM)->getMCSubtargetInfo();
  if (STI.checkFeatures("+avx512f"))
    return VectorIsa::Avx512;
  return STI.checkFeatures("+avx2") ? VectorIsa::Avx2 : VectorIsa::None;
}

// Remembered per target: every host compile asks (its cache key names
// the rule's form), and a TargetMachine takes 0.2 ms to make.
VectorIsa jitVectors() {
  static std::mutex Lock;
  static std::map<std::string, VectorIsa> Known;
  const std::string Target = hostTargetDescription();
  std::lock_guard<std::mutex> Guard(Lock);
  auto [It, New] = Known.try_emplace(Target, VectorIsa::None);
  if (New)
    It->second = targetVectors();
  return It->second;
}

BlockStep blockStepRule() {
  return jitVectors() == VectorIsa::Avx512 ? BlockStep::Lanes : BlockStep::Runs;
}

std::string BlockStepChoice::reason() const {
  if (Isa == VectorIsa::None)
    return "not measured: the JIT's target has neither AVX-512 nor AVX2 "
           "(or the CPU lacks what it names)";
  std::string S;
  raw_string_ostream(S) << "measured on this CPU ("
                        << (Isa == VectorIsa::Avx512 ? "AVX-512" : "AVX2")
                        << (FromCache ? ", cached): " : "): ")
                        << format("runs %.2f ns, lanes %.2f ns", RunsNs,
                                  LanesNs)
                        << " per sample";
  return S;
}

BlockStepChoice measureBlockSteps() {
  BlockStepChoice C;
  const VectorIsa Isa = jitVectors();
  if (Isa == VectorIsa::None ||
      !vf_time_block_steps(Isa == VectorIsa::Avx512 ? VF_TIMING_AVX512
                                                    : VF_TIMING_AVX2,
                           &C.RunsNs, &C.LanesNs))
    return C;
  C.Isa = Isa;
  C.Form =
      C.LanesNs < LanesMargin * C.RunsNs ? BlockStep::Lanes : BlockStep::Runs;
  return C;
}

std::string blockStepCacheKey() {
  return cpuCalibrationKey(CalibrationRevision);
}

/// The forms' names in the cache entry, runs first.
static const std::array<StringRef, 2> Forms = {"runs", "lanes"};

BlockStepChoice calibrateBlockSteps(const std::string &Dir,
                                    function_ref<BlockStepChoice()> Measure) {
  const std::string Key = blockStepCacheKey();
  BlockStepChoice C;
  if (std::optional<RaceRecord> R = cachedRace(Dir, Key, Forms)) {
    C.Form = R->Winner ? BlockStep::Lanes : BlockStep::Runs;
    C.Isa = R->Isa;
    C.RunsNs = R->Ns[0];
    C.LanesNs = R->Ns[1];
    C.FromCache = true;
    return C;
  }
  C = Measure();
  storeRace(Dir, Key, Forms,
            {C.Form == BlockStep::Lanes, C.Isa, {C.RunsNs, C.LanesNs}});
  return C;
}

const BlockStepChoice &hostBlockStep(const std::string &Dir, bool UseCache) {
  static std::once_flag Once;
  static BlockStepChoice Choice;
  std::call_once(Once, [&] {
    Choice = UseCache ? calibrateBlockSteps(Dir) : measureBlockSteps();
  });
  return Choice;
}

BlockStep resolveBlockStep(BlockStep Requested, const std::string &Dir,
                           bool UseCache) {
  return Requested == BlockStep::Auto ? hostBlockStep(Dir, UseCache).Form
                                      : Requested;
}

} // namespace vf
