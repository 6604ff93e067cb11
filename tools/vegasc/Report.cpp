//===- vegasc/Report.cpp - vegasc --report -------------------------------===//
//
// A run (or a batch's runs) as vf::reportHtml's page: the settings as
// vegasc writes them into the JSON, the result and the integrator's grid;
// the references of --report-ref read when the flag is parsed, so that a
// bad file stops vegasc before the run, not after it; a batch's scans of
// one parameter drawn as curves with their bands.
//
//===----------------------------------------------------------------------===//

#include "vegasc/BatchConfig.h"
#include "vegasc/BatchJob.h"
#include "vegasc/Driver.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>

namespace vf {

std::string addReportReferences(const std::string &Path, ReportOptions &O) {
  std::ifstream In(Path);
  std::ostringstream Text;
  if (!(In && Text << In.rdbuf()))
    return "cannot read the reference '" + Path + "'";
  auto Refs = readReferenceCsv(Text.str());
  if (!Refs)
    return Path + ": " + Refs.message();
  for (auto &[Name, Ref] : *Refs)
    O.References[Name] = std::move(Ref);
  return "";
}

ReportRun reportRun(std::string Title, const nlohmann::ordered_json &Settings,
                    Result R, Integrator::Grid Grid,
                    std::optional<double> Exact) {
  ReportRun Run{std::move(Title), {}, std::move(R), std::move(Grid), Exact};
  for (const auto &[Key, Value] : Settings.items())
    Run.Settings.emplace_back(Key, Value.is_string() ? Value.get<std::string>()
                                                     : Value.dump());
  return Run;
}

namespace {

/// The quantities of a scan point: every component, then every derived
/// item.
std::vector<std::pair<std::string, std::pair<double, double>>>
quantities(const Result &R) {
  std::vector<std::pair<std::string, std::pair<double, double>>> Q;
  for (std::size_t C = 0; C < R.Mean.size() && C < R.Error.size(); ++C)
    Q.push_back({R.Mean.size() > 1 ? "result[" + std::to_string(C) + "]"
                                   : std::string("result"),
                 {R.Mean[C], R.Error[C]}});
  for (const DerivedValue &D : R.Derived)
    Q.push_back({D.Name, {D.Mean, D.Error}});
  return Q;
}

} // namespace

std::vector<ReportScan> reportScans(const std::vector<BatchJob> &Jobs) {
  std::vector<ReportScan> Scans;
  const BatchRun *Current = nullptr;
  for (const BatchJob &J : Jobs) {
    // A scan of one parameter; its points are consecutive jobs.
    if (J.R->Scan.size() != 1 || J.Point.size() != 1 ||
        J.Status != RunStatus::Ok)
      continue;
    if (J.R != Current) {
      Current = J.R;
      Scans.push_back({J.R->Name, J.Point[0].first, {}, {}});
    }
    ReportScan &S = Scans.back();
    S.X.push_back(J.Point[0].second);
    for (const auto &[Name, ME] : quantities(J.Res)) {
      auto It = std::find_if(S.Quantities.begin(), S.Quantities.end(),
                             [&](const auto &Q) { return Q.Name == Name; });
      if (It == S.Quantities.end())
        It = S.Quantities.insert(S.Quantities.end(), {Name, {}, {}});
      // A quantity missing at earlier points stays aligned with X.
      It->Mean.resize(S.X.size() - 1, NAN);
      It->Error.resize(S.X.size() - 1, NAN);
      It->Mean.push_back(ME.first);
      It->Error.push_back(ME.second);
    }
  }
  return Scans;
}

} // namespace vf
