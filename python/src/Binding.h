//===- python/src/Binding.h - Shared pieces of the _vegasflow module -*- C++ -*-===//
//
// The extension is split by what it wraps: compiling (Compile.cpp), the
// integrator and its run loop (Integrator.cpp), events (Events.cpp), the
// task protocol (Tasks.cpp), Python callables as integrands
// (PythonIntegrand.cpp) and the conversion of results to Python values
// (Convert.cpp). This header is what they share:
// the integrand handle, the error mapping and the bind functions Main.cpp
// calls. The Python package (python/vegasflow/) builds the public API on
// these low-level names.
//
//===----------------------------------------------------------------------===//
#ifndef VF_PYTHON_BINDING_H
#define VF_PYTHON_BINDING_H

#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Result.h"

#include <pybind11/pybind11.h>

#include <atomic>
#include <memory>
#include <mutex>

namespace vfpy {

namespace py = pybind11;

/// What a Python callable integrand shares with the integrator that runs
/// it: the first exception it raised (re-raised by run/sample), and a stop
/// flag that makes the remaining batches NaN without calling Python (set
/// on that exception and on Ctrl-C).
struct CallbackState {
  std::atomic<bool> Stop{false};
  /// Keeps the first error; the GIL must be held.
  void record(py::object Exception);
  /// Moves the recorded error out (none: a null object); GIL held.
  py::object take();
  void reset();

private:
  std::mutex M;
  py::object First;
};

/// An integrand as Python sees it: the runtime's description, and for a
/// Python callable its callback state.
struct Integrand {
  vf::IntegrandInfo Info;
  std::shared_ptr<CallbackState> Callback;
};

/// Raises the library error \p E: ValueError when it names an option,
/// vegasflow.Error otherwise.
[[noreturn]] void raise(const vf::Error &E);
/// Raises the Python exception \p Exception (an instance), traceback kept.
[[noreturn]] void raiseObject(py::object Exception);
/// A new exception instance of \p Type with message \p Msg.
py::object newException(PyObject *Type, const std::string &Msg);

/// The result, an iteration's row, as the plain Python values (lists,
/// numbers, dicts) the package's Result and IterationRow read.
py::dict resultToDict(const vf::Result &R);
py::dict resultRow(const vf::IterationRow &R);

void bindCompile(py::module_ &M);
void bindIntegrator(py::module_ &M);
void bindPythonIntegrand(py::module_ &M);
void bindTasks(py::module_ &M);

/// vegasflow.Error (a RuntimeError), created by Main.cpp.
extern PyObject *ErrorType;
/// Raised by compile; the package turns it into vegasflow.CompileError.
extern PyObject *CompileFailureType;

} // namespace vfpy

#endif // VF_PYTHON_BINDING_H
