//===- python/src/Tasks.cpp - The task API for Python's drivers -----------===//
//
// task_init, task_part, task_merge and task_progress over vf/Tasks.h, for
// vegasflow._tasks (the Dask and Spark drivers): the run is an _Integrator,
// whose integrand, options and parameters vegasflow.Integrator has checked
// as for any run, and a plan; states and parts are bytes. Each call makes
// its own integrator with the GIL released, so a worker's other threads
// (Dask's heartbeats) go on meanwhile.
//
//===----------------------------------------------------------------------===//

#include "PyIntegrator.h"

#include "vf/ResultJson.h"
#include "vf/Tasks.h"

#include <pybind11/stl.h>

namespace vfpy {

namespace {

/// The run \p P and the plan describe; refuses a Python callable, which
/// a task engine's worker could not call.
vf::TaskRun taskRun(const PyIntegrator &P, unsigned Iterations,
                    std::uint64_t Calls, unsigned Warmup) {
  const Claim Held(P, "the task protocol");
  if (P.In.Callback)
    raise(vf::Error{"the task protocol runs compiled integrands only (a "
                    "Python callable cannot be sent to a worker)"});
  return vf::TaskRun{P.In.Info,  P.I->options(), P.I->params(),
                     Iterations, Calls,          Warmup};
}

/// \p F's value, computed with the GIL released; its error raised.
template <typename F> auto released(F &&Fn) {
  auto R = [&] {
    py::gil_scoped_release Free;
    return Fn();
  }();
  if (!R)
    raise(R.error());
  return std::move(*R);
}

/// (the result so far as vegasc's JSON document, done, total).
py::tuple progressTuple(const vf::TaskRun &R, const vf::TaskProgress &P) {
  return py::make_tuple(
      vf::resultToJson(P.SoFar, R.Integrand.Name, "{\"file\": \"\"}"), P.Done,
      P.Total);
}

vf::TaskBytes stateOf(std::string Bytes) {
  return vf::TaskBytes{std::move(Bytes), "the state"};
}

} // namespace

void bindTasks(py::module_ &M) {
  M.def(
      "task_init",
      [](const PyIntegrator &P, unsigned Iterations, std::uint64_t Calls,
         unsigned Warmup) {
        vf::TaskRun R = taskRun(P, Iterations, Calls, Warmup);
        return py::bytes(released([&] { return vf::taskInit(R); }));
      },
      py::arg("integrator"), py::arg("iterations"), py::arg("calls"),
      py::arg("warmup"));
  M.def(
      "task_part",
      [](const PyIntegrator &P, unsigned Iterations, std::uint64_t Calls,
         unsigned Warmup, std::string State, std::uint64_t Index,
         std::uint64_t Count, std::vector<double> Weights) {
        vf::TaskRun R = taskRun(P, Iterations, Calls, Warmup);
        return py::bytes(released([&] {
          return vf::taskPart(R, stateOf(std::move(State)),
                              vf::partOf(Index, Count, std::move(Weights)));
        }));
      },
      py::arg("integrator"), py::arg("iterations"), py::arg("calls"),
      py::arg("warmup"), py::arg("state"), py::arg("index"), py::arg("count"),
      py::arg("weights"));
  M.def(
      "task_merge",
      [](const PyIntegrator &P, unsigned Iterations, std::uint64_t Calls,
         unsigned Warmup, std::string State, std::vector<std::string> Parts) {
        vf::TaskRun R = taskRun(P, Iterations, Calls, Warmup);
        std::vector<vf::TaskBytes> Named;
        for (std::string &B : Parts)
          Named.push_back(
              {std::move(B), "part " + std::to_string(Named.size())});
        vf::TaskMerged Merged = released([&] {
          return vf::taskMerge(R, stateOf(std::move(State)), std::move(Named));
        });
        return py::make_tuple(py::bytes(Merged.State),
                              progressTuple(R, Merged.Progress));
      },
      py::arg("integrator"), py::arg("iterations"), py::arg("calls"),
      py::arg("warmup"), py::arg("state"), py::arg("parts"));
  M.def(
      "task_progress",
      [](const PyIntegrator &P, unsigned Iterations, std::uint64_t Calls,
         unsigned Warmup, std::string State) {
        vf::TaskRun R = taskRun(P, Iterations, Calls, Warmup);
        return progressTuple(R, released([&] {
                               return vf::taskProgress(
                                   R, stateOf(std::move(State)));
                             }));
      },
      py::arg("integrator"), py::arg("iterations"), py::arg("calls"),
      py::arg("warmup"), py::arg("state"));
}

} // namespace vfpy
