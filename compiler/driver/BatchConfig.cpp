//===- driver/BatchConfig.cpp - Read the TOML file of a batch -------------===//
//
// Parses the batch file with toml++ and checks it key by key. Every mistake
// is reported with the file, line and column of the offending key or value
// (toml++ keeps source regions) and the parse goes on, so one pass lists
// them all: a TOML syntax error, an unknown key (with "did you mean"), a
// value of the wrong type or out of range, a run with neither or both of
// `file` and `source`, a scan that also appears in `params`.
//
// toml++ is used header-only and without exceptions (parse() then returns a
// parse_result): Debian's package would otherwise add a shared library to
// vegasc, which depends only on libc, libstdc++, zlib and zstd.
//
//===----------------------------------------------------------------------===//

#include "driver/BatchConfig.h"

#include "driver/Driver.h"
#include "frontend/Diagnostics.h"
#include "vf/Integrator.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>

using namespace llvm;

namespace vf {

namespace {

constexpr StringRef SettingKeys[] = {
    "devices",  "calls", "iterations", "warmup", "seed",
    "schedule", "alpha", "beta",       "ninc",   "on_nonfinite"};
constexpr StringRef DefaultsOnlyKeys[] = {"output", "csv"};
constexpr StringRef RunKeys[] = {"name",      "file",   "source",
                                 "integrand", "params", "scan"};
constexpr StringRef TopKeys[] = {"defaults", "run"};
constexpr StringRef RangeKeys[] = {"from", "to", "steps", "log"};

const char *typeName(const toml::node &N) {
  switch (N.type()) {
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a floating-point number";
  case toml::node_type::boolean:
    return "a boolean";
  default:
    return "a date or time";
  }
}

/// Rounds to 15 significant digits, so that a range from 0.05 to 0.2 in 4
/// steps is 0.05, 0.1, 0.15, 0.2 and not 0.15000000000000002.
double round15(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof(Buf), "%.15g", V);
  return std::strtod(Buf, nullptr);
}

class Parser {
public:
  Parser(BatchConfig &C, DiagEngine &D, unsigned Buf)
      : C(C), Diags(D), BufferID(Buf) {}

  void parse(const toml::table &Top);

private:
  SMLoc loc(const toml::source_region &R) const {
    if (R.begin.line == 0)
      return SMLoc();
    return C.SM.FindLocForLineAndColumn(BufferID, R.begin.line, R.begin.column);
  }
  SMLoc loc(const toml::node &N) const { return loc(N.source()); }
  SMLoc loc(const toml::key &K) const { return loc(K.source()); }

  void error(SMLoc L, const Twine &Msg) { Diags.error(L, Msg); }
  void unknownKey(const toml::key &K, StringRef Where,
                  ArrayRef<StringRef> Known, StringRef Hint = "");
  /// Keys of \p T sorted by their position in the file.
  static std::vector<std::pair<const toml::key *, const toml::node *>>
  ordered(const toml::table &T);

  bool number(const toml::key &K, const toml::node &N, double &V);
  bool integer(const toml::key &K, const toml::node &N, std::int64_t Lo,
               std::int64_t Hi, std::int64_t &V, const char *What);
  bool string(const toml::key &K, const toml::node &N, std::string &S);
  /// Handles one of SettingKeys; false if \p K is not a setting.
  bool setting(const toml::key &K, const toml::node &N, BatchSettings &S);
  void parseDefaults(const toml::node &N);
  void parseRun(const toml::node &N, unsigned Index);
  void parseParams(const toml::node &N, BatchRun &R);
  void parseScan(const toml::node &N, BatchRun &R);
  bool parseRange(const toml::key &K, const toml::table &T,
                  std::vector<double> &Values);
  std::string resolve(StringRef P) const;
  void padInlineSource(const toml::node &N, BatchRun &R);

