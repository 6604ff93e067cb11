//===- vegasc/Report.cpp - vegasc --report -------------------------------===//
//
// A run (or a batch's runs) as vf::reportHtml's page: the settings as
// vegasc writes them into the JSON, the result and the integrator's grid;
// the references of --report-ref read when the flag is parsed, so that a
// bad file stops vegasc before the run, not after it.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include <nlohmann/json.hpp>

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

} // namespace vf
