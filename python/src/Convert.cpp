//===- python/src/Convert.cpp - Results as Python values ------------------===//
//
// vf::Result and its rows as dicts of lists and numbers; the package turns
// them into numpy arrays and its Result/IterationRow/DeviceStats classes,
// so the shapes (scalar or vector integrand) are decided in one place, in
// Python.
//
//===----------------------------------------------------------------------===//

#include "Binding.h"

#include <pybind11/stl.h>

namespace vfpy {

namespace {

py::dict device(const vf::DeviceStats &D) {
  return py::dict(py::arg("name") = D.Name, py::arg("kind") = D.Kind,
                  py::arg("samples") = D.Samples, py::arg("chunks") = D.Chunks,
                  py::arg("busy_s") = D.BusySeconds,
                  py::arg("idle_s") = D.IdleSeconds,
                  py::arg("error") = D.Error);
}

py::list devices(const std::vector<vf::DeviceStats> &Ds) {
  py::list L;
  for (const vf::DeviceStats &D : Ds)
    L.append(device(D));
  return L;
}

py::list ranks(const std::vector<vf::RankStats> &Rs) {
  py::list L;
  for (const vf::RankStats &R : Rs)
    L.append(py::dict(py::arg("rank") = R.Rank, py::arg("samples") = R.Samples,
                      py::arg("busy_s") = R.BusySeconds,
                      py::arg("idle_s") = R.IdleSeconds));
  return L;
}

/// Each derived item as a dict: name, mean, sdev, gradient (with respect
/// to the components).
py::list derived(const std::vector<vf::DerivedValue> &Ds) {
  py::list L;
  for (const vf::DerivedValue &D : Ds)
    L.append(py::dict(py::arg("name") = D.Name, py::arg("mean") = D.Mean,
                      py::arg("sdev") = D.Error,
                      py::arg("gradient") = D.Gradient));
  return L;
}

/// An iteration's channels as dicts: alpha, samples, integral, error.
py::list channelRows(const std::vector<vf::ChannelRow> &Rows) {
  py::list L;
  for (const vf::ChannelRow &C : Rows)
    L.append(
        py::dict(py::arg("alpha") = C.Alpha, py::arg("samples") = C.Samples,
                 py::arg("integral") = C.Mean, py::arg("error") = C.Error));
  return L;
}

/// The run's channels: a row's fields for the last iteration, with the
/// name, the weight now, the run's samples and the error share.
py::list channels(const std::vector<vf::ChannelSummary> &Cs) {
  py::list L;
  for (const vf::ChannelSummary &C : Cs)
    L.append(py::dict(py::arg("name") = C.Name, py::arg("alpha") = C.Alpha,
                      py::arg("samples") = C.Samples,
                      py::arg("integral") = C.Last.Mean,
                      py::arg("error") = C.Last.Error,
                      py::arg("error_share") = C.ErrorShare));
  return L;
}

} // namespace

py::dict resultRow(const vf::IterationRow &R) {
  return py::dict(
      py::arg("index") = R.Index, py::arg("warmup") = R.Warmup,
      py::arg("mean") = R.Mean, py::arg("sdev") = R.Error,
      py::arg("cum_mean") = R.CumMean, py::arg("cum_sdev") = R.CumError,
      py::arg("chi2_dof") = R.Chi2Dof, py::arg("Q") = R.Q,
      py::arg("samples") = R.Samples, py::arg("nonfinite") = R.NonFinite,
      py::arg("seconds") = R.Seconds, py::arg("devices") = devices(R.Devices),
      py::arg("ranks") = ranks(R.Ranks),
      py::arg("derived") = derived(R.Derived),
      py::arg("channels") = channelRows(R.Channels));
}

/// Each histogram as a dict: name, axes [(lo, hi, bins, edges)], values and
/// errors (flat, row-major), flow and flow_errors.
py::list histograms(const std::vector<vf::Histogram> &Hs) {
  py::list L;
  for (const vf::Histogram &H : Hs) {
    py::list Axes;
    for (const vf::HistogramAxis &A : H.Axes)
      Axes.append(py::make_tuple(A.Lo, A.Hi, A.Bins, A.edges()));
    L.append(py::dict(py::arg("name") = H.Name, py::arg("axes") = Axes,
                      py::arg("values") = H.Values,
                      py::arg("errors") = H.Errors, py::arg("flow") = H.Flow,
                      py::arg("flow_errors") = H.FlowErrors));
  }
  return L;
}

/// Each weight list as a dict: name, values and errors (k rising), low and
/// high (its envelope), band (its kind) with band_central, band_low and
/// band_high, ratios to the integrand's value and their errors.
py::list weightLists(const std::vector<vf::WeightListResult> &Ls) {
  py::list L;
  for (const vf::WeightListResult &W : Ls)
    L.append(py::dict(py::arg("name") = W.Name, py::arg("values") = W.Values,
                      py::arg("errors") = W.Errors, py::arg("low") = W.Low,
                      py::arg("high") = W.High, py::arg("band") = W.Band,
                      py::arg("band_central") = W.BandCentral,
                      py::arg("band_low") = W.BandLow,
                      py::arg("band_high") = W.BandHigh,
                      py::arg("ratios") = W.Ratios,
                      py::arg("ratio_errors") = W.RatioErrors));
  return L;
}

py::dict resultToDict(const vf::Result &R) {
  py::list Rows;
  for (const vf::IterationRow &Row : R.Iterations)
    Rows.append(resultRow(Row));
  return py::dict(
      py::arg("mean") = R.Mean, py::arg("sdev") = R.Error,
      py::arg("covariance") = R.Covariance, py::arg("chi2_dof") = R.Chi2Dof,
      py::arg("Q") = R.Q, py::arg("outputs") = R.Outputs,
      py::arg("iterations") = Rows, py::arg("devices") = devices(R.Devices),
      py::arg("evaluations") = R.Evaluations, py::arg("wall_s") = R.WallSeconds,
      py::arg("ranks") = ranks(R.Ranks),
      py::arg("exchange_bytes") = R.ExchangeBytes,
      py::arg("histograms") = histograms(R.Histograms),
      py::arg("weight_lists") = weightLists(R.WeightLists),
      py::arg("stopped_because") = vf::stopReasonName(R.Stopped),
      py::arg("target_met") = R.HasTarget ? py::object(py::bool_(R.TargetMet))
                                          : py::object(py::none()),
      py::arg("roundoff_floor") = R.RoundoffFloor,
      py::arg("precision") = vf::precisionName(R.Arithmetic),
      py::arg("derived") = derived(R.Derived),
      py::arg("channels") = channels(R.Channels));
}

} // namespace vfpy
