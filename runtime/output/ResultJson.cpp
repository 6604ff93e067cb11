//===- output/ResultJson.cpp - Results as JSON ----------------------------===//
//
// Numbers are written with 17 significant digits (nlohmann's shortest
// round-trip form), so a JSON result reloads bitwise; NaN and infinities,
// which JSON lacks, become null.
//
//===----------------------------------------------------------------------===//

#include "vf/ResultDocument.h"

#include "vf/ResultJson.h"
#include "vf/Version.h"

#include <nlohmann/json.hpp>

#include <cmath>

namespace vf {

using json = nlohmann::ordered_json;

static json number(double V) {
  return std::isfinite(V) ? json(V) : json(nullptr);
}

/// \p Xs as numbers (null where not finite).
static json numbers(const std::vector<double> &Xs) {
  json A = json::array();
  for (double X : Xs)
    A.push_back(number(X));
  return A;
}

/// A scalar for one component, an array otherwise.
static json components(const std::vector<double> &V, unsigned Outputs) {
  if (Outputs == 1 && V.size() == 1)
    return number(V[0]);
  return numbers(V);
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

static json valueError(double V, double E) {
  return {{"value", number(V)}, {"error", number(E)}};
}

/// 1-D: an array per bin; 2-D: an array per bin of the first axis, each
/// an array over the second.
static json binArray(const std::vector<double> &V, const Histogram &H) {
  const std::size_t Inner = H.Axes.size() == 2 ? H.Axes[1].Bins : V.size();
  json Out = json::array();
  for (std::size_t Row = 0; Row * Inner < V.size(); ++Row) {
    json A = json::array();
    for (std::size_t I = 0; I < Inner; ++I)
      A.push_back(number(V[Row * Inner + I]));
    if (H.Axes.size() == 1)
      return A;
    Out.push_back(std::move(A));
  }
  return Out;
}

/// Each list: its name, entries [{value, error}] (k rising), envelope
/// {low, high}, the entries' ratios to the integrand's value with their
/// errors, and band {kind, central, low, high}.
static json weightListsJson(const std::vector<WeightListResult> &Ls) {
  json All = json::array();
  for (const WeightListResult &L : Ls) {
    json Entries = json::array();
    for (std::size_t K = 0; K < L.Values.size(); ++K)
      Entries.push_back(valueError(L.Values[K], L.Errors[K]));
    All.push_back(
        {{"name", L.Name},
         {"entries", Entries},
         {"envelope", {{"low", number(L.Low)}, {"high", number(L.High)}}},
         {"band",
          {{"kind", L.Band},
           {"central", number(L.BandCentral)},
           {"low", number(L.BandLow)},
           {"high", number(L.BandHigh)}}},
         {"ratios", numbers(L.Ratios)},
         {"ratio_errors", numbers(L.RatioErrors)}});
  }
  return All;
}

static json histogramsJson(const std::vector<Histogram> &Hs) {
  json All = json::array();
  for (const Histogram &H : Hs) {
    json Axes = json::array();
    for (const HistogramAxis &A : H.Axes) {
      json Edges = json::array();
      for (double E : A.edges())
        Edges.push_back(number(E));
      Axes.push_back({{"lo", number(A.Lo)},
                      {"hi", number(A.Hi)},
                      {"bins", A.Bins},
                      {"edges", Edges}});
    }
    json J = {{"name", H.Name},
              {"axes", Axes},
              {"values", binArray(H.Values, H)},
              {"errors", binArray(H.Errors, H)}};
    if (H.Axes.size() == 1 && H.Flow.size() == 2) {
      J["underflow"] = valueError(H.Flow[0], H.FlowErrors[0]);
      J["overflow"] = valueError(H.Flow[1], H.FlowErrors[1]);
    } else if (H.Flow.size() == 1) {
      J["outside"] = valueError(H.Flow[0], H.FlowErrors[0]);
    }
    All.push_back(std::move(J));
  }
  return All;
}

std::string resultToJson(const Result &R, const std::string &Name,
                         const std::string &SettingsJson, int Indent) {
  // The API's callers (C, Python, embedding programs) hand their settings
  // over as text; vegasc passes its values to resultDocument.
  json Settings =
      json::parse(SettingsJson, nullptr, /*allow_exceptions=*/false);
  return resultDocument(R, Name,
                        Settings.is_discarded() ? json::object() : Settings)
             .dump(Indent) +
         "\n";
}

/// Derived items as [{"name", "mean", "error"[, "gradient"]}].
json derivedJson(const std::vector<DerivedValue> &Values, bool Gradient) {
  json All = json::array();
  for (const DerivedValue &D : Values) {
    json J = {
        {"name", D.Name}, {"mean", number(D.Mean)}, {"error", number(D.Error)}};
    if (Gradient) {
      json G = json::array();
      for (double V : D.Gradient)
        G.push_back(number(V));
      J["gradient"] = G;
    }
    All.push_back(std::move(J));
  }
  return All;
}

/// An iteration's channels as [{"alpha", "samples", "integral", "error"}].
static json channelRowsJson(const std::vector<ChannelRow> &Rows) {
  json All = json::array();
  for (const ChannelRow &C : Rows)
    All.push_back({{"alpha", number(C.Alpha)},
                   {"samples", C.Samples},
                   {"integral", number(C.Mean)},
                   {"error", number(C.Error)}});
  return All;
}

/// The run's channels: each one's name, weight now, samples over the run,
/// and its last iteration with that iteration's share of the variance.
static json channelsJson(const std::vector<ChannelSummary> &Channels) {
  json All = json::array();
  for (const ChannelSummary &C : Channels)
    All.push_back({{"name", C.Name},
                   {"alpha", number(C.Alpha)},
                   {"samples", C.Samples},
                   {"integral", number(C.Last.Mean)},
                   {"error", number(C.Last.Error)},
                   {"error_share", number(C.ErrorShare)}});
  return All;
}

json resultDocument(const Result &R, const std::string &Name, json Settings) {
  json Doc;
  Doc["vegasflow"] = {{"version", versionString()}, {"schema", 1}};
  Doc["integrand"] = Name;
  Doc["settings"] = std::move(Settings);
  json Res;
  Res["mean"] = components(R.Mean, R.Outputs);
  Res["error"] = components(R.Error, R.Outputs);
  Res["chi2_dof"] = number(R.Chi2Dof);
  Res["Q"] = number(R.Q);
  Res["variance_unstable"] = R.Variance.Unstable;
  Res["max_share"] = number(R.Variance.Share);
  if (R.Variance.Unstable) {
    Res["variance_warning"] = R.Variance.Message;
    json Point = json::array();
    for (double V : R.Variance.Point)
      Point.push_back(number(V));
    Res["largest_weight_at"] = Point;
  }
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
  Res["precision"] = precisionName(R.Arithmetic);
  Res["evaluations"] = R.Evaluations;
  Res["wall_s"] = R.WallSeconds;
  if (!R.Derived.empty())
    Res["derived"] = derivedJson(R.Derived, true);
  Doc["result"] = Res;
  if (!R.Histograms.empty())
    Doc["histograms"] = histogramsJson(R.Histograms);
  if (!R.WeightLists.empty())
    Doc["weight_lists"] = weightListsJson(R.WeightLists);
  if (!R.Channels.empty())
    Doc["channels"] = channelsJson(R.Channels);
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
    It["max_share"] = number(Row.MaxShare);
    It["time_s"] = Row.Seconds;
    It["devices"] = devicesJson(Row.Devices);
    if (!Row.Ranks.empty())
      It["ranks"] = ranksJson(Row.Ranks);
    if (!Row.Derived.empty())
      It["derived"] = derivedJson(Row.Derived, false);
    if (!Row.Channels.empty())
      It["channels"] = channelRowsJson(Row.Channels);
    Its.push_back(It);
  }
  Doc["iterations"] = Its;
  Doc["devices"] = devicesJson(R.Devices);
  if (!R.Ranks.empty())
    Doc["mpi"] = {{"ranks", R.Ranks.size()},
                  {"exchange_bytes_per_iteration", R.ExchangeBytes},
                  {"per_rank", ranksJson(R.Ranks)}};
  return Doc;
}

} // namespace vf
