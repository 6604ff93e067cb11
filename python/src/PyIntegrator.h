//===- python/src/PyIntegrator.h - vf::Integrator for Python ----*- C++ -*-===//
//
// The object behind vegasflow.Integrator: a vf::Integrator and the
// integrand it was made for (which, for a Python callable, carries the
// callback state run and sample consult). Integrator.cpp binds the run
// loop and the state methods, Events.cpp the event methods (and the event
// files), Report.cpp the map snapshot and the HTML report.
//
//===----------------------------------------------------------------------===//
#ifndef VF_PYTHON_PYINTEGRATOR_H
#define VF_PYTHON_PYINTEGRATOR_H

#include "Binding.h"

#include "vf/Integrator.h"

#include <memory>
#include <optional>
#include <thread>

namespace vfpy {

struct PyIntegrator {
  Integrand In;
  std::unique_ptr<vf::Integrator> I;
  /// The thread whose call is under way (run, extend and sampling release
  /// the GIL, so another thread may call in meanwhile), if any; read and
  /// written with the GIL held.
  mutable std::optional<std::thread::id> Owner;

  /// Clears a Python integrand's stop flag and error before a call.
  void startCall() {
    if (In.Callback)
      In.Callback->reset();
  }
  /// Raises what a Python integrand raised during the call, if anything.
  void raiseCallbackError() {
    if (!In.Callback)
      return;
    if (py::object E = In.Callback->take())
      raiseObject(std::move(E));
  }
};

/// Held for the length of every method call: a call from another thread
/// while one is under way raises vegasflow.Error at once (never waits,
/// never races); a callback of the call under way (on the same thread)
/// may call in, and the library refuses what it must (vf::Integrator's
/// busy()).
class Claim {
public:
  Claim(const PyIntegrator &P, const char *Method);
  ~Claim();
  Claim(const Claim &) = delete;
  Claim &operator=(const Claim &) = delete;

private:
  const PyIntegrator &P;
  bool Took = false;
};

void bindEvents(py::class_<PyIntegrator> &C);
void bindReport(py::module_ &M, py::class_<PyIntegrator> &C);

} // namespace vfpy

#endif // VF_PYTHON_PYINTEGRATOR_H
