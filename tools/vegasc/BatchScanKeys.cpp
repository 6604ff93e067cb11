//===- vegasc/BatchScanKeys.cpp - The keys that shape a scan --------------===//
//
// `seeds` and `csv_layout` read and checked at their value's line and
// column, and the seed of each scan point (BatchScanKeys.h).
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchScanKeys.h"

#include "vegasc/PointSeed.h"

namespace vf {

void ScanKeysReader::readSeeds(const toml::node &V, BatchSettings &S,
                               bool InRun) {
  const toml::key Key("seeds");
  S.SeedsLoc = loc(V);
  if (const toml::array *A = V.as_array(); A && InRun) {
    std::vector<std::uint64_t> List;
    for (const toml::node &E : *A) {
      std::int64_t Seed;
      if (!integer(Key, E, 0, std::int64_t(MaxSeed), Seed,
                   "a whole number from 0 to 2^63-1"))
        return;
      List.push_back(std::uint64_t(Seed));
    }
    S.Seeds = ScanSeeds::List;
    S.SeedList = std::move(List);
    return;
  }
  std::string Policy;
  if (V.is_string() && string(Key, V, Policy) &&
      (Policy == "per-point" || Policy == "same")) {
    S.Seeds = Policy == "same" ? ScanSeeds::Same : ScanSeeds::PerPoint;
    S.SeedList.clear();
    return;
  }
  error(loc(V), std::string("'seeds' must be \"per-point\" (each scan point "
                            "its own seed, the default), \"same\" (the run's "
                            "seed at every point)") +
                    (InRun ? " or a list of seeds, one per point"
                           : "; a list of seeds belongs in a [[run]]") +
                    ", got " +
                    (V.is_string() ? "\"" + Policy + "\""
                                   : std::string(tomlTypeName(V))));
}

void ScanKeysReader::checkSeedCount(const BatchRun &R) {
  const BatchSettings &S = R.Settings;
  const std::uint64_t Points = scanCount(R);
  if (S.Seeds != ScanSeeds::List || S.SeedList.size() == Points ||
      Points > MaxBatchRuns)
    return;
  error(S.SeedsLoc, "'seeds' lists " + std::to_string(S.SeedList.size()) +
                        " seed" + (S.SeedList.size() == 1 ? "" : "s") +
                        " for " + std::to_string(Points) + " scan point" +
                        (Points == 1 ? "" : "s") + "; give one per point");
}

void ScanKeysReader::readCsvLayout(const toml::node &V) {
  std::string Layout;
  if (!string(toml::key("csv_layout"), V, Layout))
    return;
  if (Layout != "wide" && Layout != "long") {
    error(loc(V), "'csv_layout' must be \"wide\" (a row per run) or "
                  "\"long\" (a row per run and component), got \"" +
                      Layout + "\"");
    return;
  }
  C.Layout = Layout == "wide" ? CsvLayout::Wide : CsvLayout::Long;
  LayoutGiven = true;
}

std::uint64_t scanSeed(const BatchRun &R, std::uint64_t Index) {
  const BatchSettings &S = R.Settings;
  if (S.Seeds == ScanSeeds::List)
    return S.SeedList[Index];
  if (R.Scan.empty() || S.Seeds == ScanSeeds::Same)
    return S.Seed;
  return pointSeed(S.Seed, Index);
}

} // namespace vf