  BatchConfig &C;
  DiagEngine &Diags;
  unsigned BufferID;
};

std::vector<std::pair<const toml::key *, const toml::node *>>
Parser::ordered(const toml::table &T) {
  std::vector<std::pair<const toml::key *, const toml::node *>> Out;
  for (auto &&[K, N] : T)
    Out.emplace_back(&K, &N);
  llvm::sort(Out, [](const auto &A, const auto &B) {
    const auto &PA = A.first->source().begin, &PB = B.first->source().begin;
    return PA.line != PB.line ? PA.line < PB.line : PA.column < PB.column;
  });
  return Out;
}

void Parser::unknownKey(const toml::key &K, StringRef Where,
                        ArrayRef<StringRef> Known, StringRef Hint) {
  StringRef Best = closestName(K.str(), Known);
  std::string Msg =
      "unknown key '" + std::string(K.str()) + "' in " + Where.str();
  if (!Best.empty())
    Msg += "; did you mean '" + Best.str() + "'?";
  else if (!Hint.empty())
    Msg += "; " + Hint.str();
  error(loc(K), Msg);
}

bool Parser::number(const toml::key &K, const toml::node &N, double &V) {
  if (auto I = N.as_integer()) {
    V = double(I->get());
    return true;
  }
  if (auto F = N.as_floating_point()) {
    V = F->get();
    if (std::isfinite(V))
      return true;
    error(loc(N), "'" + std::string(K.str()) + "' must be a finite number");
    return false;
  }
  error(loc(N),
        "'" + std::string(K.str()) + "' must be a number, got " + typeName(N));
  return false;
}

bool Parser::integer(const toml::key &K, const toml::node &N, std::int64_t Lo,
                     std::int64_t Hi, std::int64_t &V, const char *What) {
  auto I = N.as_integer();
  if (!I || I->get() < Lo || I->get() > Hi) {
    std::string Got = I ? std::to_string(I->get()) : typeName(N);
    error(loc(N),
          "'" + std::string(K.str()) + "' must be " + What + ", got " + Got);
    return false;
  }
  V = I->get();
  return true;
}

bool Parser::string(const toml::key &K, const toml::node &N, std::string &S) {
  auto Str = N.as_string();
  if (!Str) {
    error(loc(N), "'" + std::string(K.str()) + "' must be a string, got " +
                      typeName(N));
    return false;
  }
  S = Str->get();
  return true;
}

bool Parser::setting(const toml::key &K, const toml::node &N,
                     BatchSettings &S) {
  StringRef Key = K.str();
  std::int64_t I;
  double D;
  std::string Str;
  if (Key == "calls") {
    // A whole number; 1e6 (a float in TOML) is accepted like --calls 1e6.
    double V = -1;
    if (auto F = N.as_floating_point())
      V = F->get();
    else if (auto In = N.as_integer())
      V = double(In->get());
    if (!(V >= 2) || V > 1e18 || V != std::floor(V)) {
      std::string Got = typeName(N);
      if (N.is_number()) {
        char Buf[40];
        std::snprintf(Buf, sizeof(Buf), "%.17g", V);
        Got = Buf;
      }
      error(loc(N), "'calls' must be a whole number of samples >= 2 (e.g. "
                    "100000 or 1e5), got " +
                        Got);
    } else {
      S.Calls = std::uint64_t(V);
    }
  } else if (Key == "iterations") {
    if (integer(K, N, 1, 1000000, I, "an integer from 1 to 1000000"))
      S.Iterations = unsigned(I);
  } else if (Key == "warmup") {
    if (integer(K, N, 0, 1000000, I, "an integer from 0 to 1000000"))
      S.Warmup = unsigned(I);
  } else if (Key == "seed") {
    if (integer(K, N, 0, std::numeric_limits<std::int64_t>::max(), I,
                "a non-negative integer"))
      S.Seed = std::uint64_t(I);
  } else if (Key == "ninc") {
    if (integer(K, N, 2, 100000, I, "an integer from 2 to 100000"))
      S.Ninc = unsigned(I);
  } else if (Key == "alpha") {
    if (number(K, N, D)) {
      if (D < 0)
        error(loc(N), "'alpha' must be >= 0 (0: no map adaptation)");
      else
        S.Alpha = D;
    }
  } else if (Key == "beta") {
    if (number(K, N, D)) {
      if (D < 0 || D > 1)
        error(loc(N), "'beta' must be between 0 and 1 (0: classic VEGAS)");
      else
        S.Beta = D;
    }
  } else if (Key == "devices") {
    if (string(K, N, Str)) {
      // The same list as --devices; a device this machine lacks (a GPU)
      // is reported per run, when the integrator sets it up.
      IntegratorOptions Probe;
      if (std::string Msg = parseDeviceList(Str, Probe); !Msg.empty())
        error(loc(N), "devices = " + Msg);
      else {
        S.Devices = Str;
        S.DevicesLoc = loc(N);
      }
    }
  } else if (Key == "schedule") {
    if (string(K, N, Str)) {
      if (Status St = checkSchedule(Str); !St) {
        StringRef Best =
            closestName(Str, {"adaptive", "guided", "static", "dynamic"});
        error(loc(N),
              "'schedule': " + St.message() +
                  (Best.empty() ? std::string()
                                : "; did you mean \"" + Best.str() + "\"?"));
      } else {
        S.Schedule = Str;
      }
    }
  } else if (Key == "on_nonfinite") {
    if (string(K, N, Str)) {
      if (Str != "stop" && Str != "zero")
        error(loc(N), "'on_nonfinite' must be \"stop\" or \"zero\", got \"" +
                          Str + "\"");
      else
        S.OnNonFinite = Str;
    }
  } else {
    return false;
  }
  return true;
}

std::string Parser::resolve(StringRef P) const {
  if (sys::path::is_absolute(P) || C.Dir.empty())
    return P.str();
  SmallString<256> Full(C.Dir);
  sys::path::append(Full, P);
  return std::string(Full);
}

void Parser::parseDefaults(const toml::node &N) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N), "'defaults' must be a table: write [defaults], got " +
                      Twine(typeName(N)));
    return;
  }
  for (auto [K, V] : ordered(*T)) {
    if (setting(*K, *V, C.Defaults))
      continue;
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
    SmallVector<StringRef, 16> Known(std::begin(SettingKeys),
                                     std::end(SettingKeys));
    Known.append(std::begin(DefaultsOnlyKeys), std::end(DefaultsOnlyKeys));
    unknownKey(*K, "[defaults]", Known);
  }
}

