//===- vegasc/BatchConfig.cpp - Read the TOML file of a batch -------------===//
//
// Parses the batch file with toml++ and checks its tables key by key. Every
// mistake is reported with the file, line and column of the offending key
// or value (TomlReader) and the parse goes on, so one pass lists them all:
// a TOML syntax error, an unknown key (with "did you mean"), a value of the
// wrong type or one the library refuses (BatchSettings.cpp), a run with
// neither or both of `file` and `source`, a scan that also appears in
// `params`.
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchConfig.h"

#include "vegasc/BatchScanKeys.h"
#include "vegasc/BatchSettings.h"
#include "vegasc/PathNames.h"
#include "vf/CommandLine.h"
#include "vf/OutputGuard.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>

namespace vf {

namespace {

constexpr std::string_view DefaultsOnlyKeys[] = {"output", "csv", "csv_layout"};
constexpr std::string_view RunKeys[] = {"name",   "file", "source", "integrand",
                                        "params", "scan", "seeds"};
constexpr std::string_view TopKeys[] = {"defaults", "run"};
constexpr std::string_view RangeKeys[] = {"from", "to", "steps", "log"};

/// Rounds to 15 significant digits, so that a range from 0.05 to 0.2 in 4
/// steps is 0.05, 0.1, 0.15, 0.2 and not 0.15000000000000002.
double round15(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.15g", V);
  return std::strtod(Buf, nullptr);
}

class Parser : public ScanKeysReader {
public:
  using ScanKeysReader::ScanKeysReader;

  void parse(const toml::table &Top);

private:
  void parseDefaults(const toml::node &N);
  void parseRun(const toml::node &N, unsigned Index);
  void parseParams(const toml::node &N, BatchRun &R);
  void parseScan(const toml::node &N, BatchRun &R);
  bool parseRange(const toml::key &K, const toml::table &T,
                  std::vector<double> &Values);
  void checkRunCount(const BatchRun &R);
  /// A run's `name = ...`: true when it is one (empty or with a control
  /// character it is an error).
  bool readRunName(const toml::key &K, const toml::node &V, BatchRun &R);
  /// The run's name where none is given, its file or source checked, and
  /// explicit names unique (\p NameKey: the run's `name`, or null).
  void finishRun(BatchRun &R, unsigned Index, const toml::key *NameKey);
  void checkEventFiles(const BatchRun &R);
  /// Events files of the runs read so far, each with the run that writes it.
  std::map<std::string, std::string> EventFiles;
  /// Runs of the entries read so far, their scans expanded.
  std::uint64_t Runs = 0;
  void padInlineSource(const toml::node &N, BatchRun &R);
};

void Parser::parseDefaults(const toml::node &N) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N), "'defaults' must be a table: write [defaults], got " +
                      std::string(tomlTypeName(N)));
    return;
  }
  for (auto [K, V] : ordered(*T)) {
    if (setting(*K, *V, C.Defaults))
      continue;
    if (K->str() == "seeds") {
      readSeeds(*V, C.Defaults, false);
      continue;
    }
    if (K->str() == "csv_layout") {
      readCsvLayout(*V);
      continue;
    }
    std::string S;
    if (K->str() == "output" || K->str() == "csv") {
      if (string(*K, *V, S)) {
        if (S.empty())
          error(loc(*V), "'" + std::string(K->str()) + "' must name a file");
        else
          (K->str() == "output" ? C.Output : C.Csv) = resolve(S);
      }
      continue;
    }
    std::vector<std::string_view> Known = settingKeys();
    Known.insert(Known.end(), std::begin(DefaultsOnlyKeys),
                 std::end(DefaultsOnlyKeys));
    Known.push_back("seeds");
    unknownKey(*K, "[defaults]", Known);
  }
}

