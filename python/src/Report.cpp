//===- python/src/Report.cpp - The HTML report for Python -----------------===//
//
// Result._repr_html_ and Result.report_html / write_report: the library's
// own page (vf::reportHtml) or its sections (vf::reportFragment) for a
// result and the map the integrator had when the result was taken
// (_Integrator.grid(), a snapshot held by the Python Result).
//
//===----------------------------------------------------------------------===//

#include "PyIntegrator.h"

#include "vf/Report.h"

#include <pybind11/stl.h>

namespace vfpy {

namespace {

using Grid = vf::Integrator::Grid;
using Settings = std::vector<std::pair<std::string, std::string>>;

/// The page (or, with \p Fragment, its sections) for one run.
std::string report(const vf::Result &R, const Grid &G,
                   const std::string &Title, Settings S,
                   std::optional<double> Exact, bool Fragment) {
  std::vector<vf::ReportRun> Runs{{Title, std::move(S), R, G, Exact}};
  return Fragment ? vf::reportFragment(Runs)
                  : vf::reportHtml("vegasflow: " + Title, Runs);
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
        py::arg("fragment"));
}

} // namespace vfpy
