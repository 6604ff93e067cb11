//===- python/src/Report.cpp - The HTML report for Python -----------------===//
//
// Result._repr_html_ and Result.report_html / write_report: the library's
// own page (vf::reportHtml) or its sections (vf::reportFragment) for a
// result and the map the integrator had when the result was taken
// (_Integrator.grid(), a snapshot held by the Python Result), with the
// report's options (vf::ReportOptions; references as (edges, values,
// errors) per histogram name, the form _read_references gives a CSV).
//
//===----------------------------------------------------------------------===//

#include "PyIntegrator.h"

#include "vf/Report.h"

#include <pybind11/stl.h>

#include <map>
#include <tuple>

namespace vfpy {

namespace {

using Grid = vf::Integrator::Grid;
using Settings = std::vector<std::pair<std::string, std::string>>;
using Curve =
    std::tuple<std::vector<double>, std::vector<double>, std::vector<double>>;
using Curves = std::map<std::string, Curve>;

/// The page (or, with \p Fragment, its sections) for one run.
std::string report(const vf::Result &R, const Grid &G, const std::string &Title,
                   Settings S, std::optional<double> Exact, bool Fragment,
                   bool Strata, std::vector<std::string> LogY,
                   const Curves &Refs) {
  vf::ReportOptions O;
  O.Strata = Strata;
  O.LogY = std::move(LogY);
  for (const auto &[Name, C] : Refs) {
    const auto &[Edges, Values, Errors] = C;
    if (Edges.size() != Values.size() + 1 || Errors.size() != Values.size())
      throw py::value_error("reference '" + Name +
                            "': expected bins + 1 edges, and a value and an "
                            "error per bin");
    O.References[Name] = {Edges, Values, Errors};
  }
  std::vector<vf::ReportRun> Runs{{Title, std::move(S), R, G, Exact}};
  return Fragment ? vf::reportFragment(Runs, O)
                  : vf::reportHtml("vegasflow: " + Title, Runs, O);
}

Curves readReferences(const std::string &Text) {
  auto Refs = vf::readReferenceCsv(Text);
  if (!Refs)
    throw py::value_error(Refs.message());
  Curves Out;
  for (const auto &[Name, R] : *Refs)
    Out[Name] = {R.Edges, R.Values, R.Errors};
  return Out;
}

} // namespace

void bindReport(py::module_ &M, py::class_<PyIntegrator> &C) {
  // The map's numbers for Integrator.map (the samples per hypercube stay
  // the report's).
  py::class_<Grid, std::shared_ptr<Grid>>(M, "_Grid")
      .def_readonly("dim", &Grid::Dim)
      .def_readonly("ninc", &Grid::Ninc)
      .def_readonly("edges", &Grid::Edges);
  C.def("grid", [](const PyIntegrator &P) {
    const Claim Held(P, "grid");
    return std::make_shared<Grid>(P.I->grid());
  });
  M.def("_report", &report, py::arg("result"), py::arg("grid"),
        py::arg("title"), py::arg("settings"), py::arg("exact"),
        py::arg("fragment"), py::arg("strata"), py::arg("log"),
        py::arg("references"));
  M.def("_read_references", &readReferences, py::arg("text"));
}

} // namespace vfpy