void Parser::padInlineSource(const toml::node &N, BatchRun &R) {
  // Place the source where it is in the TOML file: its first character is
  // after the opening quote(s), or on the next line when a multi-line
  // string starts with a newline (which TOML drops).
  auto Begin = N.source().begin;
  unsigned Line = Begin.line, Col = Begin.column;
  TextLoc L = loc(N);
  if (L.isValid()) {
    std::string_view Rest = Diags.textFrom(L);
    if (Rest.starts_with("\"\"\"") || Rest.starts_with("'''")) {
      Rest.remove_prefix(3);
      if (Rest.starts_with("\n") || Rest.starts_with("\r\n")) {
        ++Line;
        Col = 1;
      } else {
        Col += 3;
      }
    } else {
      Col += 1;
    }
  }
  R.Source = std::string(Line ? Line - 1 : 0, '\n') +
             std::string(Col ? Col - 1 : 0, ' ') + R.RawSource;
}

void Parser::parseParams(const toml::node &N, BatchRun &R) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N), "'params' must be a table of numbers, e.g. params = { a "
                  "= 0.05 }, got " +
                      std::string(tomlTypeName(N)));
    return;
  }
  for (auto [K, V] : ordered(*T)) {
    double D;
    if (number(*K, *V, D))
      R.Params.push_back({std::string(K->str()), D, loc(*K)});
  }
}

bool Parser::parseRange(const toml::key &K, const toml::table &T,
                        std::vector<double> &Values) {
  const toml::node *From = nullptr, *To = nullptr, *Steps = nullptr,
                   *Log = nullptr;
  bool Ok = true;
  for (auto [RK, RV] : ordered(T)) {
    std::string_view S = RK->str();
    if (S == "from")
      From = RV;
    else if (S == "to")
      To = RV;
    else if (S == "steps")
      Steps = RV;
    else if (S == "log")
      Log = RV;
    else {
      unknownKey(*RK, "the range of '" + std::string(K.str()) + "'", RangeKeys);
      Ok = false;
    }
  }
  if (!Ok) // a misspelt key: one error is enough
    return false;
  if (!From || !To || !Steps) {
    error(loc(T), "the range of '" + std::string(K.str()) +
                      "' needs from, to and steps, e.g. { from = 0.05, to = "
                      "0.2, steps = 4 }");
    return false;
  }
  double A, B;
  std::int64_t NSteps;
  bool IsLog = false;
  Ok &= number(toml::key("from"), *From, A);
  Ok &= number(toml::key("to"), *To, B);
  Ok &= integer(toml::key("steps"), *Steps, 2, std::int64_t(MaxBatchRuns),
                NSteps,
                ("an integer from 2 to " + std::to_string(MaxBatchRuns)).c_str());
  if (Log) {
    if (auto Bo = Log->as_boolean())
      IsLog = Bo->get();
    else {
      error(loc(*Log), "'log' must be true or false, got " +
                           std::string(tomlTypeName(*Log)));
      Ok = false;
    }
  }
  if (!Ok)
    return false;
  if (IsLog && (A <= 0 || B <= 0)) {
    error(loc(T), "a log range needs from > 0 and to > 0");
    return false;
  }
  // B / A (or B - A) can overflow across the whole double range: then the
  // steps are taken in log space (or halved), never an inf point.
  const bool Wide =
      IsLog ? !std::isfinite(B / A) || B / A == 0 : !std::isfinite(B - A);
  for (std::int64_t I = 0; I < NSteps; ++I) {
    double F = double(I) / double(NSteps - 1);
    double V = I == NSteps - 1 ? B
               : IsLog && Wide
                   ? std::exp(std::log(A) + (std::log(B) - std::log(A)) * F)
               : IsLog ? A * std::pow(B / A, F)
               : Wide  ? A * (1 - F) + B * F
                       : A + (B - A) * F;
    if (!std::isfinite(round15(V))) {
      error(loc(T), "the range of '" + std::string(K.str()) +
                        "' gives a point that is not a finite number (" +
                        std::to_string(V) + "); narrow it");
      return false;
    }
    Values.push_back(round15(V));
  }
  return true;
}

