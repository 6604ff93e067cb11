//===- vegasc/Batch.cpp - vegasc's batch mode (TOML) ----------------------===//
//
// Runs a batch in three steps, through the public library only (vf::Module,
// vf::Integrator):
//
//  1. Read and check the TOML file (BatchConfig.cpp). Any error there stops
//     the batch before anything runs.
//  2. Prepare every [[run]]: compile its module (once per file or inline
//     source, whatever the number of runs and scan points that use it),
//     pick the integrand, check the parameter names. A failure here is
//     reported at the TOML key it concerns and fails that entry only.
//  3. Run each scan point with its own Integrator over the shared compiled
//     code, printing one summary row per run as it finishes. A failed run
//     is reported and the batch goes on, unless --fail-fast.
//
// Then the JSON document (every run's resultDocument, the document of
// vf::resultToJson, in a "runs" array) and the CSV file are written, also
// when some runs failed.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Batch.h"

#include "vegasc/BatchJob.h"

#include "vegasc/BatchConfig.h"
#include "vegasc/BatchScanKeys.h"
#include "vegasc/BatchSettings.h"
#include "vegasc/ClosestName.h"
#include "vegasc/Driver.h"
#include "vegasc/Format.h"
#include "vegasc/PathNames.h"
#include "vegasc/Streams.h"
#include "vf/EventFiles.h"
#include "vf/Integrator.h"
#include "vf/Module.h"
#include "vf/ResultDocument.h"
#include "vf/Version.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <optional>
#include <ostream>
#include <system_error>
#include <thread>

using json = nlohmann::ordered_json;

namespace vf {

bool isBatchFile(const std::string &File) {
  const std::string_view Ext = fileExtension(File);
  return Ext.size() == 5 &&
         std::equal(Ext.begin(), Ext.end(), ".toml", [](char A, char B) {
           return std::tolower(static_cast<unsigned char>(A)) == B;
         });
}

namespace {

std::string pointText(const BatchJob &J) {
  std::string S;
  for (const auto &[Name, V] : J.Point)
    S += (S.empty() ? "" : " ") + Name + "=" + shortest(V);
  return S.empty() ? "-" : S;
}

std::string describe(const BatchJob &J) {
  std::string S = "run '" + J.R->Name + "'";
  if (!J.Point.empty())
    S += " (" + pointText(J) + ")";
  return S;
}

class BatchRunner {
public:
  BatchRunner(const DriverOptions &O, const BatchOptions &B, BatchConfig &C,
              LocatedErrors &Diags)
      : O(O), B(B), C(C), Diags(Diags) {}
  int run();

private:
  std::shared_ptr<Module> module(const BatchRun &R, std::string &Why);
  bool prepare(const BatchRun &R, std::vector<BatchJob> &Out);
  /// The batch's last line (runs ok, failed, skipped); true when every run
  /// succeeded and wrote its events.
  bool sayCounts() const;
  /// \p R's parameters and scan axes set in \p Params (\p I's defaults);
  /// the first unknown name's message, or "" (each is reported).
  std::string runParams(const BatchRun &R, const IntegrandInfo &I,
                        std::vector<double> &Params);
  void integrate(BatchJob &J);
  void writeEvents(BatchJob &J, Integrator &Int);
  void printHeader(std::ostream &OS);
  void printRow(std::ostream &OS, const BatchJob &J);
  json runJson(const BatchJob &J) const;
  json settingsJson(const BatchJob &J) const;
  bool writeJson(const std::string &Path) const;

