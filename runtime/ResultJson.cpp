//===- runtime/ResultJson.cpp - Results as JSON ---------------------------===//
//
// Numbers are written with 17 significant digits (nlohmann's shortest
// round-trip form), so a JSON result reloads bitwise; NaN and infinities,
// which JSON lacks, become null.
//
//===----------------------------------------------------------------------===//

#include "vf/ResultJson.h"
#include "vf/Version.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace vf {

using json = nlohmann::ordered_json;

static json number(double V) {
  return std::isfinite(V) ? json(V) : json(nullptr);
}

/// A scalar for one component, an array otherwise.
static json components(const std::vector<double> &V, unsigned Outputs) {
  if (Outputs == 1 && V.size() == 1)
    return number(V[0]);
  json A = json::array();
  for (double X : V)
    A.push_back(number(X));
  return A;
}

static json devicesJson(const std::vector<DeviceStats> &Devices) {
  json Devs = json::array();
  for (const DeviceStats &D : Devices) {
    json Dev = {{"name", D.Name},
                {"kind", D.Kind},
                {"samples", D.Samples},
                {"chunks", D.Chunks},
                {"busy_s", D.BusySeconds},
                {"idle_s", D.IdleSeconds},
                {"imbalance", D.imbalance()},
                {"failed", !D.Error.empty()}};
    if (!D.Error.empty())
      Dev["error"] = D.Error;
    Devs.push_back(std::move(Dev));
  }
  return Devs;
}

static json ranksJson(const std::vector<RankStats> &Ranks) {
  json A = json::array();
  for (const RankStats &R : Ranks)
    A.push_back({{"rank", R.Rank},
                 {"samples", R.Samples},
                 {"busy_s", R.BusySeconds},
                 {"idle_s", R.IdleSeconds}});
  return A;
}

std::string resultToJson(const Result &R, const std::string &Name,
                         const std::string &SettingsJson, int Indent) {
  json Doc;
  Doc["vegasflow"] = {{"version", versionString()}, {"schema", 1}};
  Doc["integrand"] = Name;
  json Settings = json::parse(SettingsJson, nullptr, /*allow_exceptions=*/false);
  Doc["settings"] = Settings.is_discarded() ? json::object() : Settings;
  json Res;
  Res["mean"] = components(R.Mean, R.Outputs);
  Res["error"] = components(R.Error, R.Outputs);
  Res["chi2_dof"] = number(R.Chi2Dof);
  Res["Q"] = number(R.Q);
  if (R.Outputs > 1) {
    json Cov = json::array();
    for (unsigned I = 0; I < R.Outputs; ++I) {
      json Row = json::array();
      for (unsigned J = 0; J < R.Outputs; ++J)
        Row.push_back(number(R.Covariance[I * R.Outputs + J]));
      Cov.push_back(Row);
    }
    Res["covariance"] = Cov;
  }
  Res["stopped_because"] = stopReasonName(R.Stopped);
  Res["target_met"] = R.HasTarget ? json(R.TargetMet) : json(nullptr);
  Res["roundoff_floor"] = components(R.RoundoffFloor, R.Outputs);
  Res["evaluations"] = R.Evaluations;
  Res["wall_s"] = R.WallSeconds;
  Doc["result"] = Res;
  json Its = json::array();
  for (const IterationRow &Row : R.Iterations) {
    json It;
    It["index"] = Row.Index;
    It["warmup"] = Row.Warmup;
    It["mean"] = components(Row.Mean, R.Outputs);
    It["error"] = components(Row.Error, R.Outputs);
    It["cumulative_mean"] = components(Row.CumMean, R.Outputs);
    It["cumulative_error"] = components(Row.CumError, R.Outputs);
    It["chi2_dof"] = number(Row.Chi2Dof);
    It["Q"] = number(Row.Q);
    It["samples"] = Row.Samples;
    It["nonfinite"] = Row.NonFinite;
    It["time_s"] = Row.Seconds;
    It["devices"] = devicesJson(Row.Devices);
    if (!Row.Ranks.empty())
      It["ranks"] = ranksJson(Row.Ranks);
    Its.push_back(It);
  }
  Doc["iterations"] = Its;
  Doc["devices"] = devicesJson(R.Devices);
  if (!R.Ranks.empty())
    Doc["mpi"] = {{"ranks", R.Ranks.size()},
                  {"exchange_bytes_per_iteration", R.ExchangeBytes},
                  {"per_rank", ranksJson(R.Ranks)}};
  return Doc.dump(Indent) + "\n";
}

} // namespace vf