void Parser::parseScan(const toml::node &N, BatchRun &R) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N), "'scan' must be a table, e.g. scan = { a = [0.05, 0.1] } "
                  "or scan = { a = { from = 0.05, to = 0.2, steps = 4 } }, "
                  "got " +
                      std::string(tomlTypeName(N)));
    return;
  }
  for (auto [K, V] : ordered(*T)) {
    BatchScanAxis Axis{std::string(K->str()), {}, loc(*K)};
    bool Ok = true;
    if (const toml::array *A = V->as_array()) {
      if (A->empty()) {
        error(loc(*V), "the scan of '" + Axis.Name + "' has no values");
        Ok = false;
      }
      for (const toml::node &E : *A) {
        double D;
        if (number(*K, E, D))
          Axis.Values.push_back(D);
        else
          Ok = false;
      }
    } else if (const toml::table *RT = V->as_table()) {
      Ok = parseRange(*K, *RT, Axis.Values);
    } else {
      error(loc(*V), "the scan of '" + Axis.Name +
                         "' must be a list of numbers ([0.05, 0.1]) or a "
                         "range ({ from = 0.05, to = 0.2, steps = 4 }), got " +
                         tomlTypeName(*V));
      Ok = false;
    }
    for (const BatchParam &P : R.Params)
      if (P.Name == Axis.Name) {
        error(Axis.Loc, "'" + Axis.Name +
                            "' is both scanned and set in 'params'; keep one");
        Diags.note(P.Loc, "set in 'params' here");
        Ok = false;
      }
    if (Ok)
      R.Scan.push_back(std::move(Axis));
  }
}

/// Refuses a scan that would take the batch beyond MaxBatchRuns, before
/// any point is made, saying how the count comes about.
void Parser::checkRunCount(const BatchRun &R) {
  const std::uint64_t N = scanCount(R);
  const std::uint64_t Total = N > UINT64_MAX - Runs ? UINT64_MAX : Runs + N;
  if (Total <= MaxBatchRuns) {
    Runs = Total; // a refused entry is not counted: one error, not a cascade
    return;
  }
  auto Count = [](std::uint64_t V) {
    return V == UINT64_MAX ? std::string("more than 2^64") : std::to_string(V);
  };
  const std::string Limit = "a batch may have at most " +
                            std::to_string(MaxBatchRuns) +
                            " runs: scan fewer values or split the batch";
  if (R.Scan.empty()) {
    error(R.Loc, "this run makes " + Count(Total) + " in the batch; " + Limit);
    return;
  }
  std::string Product;
  for (const BatchScanAxis &A : R.Scan)
    Product += (Product.empty() ? "" : " x ") + A.Name + ": " +
               std::to_string(A.Values.size());
  error(R.ScanLoc, "the scan expands to " + Count(N) + " runs (" + Product +
                       ")" +
                       (Total != N ? ", " + Count(Total) + " in the batch" : "") +
                       "; " + Limit);
}

/// Refuses a run whose events file another run (or another point of its
/// scan) writes too: the second would replace the first's events.
void Parser::checkEventFiles(const BatchRun &R) {
  if (!R.Settings.Events.Count || R.Settings.Events.Out.empty() ||
      scanCount(R) > MaxBatchRuns)
    return;
  if (R.Settings.Events.Out.find("{run}") != std::string::npos)
    if (Status S = checkPathPart(R.Name, "the run name"); !S) {
      error(R.Settings.EventsOutLoc.isValid() ? R.Settings.EventsOutLoc : R.Loc,
            "'events_out' puts the run's name into the file name: " +
                S.message());
      return;
    }
  for (std::uint64_t P = 0, N = scanCount(R); P < N; ++P) {
    const std::string Path = eventsPath(R, P);
    auto [It, New] = EventFiles.emplace(Path, R.Name);
    if (New)
      continue;
    error(R.Settings.EventsOutLoc.isValid() ? R.Settings.EventsOutLoc : R.Loc,
          "run '" + R.Name + "' would write its events to '" + Path +
              "', as " +
              (It->second == R.Name ? std::string("another point of its scan")
                                    : "run '" + It->second + "'") +
              " does; give each its own 'events_out' (\"{run}\" and "
              "\"{point}\" in it are replaced by the run's name and the scan "
              "point's number)");
    return;
  }
}