  const DriverOptions &O;
  const BatchOptions &B;
  BatchConfig &C;
  LocatedErrors &Diags;
  std::vector<BatchJob> Jobs;
  /// Compiled modules by file (real path) or inline source text; a null
  /// entry records a module that did not compile.
  std::map<std::string, std::shared_ptr<Module>> Modules;
  std::map<std::string, std::string> CompileErrors; ///< by the same key
  unsigned Compiled = 0, FromDiskCache = 0;
  size_t NameW = 3, PointW = 5;
};

std::shared_ptr<Module> BatchRunner::module(const BatchRun &R,
                                            std::string &Why) {
  std::string Key;
  if (R.Inline) {
    Key = "source:" + R.Source;
  } else {
    char Real[PATH_MAX];
    if (!::realpath(R.FilePath.c_str(), Real)) {
      const std::error_code EC(errno, std::generic_category());
      Why = "cannot read '" + R.FilePath + "': " + EC.message();
      Diags.error(R.FileLoc, "run '" + R.Name + "': cannot read '" + R.File +
                                 "'" +
                                 (R.File == R.FilePath
                                      ? std::string()
                                      : " (looked for '" + R.FilePath + "')") +
                                 ": " + EC.message());
      return nullptr;
    }
    Key = "file:" + std::string(Real);
  }
  auto It = Modules.find(Key);
  if (It == Modules.end()) {
    CompileSettings CS;
    CS.UseCache = !O.NoCache;
    CS.CacheDir = O.CacheDir;
    CS.PdfSets = pdfSetChoices(O.PdfSets);
    CS.PdfSets = pdfSetChoices(O.PdfSets);
    CS.Warnings = !O.NoWarnings;
    CS.ErrorLimit = O.ErrorLimit;
    // Inline code is named after the TOML file and padded to its place
    // there, so its diagnostics point into the TOML file.
    auto M = R.Inline ? Module::compileString(R.Source, C.Path, CS)
                      : Module::compileFile(R.FilePath, CS);
    std::shared_ptr<Module> Got;
    if (M) {
      Got = *M;
      ++Compiled;
      FromDiskCache += Got->fromCache();
      errs() << Got->warnings();
      if (O.Verbose)
        errs() << "vegasc: compiled "
               << (R.Inline ? "the inline source of run '" + R.Name + "'"
                            : "'" + R.FilePath + "'")
               << (Got->fromCache() ? " (from the disk cache)" : "") << "\n";
    } else {
      printCompileError(M.message());
      CompileErrors[Key] = withoutTrailingSpace(M.message());
    }
    It = Modules.emplace(Key, Got).first;
  }
  if (!It->second) {
    Why = CompileErrors[Key];
    Diags.error(
        R.Inline ? R.SourceLoc : R.FileLoc,
        "run '" + R.Name + "': " +
            (R.Inline ? std::string("the inline source") : "'" + R.File + "'") +
            " does not compile (errors above)");
  }
  return It->second;
}

/// Step 2 for one [[run]]: one BatchJob per scan point, or one failed BatchJob.
/// Parameter \p Name's slot in \p I's parameter block, or -1.
static int paramSlot(const IntegrandInfo &I, const std::string &Name) {
  auto It = std::find(I.ParamNames.begin(), I.ParamNames.end(), Name);
  return It == I.ParamNames.end() ? -1 : int(It - I.ParamNames.begin());
}

std::string BatchRunner::runParams(const BatchRun &R, const IntegrandInfo &I,
                                   std::vector<double> &Params) {
  const std::vector<std::string_view> Names(I.ParamNames.begin(),
                                            I.ParamNames.end());
  std::string Bad;
  auto Unknown = [&](const std::string &Name, TextLoc Loc, const char *Where) {
    const std::string_view Best = closestName(Name, Names);
    std::string Msg =
        "integrand '" + I.Name + "' has no parameter '" + Name + "'" +
        (Best.empty() ? std::string()
                      : "; did you mean '" + std::string(Best) + "'?");
    Diags.error(Loc, "run '" + R.Name + "': " + Msg + " (in '" + Where + "')");
    if (Bad.empty())
      Bad = Msg;
  };
  for (const BatchParam &P : R.Params) {
    if (int S = paramSlot(I, P.Name); S >= 0)
      Params[S] = P.Value;
    else
      Unknown(P.Name, P.Loc, "params");
  }
  for (const BatchScanAxis &A : R.Scan)
    if (paramSlot(I, A.Name) < 0)
      Unknown(A.Name, A.Loc, "scan");
  return Bad;
}

bool BatchRunner::prepare(const BatchRun &R, std::vector<BatchJob> &Out) {
  BatchJob Failed;
  Failed.R = &R;
  Failed.Seed = R.Settings.Seed;
  Failed.Status = RunStatus::Failed;
  auto FailWith = [&](std::string Msg) {
    Failed.Error = std::move(Msg);
    Out.push_back(std::move(Failed));
    return false;
  };
  std::string Why;
  std::shared_ptr<Module> M = module(R, Why);
  if (!M)
    return FailWith(Why);
  auto Info = M->integrand(R.Integrand);
  if (!Info) {
    std::string Msg = Info.message();
    if (R.Integrand.empty() && M->integrandNames().size() > 1)
      Msg += " with integrand = \"NAME\"";
    Diags.error(R.IntegrandLoc.isValid() ? R.IntegrandLoc : R.Loc,
                "run '" + R.Name + "': " + Msg);
    return FailWith(Msg);
  }
  auto Shared = std::make_shared<IntegrandInfo>(std::move(*Info));
  std::vector<double> Params = Shared->ParamDefaults;
  if (std::string Bad = runParams(R, *Shared, Params); !Bad.empty())
    return FailWith(Bad);
  std::shared_ptr<IntegrandInfo> Record;
  if (R.Settings.Events.Count) {
    auto Rec = eventRecord(*M, R.Settings, Shared->Name,
                           R.Inline ? "the inline source"
                                    : "'" + R.File + "'");
    if (!Rec) {
      const TextLoc At = R.Settings.EventRecordLoc.isValid()
                             ? R.Settings.EventRecordLoc
                             : R.Settings.EventsLoc;
      const std::string Msg = keyMessage(Rec.error());
      Diags.error(At.isValid() ? At : R.Loc, "run '" + R.Name + "': " + Msg);
      return FailWith(Msg);
    }
    Record = std::make_shared<IntegrandInfo>(std::move(*Rec));
  }

  const std::uint64_t Points = scanCount(R); // bounded by the reader
  for (std::uint64_t P = 0; P < Points; ++P) {
    const std::vector<double> Values = scanPoint(R, P);
    BatchJob J;
    J.R = &R;
    J.Info = Shared;
    J.Params = Params;
    J.Seed = scanSeed(R, P);
    J.Record = Record;
    // Checked when the file was read (eventFileOptions, checkEventFiles).
    if (Record) {
      J.Events = *eventFileOptions(R.Settings);
      J.Events.Path = eventsPath(R, P);
      // What would stop the file after the run is said before it.
      if (Status St = checkEventFile(*Shared, *Record, J.Events); !St) {
        const std::string Msg = keyMessage(St.error());
        const TextLoc At = R.Settings.EventsOutLoc.isValid()
                               ? R.Settings.EventsOutLoc
                               : R.Settings.EventsLoc;
        Diags.error(At.isValid() ? At : R.Loc, "run '" + R.Name + "': " + Msg);
        return FailWith(Msg);
      }
    }
    for (size_t K = 0; K < Values.size(); ++K) {
      J.Point.emplace_back(R.Scan[K].Name, Values[K]);
      J.Params[paramSlot(*Shared, R.Scan[K].Name)] = Values[K];
    }
    Out.push_back(std::move(J));
  }
  return true;
}

void BatchRunner::integrate(BatchJob &J) {
  const BatchSettings &S = J.R->Settings;
  auto Fail = [&](const Error &E) {
    J.Status = RunStatus::Failed;
    J.Error = keyMessage(E);
    errs() << "vegasc: error: " << describe(J) << ": " << J.Error << "\n";
  };
  IntegratorOptions Options = J.R->Options;
  Options.Seed = J.Seed;
  auto Int = Integrator::create(*J.Info, Options);
  if (!Int) {
    // The file's settings were checked when it was read: what create()
    // refuses is a device of `devices` (a GPU missing or unusable), so the
    // message points there.
    if (!S.DevicesLoc.isValid())
      return Fail(Int.error());
    J.Status = RunStatus::Failed;
    J.Error = keyMessage(Int.error());
    Diags.error(S.DevicesLoc, describe(J) + ": " + J.Error);
    return;
  }
  J.CpuThreads = cpuThreadsOf(**Int);
  for (size_t K = 0; K < J.Params.size(); ++K)
    if (Status St = (*Int)->setParam(J.Info->ParamNames[K], J.Params[K]); !St)
      return Fail(St.error());
  auto R = (*Int)->run(S.iterationCap(), S.Calls, S.Warmup);
  if (!R)
    return Fail(R.error());
  J.Res = std::move(*R);
  J.Grid = (*Int)->grid();
  bool Finite = true;
  for (unsigned K = 0; K < J.Res.Mean.size(); ++K)
    Finite &= std::isfinite(J.Res.Mean[K]) && std::isfinite(J.Res.Error[K]);
  if (!Finite)
    return Fail(Error{"the estimate is not finite (every sample was NaN or "
                      "infinite, or they overflowed)"});
  J.Status = RunStatus::Ok;
  if (J.Events.Events)
    writeEvents(J, **Int);
  if (J.Res.Variance.Unstable && !O.NoWarnings && !O.Quiet)
    errs() << "vegasc: warning: " << describe(J) << ": "
           << J.Res.Variance.Message << "\n";
  if (J.Res.Q < 0.05 && !O.NoWarnings && !O.Quiet)
    errs() << "vegasc: warning: " << describe(J)
           << ": Q = " << printfDouble("%.3g", J.Res.Q)
           << " < 0.05: the iterations disagree more than their errors "
              "allow; try more calls or warmup\n";
}

/// After a run that succeeded: its events_out. A failure is said at the
/// key; the run's result stands (the JSON and the table have it).
void BatchRunner::writeEvents(BatchJob &J, Integrator &Int) {
  auto Rep = writeRunEvents(Int, *J.Record, J.Events, J.Res);
  if (!Rep) {
    J.EventsError = Rep.message();
    const TextLoc At = J.R->Settings.EventsOutLoc;
    const std::string Msg = describe(J) + ": 'events_out': " + J.EventsError +
                            " (the run's result is complete and written)";
    if (At.isValid())
      Diags.error(At, Msg);
    else
      errs() << "vegasc: error: " << Msg << "\n";
    return;
  }
  J.EventsWritten = *Rep;
  if (!O.Quiet)
    errs() << "vegasc: " << describe(J) << ": wrote "
           << eventsWritten(*Rep, J.Events) << "\n";
}

void BatchRunner::printHeader(std::ostream &OS) {
  for (const BatchJob &J : Jobs) {
    size_t Extra = J.Info && J.Info->Outputs > 1
                       ? 2 + std::to_string(J.Info->Outputs - 1).size()
                       : 0;
    NameW = std::max(NameW, J.R->Name.size() + Extra);
    PointW = std::max(PointW, pointText(J).size());
  }
  OS << padRight("run", NameW) << "  " << padRight("point", PointW)
     << "  integral              error        chi2/dof          Q     time/s\n";
  OS.flush();
}

void BatchRunner::printRow(std::ostream &OS, const BatchJob &J) {
  std::string Point = padRight(pointText(J), PointW);
  if (J.Status != RunStatus::Ok) {
    OS << padRight(J.R->Name, NameW) << "  " << Point << "  "
       << (J.Status == RunStatus::Failed ? "FAILED" : "skipped") << "\n";
    OS.flush();
    return;
  }
  unsigned N = J.Info->Outputs;
  for (unsigned K = 0; K < N; ++K) {
    std::string Name =
        J.R->Name + (N > 1 ? "[" + std::to_string(K) + "]" : std::string());
    std::string Line = padRight(Name, NameW) + "  " + Point + "  " +
                       cell("%-22.15g", J.Res.Mean[K]) +
                       cell("%-10.3g", J.Res.Error[K]);
    // chi2/dof and Q are the components' joint ones: said once, on the
    // first row, with the run's time.
    if (K == 0)
      Line += " " + cell("%10.3g", J.Res.Chi2Dof) + " " +
              cell("%10.3g", J.Res.Q) + " " + cell("%10.3f", J.Res.WallSeconds);
    OS << withoutTrailingSpace(Line) << "\n";
  }
  OS.flush();
}

json BatchRunner::settingsJson(const BatchJob &J) const {
  BatchSettings S = J.R->Settings;
  S.Seed = J.Seed;
  json D;
  D["run"] = J.R->Name;
  if (J.R->Inline) {
    D["file"] = nullptr;
    D["source"] = J.R->RawSource;
  } else {
    D["file"] = J.R->FilePath;
  }
  RunFacts F{J.CpuThreads, 1, {}};
  if (J.Info)
    for (size_t K = 0; K < J.Params.size(); ++K)
      F.Params.emplace_back(J.Info->ParamNames[K], J.Params[K]);
  else
    for (const BatchParam &P : J.R->Params)
      F.Params.emplace_back(P.Name, P.Value);
  addRunSettings(D, S, F);
  return D;
}

json BatchRunner::runJson(const BatchJob &J) const {
  json D;
  D["name"] = J.R->Name;
  json P = json::object();
  for (const auto &[Name, V] : J.Point)
    P[Name] = V;
  D["point"] = P;
  if (J.Status == RunStatus::Ok) {
    D["status"] = "ok";
    json Doc = resultDocument(J.Res, J.Info->Name, settingsJson(J));
    for (auto It = Doc.begin(); It != Doc.end(); ++It)
      D[It.key()] = It.value();
    if (J.Events.Events)
      D["events"] = eventsJson(J.Events, J.Record->Name, J.EventsWritten,
                               J.EventsError);
    return D;
  }
  D["status"] = J.Status == RunStatus::Failed ? "failed" : "skipped";
  if (J.Status == RunStatus::Failed)
    D["error"] = J.Error;
  D["integrand"] = J.Info ? json(J.Info->Name) : json(nullptr);
  D["settings"] = settingsJson(J);
  return D;
}

bool BatchRunner::writeJson(const std::string &Path) const {
  json Doc;
  Doc["vegasflow"] = {{"version", versionString()}, {"schema", 1}};
  Doc["config"] = C.Path;
  unsigned Counts[4] = {};
  for (const BatchJob &J : Jobs)
    ++Counts[unsigned(J.Status)];
  Doc["summary"] = {{"runs", Jobs.size()},
                    {"ok", Counts[unsigned(RunStatus::Ok)]},
                    {"failed", Counts[unsigned(RunStatus::Failed)]},
                    {"skipped", Counts[unsigned(RunStatus::Skipped)]}};
  json Runs = json::array();
  for (const BatchJob &J : Jobs)
    Runs.push_back(runJson(J));
  Doc["runs"] = std::move(Runs);
  std::string Text = Doc.dump(2) + "\n";
  return writeOutput(Path, Text, "the JSON results");
}

bool BatchRunner::sayCounts() const {
  unsigned Ok = 0, Failed = 0, Skipped = 0, NoEvents = 0;
  for (const BatchJob &J : Jobs) {
    NoEvents += !J.EventsError.empty();
    Ok += J.Status == RunStatus::Ok;
    Failed += J.Status == RunStatus::Failed;
    Skipped += J.Status == RunStatus::Skipped;
  }
  if (!O.Quiet || Failed)
    errs() << "vegasc: " << Jobs.size() << " run"
           << (Jobs.size() == 1 ? "" : "s") << ": " << Ok << " ok, " << Failed
           << " failed"
           << (Skipped
                   ? ", " + std::to_string(Skipped) + " skipped (--fail-fast)"
                   : std::string())
           << "\n";
  return !Failed && !Skipped && !NoEvents;
}

int BatchRunner::run() {
  std::string JsonPath = O.Json.empty() ? C.Output : O.Json;
  std::string CsvPath = B.Csv.empty() ? C.Csv : B.Csv;
  if (JsonPath == "-" && CsvPath == "-")
    return fail("the JSON document and the CSV file cannot both go to "
                "standard output",
                ExitUsage);
  const char *JsonKey = O.Json.empty() ? "'output' in [defaults]" : "--json";
  const char *CsvKey = B.Csv.empty() ? "'csv' in [defaults]" : "--csv";
  // Checked before the runs, not after them (checkOutput).
  if (!checkOutput(JsonPath, "the JSON results", JsonKey) ||
      !checkOutput(CsvPath, "the CSV table", CsvKey))
    return ExitInputError;
  // With a document on standard output, the table goes to standard error.
  std::ostream &Table = (JsonPath == "-" || CsvPath == "-") ? errs() : outs();

  bool PrepFailed = false;
  for (const BatchRun &R : C.Runs)
    PrepFailed |= !prepare(R, Jobs);
  // No output may replace the batch file, a source or another output.
  std::vector<NamedPath> Outputs = {
      {JsonPath, JsonKey}, {CsvPath, CsvKey}, {O.Report, "--report"}};
  for (const BatchJob &J : Jobs)
    if (J.Record)
      Outputs.push_back({J.Events.Path, "the 'events_out' of " + describe(J)});
  if (Status St = checkBatchPaths(C.Path, Modules, Outputs); !St)
    return fail(St.message(), ExitUsage);
  if (O.Verbose)
    errs() << "vegasc: batch: compiled " << Compiled << " module"
           << (Compiled == 1 ? "" : "s") << " (" << FromDiskCache
           << " from the disk cache) for " << Jobs.size() << " run"
           << (Jobs.size() == 1 ? "" : "s") << "\n";
  if (!O.Quiet)
    errs() << "vegasc: batch '" << C.Path << "': " << Jobs.size() << " run"
           << (Jobs.size() == 1 ? "" : "s") << " from " << C.Runs.size()
           << " [[run]] entr" << (C.Runs.size() == 1 ? "y" : "ies") << "\n";

  bool Stop = PrepFailed && B.FailFast;
  printHeader(Table);
  for (BatchJob &J : Jobs) {
    if (J.Status == RunStatus::Pending) {
      if (Stop)
        J.Status = RunStatus::Skipped;
      else
        integrate(J);
    }
    if (J.Status == RunStatus::Failed && B.FailFast)
      Stop = true;
    printRow(Table, J);
  }

  const bool AllOk = sayCounts();
  bool Written = true;
  if (!JsonPath.empty())
    Written &= writeJson(JsonPath);
  if (!CsvPath.empty())
    Written &= C.Layout == CsvLayout::Wide ? writeWideCsv(Jobs, CsvPath)
                                           : writeBatchCsv(Jobs, CsvPath);
  if (!O.Report.empty()) {
    std::vector<ReportRun> Runs;
    for (const BatchJob &J : Jobs)
      if (J.Status == RunStatus::Ok)
        Runs.push_back(reportRun(describe(J), settingsJson(J), J.Res, J.Grid,
                                 std::nullopt));
    ReportOptions Opts = O.ReportOpts;
    Opts.Scans = reportScans(Jobs);
    Written &=
        writeOutput(O.Report, reportHtml("vegasflow: " + B.Config, Runs, Opts),
                    "the report");
  }
  return !AllOk || !Written ? ExitInputError : ExitOk;
}

} // namespace

int runBatch(const DriverOptions &O, const BatchOptions &B) {
  BatchConfig C;
  LocatedErrors Diags(stderr);
  Diags.setErrorLimit(O.ErrorLimit);
  bool Ok = parseBatchConfig(B.Config, C, Diags);
  Diags.finish();
  if (!Ok)
    return ExitInputError;
  return BatchRunner(O, B, C, Diags).run();
}

} // namespace vf
