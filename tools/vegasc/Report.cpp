//===- vegasc/Report.cpp - vegasc --report -------------------------------===//
//
// A run (or a batch's runs) as vf::reportHtml's page: the settings as
// vegasc writes them into the JSON, the result and the integrator's grid.
//
//===----------------------------------------------------------------------===//

#include "vegasc/Driver.h"

#include <nlohmann/json.hpp>

namespace vf {

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
