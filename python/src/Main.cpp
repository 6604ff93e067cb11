//===- python/src/Main.cpp - The _vegasflow extension module --------------===//
//
// The module's entry point: creates the exception types and the shared
// helpers of Binding.h, then lets each part bind its names. Everything here
// is low level (leading underscores in the package); the documented API is
// the Python package vegasflow, built on it.
//
//===----------------------------------------------------------------------===//

#include "Binding.h"

#include "vf/ChannelWeightsSpec.h"
#include "vf/Devices.h"
#include "vf/Integrator.h"
#include "vf/Version.h"

#include <pybind11/stl.h>

namespace vfpy {

PyObject *ErrorType = nullptr;
PyObject *CompileFailureType = nullptr;

void CallbackState::record(py::object Exception) {
  std::lock_guard<std::mutex> L(M);
  if (!First)
    First = std::move(Exception);
  Stop = true;
}

py::object CallbackState::take() {
  std::lock_guard<std::mutex> L(M);
  return std::move(First);
}

void CallbackState::reset() {
  std::lock_guard<std::mutex> L(M);
  First = py::object();
  Stop = false;
}

py::object newException(PyObject *Type, const std::string &Msg) {
  return py::reinterpret_steal<py::object>(
      PyObject_CallFunction(Type, "s", Msg.c_str()));
}

void raiseObject(py::object Exception) {
  PyObject *Tb = PyException_GetTraceback(Exception.ptr());
  PyErr_Restore(py::type::of(Exception).inc_ref().ptr(),
                Exception.release().ptr(), Tb);
  throw py::error_already_set();
}

void raise(const vf::Error &E) {
  raiseObject(
      newException(E.Option.empty() ? ErrorType : PyExc_ValueError, E.Message));
}

} // namespace vfpy

using namespace vfpy;

PYBIND11_MODULE(_vegasflow, M) {
  M.doc() = "vegasflow's C++ library, low level: use the vegasflow package.";
  ErrorType = PyErr_NewExceptionWithDoc(
      "vegasflow.Error",
      "An error reported by the vegasflow library (a failed run, a "
      "checkpoint that does not fit, ...): the message says what and where.",
      PyExc_RuntimeError, nullptr);
  CompileFailureType = PyErr_NewException("vegasflow._CompileFailure",
                                          ErrorType, nullptr);
  M.add_object("Error", py::handle(ErrorType));
  M.add_object("_CompileFailure", py::handle(CompileFailureType));
  M.def("version", [] { return std::string(vf::versionString()); });
  M.def("list_devices", [] {
    vf::DeviceList D = vf::listDevices();
    py::list Gpus;
    for (const vf::GpuInfo &G : D.Gpus)
      Gpus.append(py::dict(py::arg("index") = G.Index, py::arg("name") = G.Name,
                           py::arg("major") = G.Major,
                           py::arg("minor") = G.Minor,
                           py::arg("multiprocessors") = G.Multiprocessors,
                           py::arg("memory_bytes") = G.MemoryBytes));
    return py::dict(py::arg("cpu_threads") = D.CpuThreads,
                    py::arg("gpus") = Gpus,
                    py::arg("no_gpu_reason") = D.NoGpuReason);
  });
  M.def("check_schedule", [](const std::string &S) {
    if (vf::Status St = vf::checkSchedule(S); !St)
      return St.message();
    return std::string();
  });
  // The weights' grammar is the library's (vf/ChannelWeightsSpec.h):
  // (weights, "") or ([], what is wrong).
  M.def("parse_channel_weights", [](const std::string &S) {
    vf::Expected<std::vector<double>> W = vf::parseChannelWeights(S);
    return W ? py::make_tuple(*W, std::string())
             : py::make_tuple(std::vector<double>(), W.message());
  });
  M.def("channel_weights_text",
        [](const std::vector<double> &W) { return vf::channelWeightsText(W); });
  bindCompile(M);
  bindPythonIntegrand(M);
  bindIntegrator(M);
  bindTasks(M);
}