void Parser::padInlineSource(const toml::node &N, BatchRun &R) {
  // Place the source where it is in the TOML file: its first character is
  // after the opening quote(s), or on the next line when a multi-line
  // string starts with a newline (which TOML drops).
  auto Begin = N.source().begin;
  unsigned Line = Begin.line, Col = Begin.column;
  SMLoc L = loc(N);
  if (L.isValid()) {
    const char *P = L.getPointer();
    const char *End = C.SM.getMemoryBuffer(BufferID)->getBufferEnd();
    StringRef Rest(P, End - P);
    if (Rest.starts_with("\"\"\"") || Rest.starts_with("'''")) {
      Rest = Rest.drop_front(3);
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
                      Twine(typeName(N)));
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
    StringRef S = RK->str();
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
  Ok &= integer(toml::key("steps"), *Steps, 2, 1000000, NSteps,
                "an integer from 2 to 1000000");
  if (Log) {
    if (auto Bo = Log->as_boolean())
      IsLog = Bo->get();
    else {
      error(loc(*Log),
            "'log' must be true or false, got " + Twine(typeName(*Log)));
      Ok = false;
    }
  }
  if (!Ok)
    return false;
  if (IsLog && (A <= 0 || B <= 0)) {
    error(loc(T), "a log range needs from > 0 and to > 0");
    return false;
  }
  for (std::int64_t I = 0; I < NSteps; ++I) {
    double F = double(I) / double(NSteps - 1);
    double V = I == NSteps - 1 ? B
               : IsLog         ? A * std::pow(B / A, F)
                               : A + (B - A) * F;
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
                      Twine(typeName(N)));
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
                         typeName(*V));
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

void Parser::parseRun(const toml::node &N, unsigned Index) {
  const toml::table *T = N.as_table();
  if (!T) {
    error(loc(N),
          "each run must be a table: write [[run]], got " + Twine(typeName(N)));
    return;
  }
  BatchRun R;
  R.Settings = C.Defaults;
  R.Loc = loc(N);
  const toml::node *ParamsNode = nullptr, *ScanNode = nullptr;
  const toml::key *NameKey = nullptr;
  bool HasName = false;
  for (auto [K, V] : ordered(*T)) {
    if (!R.Loc.isValid())
      R.Loc = loc(*K);
    StringRef S = K->str();
    if (setting(*K, *V, R.Settings))
      continue;
    if (S == "name") {
      if (string(*K, *V, R.Name)) {
        if (R.Name.empty())
          error(loc(*V), "'name' must not be empty");
        HasName = true;
        NameKey = K;
      }
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
    } else if (S == "output" || S == "csv") {
      error(loc(*K), "'" + S.str() +
                         "' belongs in [defaults]: a batch "
                         "writes one document for all its runs");
    } else {
      SmallVector<StringRef, 16> Known(std::begin(RunKeys), std::end(RunKeys));
      Known.append(std::begin(SettingKeys), std::end(SettingKeys));
      // A misspelt output key is suggested, then refused above.
      Known.append(std::begin(DefaultsOnlyKeys), std::end(DefaultsOnlyKeys));
      unknownKey(*K, "[[run]]", Known);
    }
  }
  // Params before the scan, whatever their order, so that a parameter in
  // both is caught.
  if (ParamsNode)
    parseParams(*ParamsNode, R);
  if (ScanNode)
    parseScan(*ScanNode, R);

  if (!HasName) {
    R.Name = !R.File.empty()
                 ? sys::path::stem(R.File).str()
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
      if (HasName) {
        error(loc(*NameKey), "two runs are named '" + R.Name + "'");
        Diags.note(Other.Loc, "the other run");
      } else {
        R.Name += "#" + std::to_string(Index + 1);
      }
      break;
    }
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
  if (C.Runs.empty() && !Diags.hasErrors())
    Diags.errorNoLoc(C.Path + ": no [[run]] entries; add one, e.g.\n"
                              "  [[run]]\n  file = \"integrand.vf\"");
}

} // namespace