bool Parser::readRunName(const toml::key &K, const toml::node &V, BatchRun &R) {
  if (!string(K, V, R.Name))
    return false;
  if (R.Name.empty())
    error(loc(V), "'name' must not be empty");
  // A name is printed in tables and messages: a control character there
  // would drive the terminal, not name the run.
  else if (std::any_of(R.Name.begin(), R.Name.end(), [](char C) {
             return static_cast<unsigned char>(C) < 0x20 || C == 0x7f;
           }))
    error(loc(V), "'name' holds a control character; use printable "
                  "characters");
  return true;
}

void Parser::finishRun(BatchRun &R, unsigned Index, const toml::key *NameKey) {
  if (!NameKey) {
    R.Name = !R.File.empty()
                 ? std::string(fileStem(R.File))
                 : (!R.Integrand.empty() ? R.Integrand
                                         : "run" + std::to_string(Index + 1));
  }
  if (R.FileLoc.isValid() && R.Inline) {
    error(R.SourceLoc,
          "[[run]] '" + R.Name + "' has both 'file' and 'source'; keep one");
    Diags.note(R.FileLoc, "'file' given here");
  } else if (!R.FileLoc.isValid() && !R.Inline) {
    error(R.Loc, "[[run]] '" + R.Name +
                     "' needs a .vf file (file = \"lepage.vf\") or inline "
                     "code (source = \"\"\"...\"\"\")");
  }
  // Explicit names are unique; derived ones get the entry's number.
  for (const BatchRun &Other : C.Runs)
    if (Other.Name == R.Name) {
      if (NameKey) {
        error(loc(*NameKey), "two runs are named '" + R.Name + "'");
        Diags.note(Other.Loc, "the other run");
      } else {
        R.Name += "#" + std::to_string(Index + 1);
      }
      break;
    }
}

void Parser::parseRun(const toml::node &N, unsigned Index) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N), "each run must be a table: write [[run]], got " +
                      std::string(tomlTypeName(N)));
    return;
  }
  BatchRun R;
  R.Settings = C.Defaults;
  R.Loc = loc(N);
  const toml::node *ParamsNode = nullptr, *ScanNode = nullptr;
  const toml::key *NameKey = nullptr;
  for (auto [K, V] : ordered(*T)) {
    if (!R.Loc.isValid())
      R.Loc = loc(*K);
    std::string_view S = K->str();
    if (setting(*K, *V, R.Settings))
      continue;
    if (S == "name") {
      if (readRunName(*K, *V, R))
        NameKey = K;
    } else if (S == "file") {
      if (string(*K, *V, R.File)) {
        R.FilePath = resolve(R.File);
        R.FileLoc = loc(*K);
      }
    } else if (S == "source") {
      if (string(*K, *V, R.RawSource)) {
        R.Inline = true;
        R.SourceLoc = loc(*K);
        padInlineSource(*V, R);
      }
    } else if (S == "integrand") {
      if (string(*K, *V, R.Integrand))
        R.IntegrandLoc = loc(*K);
    } else if (S == "params") {
      ParamsNode = V;
    } else if (S == "scan") {
      ScanNode = V;
    } else if (S == "seeds") {
      readSeeds(*V, R.Settings, true);
    } else if (S == "output" || S == "csv" || S == "csv_layout") {
      error(loc(*K), "'" + std::string(S) +
                         "' belongs in [defaults]: a batch "
                         "writes one document for all its runs");
    } else {
      std::vector<std::string_view> Known(std::begin(RunKeys),
                                          std::end(RunKeys));
      const std::vector<std::string_view> Settings = settingKeys();
      Known.insert(Known.end(), Settings.begin(), Settings.end());
      // A misspelt output key is suggested, then refused above.
      Known.insert(Known.end(), std::begin(DefaultsOnlyKeys),
                   std::end(DefaultsOnlyKeys));
      unknownKey(*K, "[[run]]", Known);
    }
  }
  // Params before the scan, whatever their order, so that a parameter in
  // both is caught.
  if (ParamsNode)
    parseParams(*ParamsNode, R);
  if (ScanNode) {
    R.ScanLoc = loc(*ScanNode);
    parseScan(*ScanNode, R);
  }
  checkRunCount(R);
  checkSeedCount(R);

  finishRun(R, Index, NameKey);
  convert(R.Settings, R.Options, R.Loc);
  checkEventFiles(R);
  C.Runs.push_back(std::move(R));
}

