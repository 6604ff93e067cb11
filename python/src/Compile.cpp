//===- python/src/Compile.cpp - Compiling .vf source from Python ----------===//
//
// _vegasflow.compile (a file or a string, GIL released while LLVM works)
// and the _Module and _Integrand handles. A compile error raises
// _CompileFailure with the diagnostics text; the package parses its
// "file:line:col: error:" lines into vegasflow.CompileError's attributes,
// since vf::Module reports diagnostics only as text.
//
//===----------------------------------------------------------------------===//

#include "Binding.h"

#include "vf/Module.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <map>

namespace vfpy {

namespace {

using DoubleArray = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// The parameter values \p Given, or the integrand's defaults.
std::vector<double> paramsOr(const vf::IntegrandInfo &I,
                             const std::optional<std::vector<double>> &Given) {
  if (!Given)
    return I.ParamDefaults;
  if (Given->size() != I.ParamNames.size())
    throw py::value_error("integrand '" + I.Name + "' has " +
                          std::to_string(I.ParamNames.size()) +
                          " parameters, got " + std::to_string(Given->size()) +
                          " values");
  return *Given;
}

py::tuple domain(const Integrand &In,
                 const std::optional<std::vector<double>> &Params) {
  std::vector<double> P = paramsOr(In.Info, Params), Lo, Hi;
  if (vf::Status S = In.Info.Domain(P, Lo, Hi); !S)
    raise(S.error());
  return py::make_tuple(Lo, Hi);
}

/// f at the rows of \p X, an (n, dim) array: an (n, outputs) array.
py::array evaluate(const Integrand &In, const DoubleArray &X,
                   const std::optional<std::vector<double>> &Params) {
  const vf::IntegrandInfo &I = In.Info;
  if (X.ndim() != 2 || X.shape(1) != py::ssize_t(I.Dim))
    throw py::value_error("integrand '" + I.Name + "' takes points as an "
                          "(n, " + std::to_string(I.Dim) + ") array");
  if (!I.Evaluate)
    throw py::value_error("integrand '" + I.Name + "' cannot be evaluated");
  std::vector<double> P = paramsOr(I, Params);
  const py::ssize_t N = X.shape(0);
  py::array_t<double> Out({N, py::ssize_t(I.Outputs)});
  const double *Xs = X.data();
  double *O = Out.mutable_data();
  {
    py::gil_scoped_release R;
    if (N > 0)
      I.Evaluate(Xs, N, P.data(), O);
  }
  if (In.Callback)
    if (py::object E = In.Callback->take())
      raiseObject(std::move(E));
  return Out;
}

std::shared_ptr<vf::Module>
compile(const std::string &Source, bool IsFile, const std::string &Name,
        bool UseCache, const std::string &CacheDir,
        const std::map<std::string, std::string> &PdfSets) {
  vf::CompileSettings S;
  S.UseCache = UseCache;
  S.CacheDir = CacheDir;
  S.PdfSets = PdfSets;
  std::optional<vf::Expected<std::shared_ptr<vf::Module>>> M;
  {
    py::gil_scoped_release R;
    M.emplace(IsFile ? vf::Module::compileFile(Source, S)
                     : vf::Module::compileString(Source, Name, S));
  }
  if (!*M)
    raiseObject(newException(CompileFailureType, M->message()));
  return **M;
}

} // namespace

void bindCompile(py::module_ &M) {
  py::class_<Integrand>(M, "_Integrand")
      .def_property_readonly("name",
                             [](const Integrand &I) { return I.Info.Name; })
      .def_property_readonly("dim",
                             [](const Integrand &I) { return I.Info.Dim; })
      .def_property_readonly("outputs",
                             [](const Integrand &I) { return I.Info.Outputs; })
      .def_property_readonly(
          "param_names", [](const Integrand &I) { return I.Info.ParamNames; })
      .def_property_readonly(
          "param_defaults",
          [](const Integrand &I) { return I.Info.ParamDefaults; })
      .def_property_readonly(
          "module_hash", [](const Integrand &I) { return I.Info.ModuleHash; })
      .def_property_readonly(
          "has_gpu_code",
          [](const Integrand &I) { return vf::hasGpuCode(I.Info); })
      .def("domain", &domain, py::arg("params") = py::none())
      .def("evaluate", &evaluate, py::arg("x"), py::arg("params") = py::none());

  py::class_<vf::Module, std::shared_ptr<vf::Module>>(M, "_Module")
      .def("names", &vf::Module::integrandNames)
      .def("integrand",
           [](const vf::Module &Mod, const std::string &Name) {
             vf::Expected<vf::IntegrandInfo> I = Mod.integrand(Name);
             if (!I)
               throw py::key_error(I.message());
             return Integrand{std::move(*I), nullptr};
           })
      .def_property_readonly("warnings", &vf::Module::warnings)
      .def_property_readonly("from_cache", &vf::Module::fromCache);

  M.def("compile", &compile, py::arg("source"), py::arg("is_file"),
        py::arg("name"), py::arg("use_cache"), py::arg("cache_dir"),
        py::arg("pdf_sets"));
}

} // namespace vfpy
