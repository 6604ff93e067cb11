//===- python/src/PythonIntegrand.cpp - Python callables as integrands ----===//
//
// A numpy batch integrand, f(x) with x an (n, dim) array returning (n,) or
// (n, k), the contract of vegas's batch integrands, as a vf/Native.h
// integrand: the native sampler calls it from the CPU worker threads, each
// call taking the GIL for its batch (the slow path, for code not yet in
// .vf). The callback never lets a Python exception cross the library: the
// first one is recorded in the CallbackState, the stop flag set, and that
// batch and every later one become NaN without calling Python, so the
// iteration ends at once with a non-finite error, after which run()
// re-raises the recorded exception instead.
//
//===----------------------------------------------------------------------===//

#include "Binding.h"

#include "vf/Native.h"

#include <pybind11/numpy.h>
#include <pybind11/stl.h>

#include <limits>

namespace vfpy {

namespace {

/// What f returned for \p N points, checked: an (N, K) float64 array (K
/// is inferred when \p Outputs is 0). Throws a Python TypeError or
/// ValueError saying what was wrong.
py::array_t<double> checkBatch(py::handle Value, std::size_t N,
                               unsigned Outputs) {
  py::array A = py::array::ensure(Value);
  if (!A)
    throw py::type_error("the integrand returned " +
                         std::string(py::str(py::type::of(Value).attr(
                             "__name__"))) +
                         "; a batch integrand returns a numpy array");
  const char Kind = A.dtype().kind();
  if (Kind != 'f' && Kind != 'i' && Kind != 'u' && Kind != 'b')
    throw py::type_error("the integrand returned an array of dtype " +
                         std::string(py::str(A.dtype())) +
                         "; expected real numbers (float64)");
  const std::string Want =
      Outputs > 1 ? "(" + std::to_string(N) + ", " + std::to_string(Outputs) + ")"
                  : "(" + std::to_string(N) + ",)";
  const bool Vector = A.ndim() == 2 && A.shape(0) == py::ssize_t(N) &&
                      (Outputs == 0 || A.shape(1) == py::ssize_t(Outputs));
  const bool Scalar = A.ndim() == 1 && A.shape(0) == py::ssize_t(N) &&
                      Outputs <= 1;
  if (!Vector && !Scalar) {
    std::string Got = "(";
    for (py::ssize_t D = 0; D < A.ndim(); ++D)
      Got += (D ? ", " : "") + std::to_string(A.shape(D));
    Got += A.ndim() == 1 ? ",)" : ")";
    throw py::value_error(
        "the integrand returned shape " + Got + " for a batch of " +
        std::to_string(N) + " points; expected " +
        (Outputs ? Want : "(n,) or (n, k)") + ", one row per point of x");
  }
  using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;
  Array Out = Array::ensure(A);
  if (Out.ndim() == 1)
    Out = Out.reshape({py::ssize_t(N), py::ssize_t(1)});
  return Out;
}

/// One batch: X holds N points of Dim coordinates; writes N x Outputs
/// values to Out.
void callBatch(const py::object &F, CallbackState &S,
               const std::vector<std::string> &Names, unsigned Outputs,
               std::span<const double> X, std::size_t N, std::size_t Dim,
               std::span<const double> Params, std::span<double> Out) {
  auto Nan = [&] {
    std::fill(Out.begin(), Out.end(), std::numeric_limits<double>::quiet_NaN());
  };
  if (S.Stop) {
    Nan();
    return;
  }
  py::gil_scoped_acquire G;
  if (S.Stop) { // set while this thread waited for the GIL
    Nan();
    return;
  }
  try {
    py::array_t<double> Points({py::ssize_t(N), py::ssize_t(Dim)});
    std::copy(X.begin(), X.end(), Points.mutable_data());
    py::dict Kw;
    for (std::size_t P = 0; P < Names.size(); ++P)
      Kw[py::str(Names[P])] = Params[P];
    py::array_t<double> V = checkBatch(F(Points, **Kw), N, Outputs);
    std::copy(V.data(), V.data() + N * Outputs, Out.begin());
  } catch (py::error_already_set &E) {
    // Keep the traceback (f's frames) with the exception re-raised later.
    if (E.trace())
      PyException_SetTraceback(E.value().ptr(), E.trace().ptr());
    S.record(E.value());
    Nan();
  } catch (py::builtin_exception &E) {
    E.set_error();
    py::error_already_set Set;
    S.record(Set.value());
    Nan();
  }
}

Integrand pythonIntegrand(py::object F, std::string Name, unsigned Dim,
                          unsigned Outputs, std::vector<double> Lo,
                          std::vector<double> Hi,
                          std::vector<std::string> ParamNames,
                          std::vector<double> ParamDefaults) {
  auto S = std::make_shared<CallbackState>();
  // The callable is released with the GIL held, whichever thread drops
  // the last copy of the integrand.
  std::shared_ptr<py::object> Fn(new py::object(std::move(F)),
                                 [](py::object *O) {
                                   if (!Py_IsInitialized())
                                     return; // at exit: leak, never crash
                                   py::gil_scoped_acquire G;
                                   delete O;
                                 });
  vf::Expected<vf::IntegrandInfo> I = vf::nativeIntegrand(
      std::move(Name), Dim, Outputs, std::move(Lo), std::move(Hi),
      vf::NativeParams{ParamNames, std::move(ParamDefaults)},
      [Fn, S, ParamNames, Outputs](std::span<const double> X, std::size_t N,
                                   std::size_t D, std::span<const double> P,
                                   std::span<double> Out) {
        callBatch(*Fn, *S, ParamNames, Outputs, X, N, D, P, Out);
      });
  if (!I)
    throw py::value_error(I.message());
  return Integrand{std::move(*I), std::move(S)};
}

} // namespace

void bindPythonIntegrand(py::module_ &M) {
  M.def("python_integrand", &pythonIntegrand, py::arg("fn"), py::arg("name"),
        py::arg("dim"), py::arg("outputs"), py::arg("lo"), py::arg("hi"),
        py::arg("param_names"), py::arg("param_defaults"));
  M.def(
      "check_batch",
      [](py::handle V, std::size_t N, unsigned Outputs) {
        return checkBatch(V, N, Outputs);
      },
      py::arg("value"), py::arg("n"), py::arg("outputs"));
}

} // namespace vfpy