void Parser::parse(const toml::table &Top) {
  const toml::node *Runs = nullptr;
  for (auto [K, V] : ordered(Top)) {
    if (K->str() == "defaults")
      parseDefaults(*V);
    else if (K->str() == "run")
      Runs = V;
    else
      unknownKey(*K, "the batch file", TopKeys,
                 "a batch file has a [defaults] table and [[run]] entries");
  }
  // The runs after [defaults], wherever it is written: they inherit it.
  if (Runs) {
    if (const toml::array *A = Runs->as_array()) {
      unsigned Index = 0;
      for (const toml::node &R : *A)
        parseRun(R, Index++);
    } else {
      error(loc(*Runs), "'run' must be an array of tables: write [[run]] "
                        "before each entry");
    }
  }
  // A scan's table is a row per point by default: a curve to plot.
  if (!LayoutGiven)
    C.Layout = std::any_of(C.Runs.begin(), C.Runs.end(),
                           [](const BatchRun &R) { return !R.Scan.empty(); })
                   ? CsvLayout::Wide
                   : CsvLayout::Long;
  if (C.Runs.empty() && !Diags.hasErrors())
    Diags.errorNoLoc(C.Path + ": no [[run]] entries; add one, e.g.\n"
                              "  [[run]]\n  file = \"integrand.vf\"");
}

} // namespace

bool parseBatchConfig(const std::string &Path, BatchConfig &C,
                      LocatedErrors &Diags) {
  C.Path = Path;
  C.Dir = parentPath(Path);
  // As a source is read: a regular file, bounded (readSourceFile).
  Expected<std::string> Text = readSourceText(C.Path);
  if (!Text) {
    Diags.errorNoLoc(Text.error().Message);
    return false;
  }
  Diags.setText(C.Path, *Text);
  toml::parse_result Parsed = toml::parse(*Text, C.Path);
  if (!Parsed) {
    const toml::parse_error &E = Parsed.error();
    auto B = E.source().begin;
    TextLoc L = Diags.locate(B.line, B.column);
    std::string Msg = "invalid TOML: " + std::string(E.description());
    if (L.isValid())
      Diags.error(L, Msg);
    else
      Diags.errorNoLoc(C.Path + ": " + Msg);
    return false;
  }
  unsigned Before = Diags.errorCount();
  Parser(C, Diags).parse(Parsed.table());
  return Diags.errorCount() == Before;
}

std::string eventsPath(const BatchRun &R, std::uint64_t Index) {
  std::string P = R.Settings.Events.Out;
  auto Replace = [&P](std::string_view From, const std::string &To) {
    for (size_t At = 0; (At = P.find(From, At)) != std::string::npos;
         At += To.size())
      P.replace(At, From.size(), To);
  };
  Replace("{run}", R.Name);
  Replace("{point}", std::to_string(Index + 1));
  return P;
}

std::uint64_t scanCount(const BatchRun &R) {
  std::uint64_t N = 1;
  for (const BatchScanAxis &A : R.Scan)
    N = A.Values.size() && N > UINT64_MAX / A.Values.size()
            ? UINT64_MAX
            : N * A.Values.size();
  return N;
}

std::vector<double> scanPoint(const BatchRun &R, std::uint64_t Index) {
  std::vector<double> Point(R.Scan.size());
  // Mixed radix, the last axis the fastest digit.
  for (size_t K = R.Scan.size(); K-- > 0;) {
    const std::vector<double> &V = R.Scan[K].Values;
    Point[K] = V[Index % V.size()];
    Index /= V.size();
  }
  return Point;
}

} // namespace vf