bool parseBatchConfig(StringRef Path, BatchConfig &C, DiagEngine &Diags) {
  C.Path = Path.str();
  C.Dir = sys::path::parent_path(Path).str();
  auto BufOr = MemoryBuffer::getFile(Path, /*IsText=*/true);
  if (!BufOr) {
    Diags.errorNoLoc("cannot read '" + Path +
                     "': " + BufOr.getError().message());
    return false;
  }
  std::string Text = (*BufOr)->getBuffer().str();
  unsigned Buf = C.SM.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  toml::parse_result Parsed = toml::parse(Text, C.Path);
  if (!Parsed) {
    const toml::parse_error &E = Parsed.error();
    auto B = E.source().begin;
    SMLoc L =
        B.line ? C.SM.FindLocForLineAndColumn(Buf, B.line, B.column) : SMLoc();
    std::string Msg = "invalid TOML: " + std::string(E.description());
    if (L.isValid())
      Diags.error(L, Msg);
    else
      Diags.errorNoLoc(C.Path + ": " + Msg);
    return false;
  }
  unsigned Before = Diags.errorCount();
  Parser(C, Diags, Buf).parse(Parsed.table());
  return Diags.errorCount() == Before;
}

std::vector<std::vector<double>> scanPoints(const BatchRun &R) {
  std::vector<std::vector<double>> Points(1);
  for (const BatchScanAxis &A : R.Scan) {
    std::vector<std::vector<double>> Next;
    for (const std::vector<double> &P : Points)
      for (double V : A.Values) {
        Next.push_back(P);
        Next.back().push_back(V);
      }
    Points = std::move(Next);
  }
  return Points;
}

} // namespace vf
