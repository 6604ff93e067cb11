//===- vegasc/BatchConfig.h - The TOML file of a batch of runs --*- C++ -*-===//
//
// `vegasc runs.toml` reads a batch: a [defaults] table of integration
// settings and [[run]] entries, each naming a .vf file (or holding its
// source inline), an integrand, parameter values and parameter scans. This
// header is the parsed, checked form; parsing (BatchConfig.cpp, toml++)
// reports every mistake in the file with its line, column and key through
// LocatedErrors over the TOML text (the library's own checks of the settings
// included, said with the key), and keeps the location of every key that a
// later check (unknown integrand, unknown parameter) may have to point at.
// The syntax is documented in docs/user-guide.md, "Batch runs (TOML)".
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_BATCHCONFIG_H
#define VF_TOOLS_VEGASC_BATCHCONFIG_H

#include "vegasc/LocatedErrors.h"
#include "vegasc/RunOptions.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vf {

/// The integration settings of one run: [defaults], then the run's own
/// keys, each checked by the library as it is read (BatchSettings.cpp).
/// How the points of a run's scan get their seeds (`seeds`).
enum class ScanSeeds {
  PerPoint, ///< pointSeed(seed, index), the default
  Same,     ///< the run's seed at every point
  List      ///< one listed seed per point
};

struct BatchSettings : RunSettings {
  TextLoc DevicesLoc; ///< where `devices` was set, if it was
  ScanSeeds Seeds = ScanSeeds::PerPoint;
  std::vector<std::uint64_t> SeedList; ///< Seeds == List: one per point
  TextLoc SeedsLoc;
  /// Where `events`, `events_out` and `event_record` were set (events_out
  /// is resolved against the TOML file's folder, as `file` is).
  TextLoc EventsLoc, EventsOutLoc, EventRecordLoc;
};

/// `name = value` from a run's `params` table.
struct BatchParam {
  std::string Name;
  double Value = 0;
  TextLoc Loc; ///< the key
};

/// One scanned parameter: its values in order (a list, or a range expanded).
struct BatchScanAxis {
  std::string Name;
  std::vector<double> Values;
  TextLoc Loc; ///< the key
};

struct BatchRun {
  std::string Name;
  TextLoc Loc;          ///< the [[run]] header (or the entry's first key)
  std::string File;     ///< as written
  std::string FilePath; ///< resolved against the TOML file's folder
  TextLoc FileLoc;
  bool Inline = false; ///< `source` instead of `file`
  /// The inline source, padded with newlines and spaces so that its first
  /// character sits at its line and column in the TOML file: diagnostics
  /// of inline code then name the TOML file's own lines.
  std::string Source;
  std::string RawSource; ///< the inline source as written (for the JSON)
  TextLoc SourceLoc;
  std::string Integrand; ///< "" picks the file's only integrand
  TextLoc IntegrandLoc;
  std::vector<BatchParam> Params;
  std::vector<BatchScanAxis> Scan; ///< in the order written
  TextLoc ScanLoc;                 ///< the `scan` key
  BatchSettings Settings;
  IntegratorOptions Options; ///< Settings, converted (integratorOptions)
};

/// The CSV file's layout (`csv_layout`): a row per run and component, or
/// a row per run (point) with every component, its error and the
/// covariance in columns (BatchJob.h).
enum class CsvLayout { Long, Wide };

struct BatchConfig {
  std::string Path; ///< the TOML file as given
  std::string Dir;  ///< its folder: relative paths in it start there
  BatchSettings Defaults;
  std::string Output; ///< JSON file (resolved), "" for none
  std::string Csv;    ///< CSV file (resolved), "" for none
  /// As given, or Wide when a run has a scan and Long otherwise.
  CsvLayout Layout = CsvLayout::Long;
  std::vector<BatchRun> Runs;
};

/// Reads and checks \p Path into \p C; \p Diags is given the TOML text,
/// which the locations in \p C point into. Returns false when the file
/// cannot be read or has any error; every error has been reported.
bool parseBatchConfig(const std::string &Path, BatchConfig &C,
                      LocatedErrors &Diags);

/// The most runs a batch may expand to, all its scans together: a scan is
/// a product of its axes, and five axes of 1000 steps once asked for 10^15
/// runs (7 GB in 22 s before a run started).
constexpr std::uint64_t MaxBatchRuns = 100000;

/// How many runs \p R's scans expand to: the product of the axes' sizes
/// (saturating), 1 without a scan.
std::uint64_t scanCount(const BatchRun &R);
/// The \p Index-th point of \p R's scans (Index < scanCount(R)), one value
/// per axis in axis order, the first-written axis varying slowest (nested
/// loops in the order written); empty without a scan. Computed from the
/// index, so no list of every point is ever built.
std::vector<double> scanPoint(const BatchRun &R, std::uint64_t Index);

/// The events file of \p R's \p Index-th scan point: its events_out with
/// every "{run}" replaced by the run's name and every "{point}" by
/// Index + 1, so that [defaults] and scans can name one file per run and
/// point; the reader refuses two runs or points that would share one.
std::string eventsPath(const BatchRun &R, std::uint64_t Index);

} // namespace vf

#endif // VF_TOOLS_VEGASC_BATCHCONFIG_H
