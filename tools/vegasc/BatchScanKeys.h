//===- vegasc/BatchScanKeys.h - The keys that shape a scan ------*- C++ -*-===//
//
// Two keys of a batch file are about scans rather than one integration:
// `seeds` (in [defaults] or a [[run]]), how the points of a scan get their
// seeds, and `csv_layout` (in [defaults]), whether the CSV file has a row
// per run and component or a row per run with the components in columns.
// The batch file's parser reads them through this reader; scanSeed() is
// the seed a point then runs with. docs/user-guide.md, "Seeds of a
// scan" and "The JSON document and the CSV file".
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_BATCHSCANKEYS_H
#define VF_TOOLS_VEGASC_BATCHSCANKEYS_H

#include "vegasc/BatchSettings.h"

namespace vf {

class ScanKeysReader : public SettingsReader {
public:
  using SettingsReader::SettingsReader;

protected:
  /// `seeds = "per-point" | "same" | [s1, s2, ...]` into \p S; a list only
  /// in a [[run]] (\p InRun), where checkSeedCount checks its length once
  /// the scan is read.
  void readSeeds(const toml::node &V, BatchSettings &S, bool InRun);
  void checkSeedCount(const BatchRun &R);
  /// `csv_layout = "wide" | "long"` into the config; LayoutGiven records
  /// that the file chose (otherwise the parser picks by the scans).
  void readCsvLayout(const toml::node &V);
  bool LayoutGiven = false;
};

/// The seed of \p R's \p Index-th scan point: the listed one, the run's
/// own (without a scan, or with seeds = "same"), or pointSeed(seed, Index)
/// (PointSeed.h).
std::uint64_t scanSeed(const BatchRun &R, std::uint64_t Index);

} // namespace vf

#endif // VF_TOOLS_VEGASC_BATCHSCANKEYS_H
