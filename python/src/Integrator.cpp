//===- python/src/Integrator.cpp - The integrator and its run loop --------===//
//
// _Integrator: vf::Integrator with Python's options, state methods and a
// run() that releases the GIL. The library runs on a thread of its own
// while the calling thread waits with the GIL released, waking every
// `poll` seconds (or when an iteration ends) to take the GIL briefly:
// it checks for signals (PyErr_CheckSignals: Ctrl-C on the main thread),
// hands finished iterations and progress to the Python callbacks (so they
// run on the caller's thread, never concurrently), and cancels the run
// (vf::Integrator::cancel) when one of those raised or a callback returned
// False. The workers then take no further tile, the iteration under way
// is dropped, and run() returns the completed iterations, unfinished and
// resumable (the next run() with the same numbers continues it bit for
// bit); a Python integrand's remaining batches become NaN at once, which
// the dropped iteration never uses. An exception is raised again once the
// run has stopped; a False only stops it (stopped_because "cancelled").
//
//===----------------------------------------------------------------------===//

#include "PyIntegrator.h"

#include "vf/ResultJson.h"

#include <pybind11/functional.h>
#include <pybind11/stl.h>

#include <chrono>
#include <condition_variable>
#include <deque>
#include <optional>
#include <stdexcept>
#include <thread>

namespace vfpy {

namespace {

/// What the library's thread and the waiting caller share during run().
struct RunChannel {
  std::mutex M;
  std::condition_variable Cv;
  std::deque<vf::IterationRow> Rows;
  std::optional<vf::IterationProgress> Progress;
  bool Finished = false;
  /// Rows handed over and rows the caller has served: the library waits
  /// for its row to be served before the next iteration starts, so a
  /// callback's False (or exception) stops the run there whatever the
  /// machine's speed, not some iterations later.
  std::uint64_t Pushed = 0, Served = 0;
};

py::tuple progressTuple(const vf::IterationProgress &P) {
  return py::make_tuple(P.Iteration, P.Warmup, P.TilesDone, P.Tiles,
                        P.SamplesDone, P.Samples);
}

void check(vf::Status S) {
  if (!S)
    raise(S.error());
}

PyIntegrator create(const Integrand &In, std::uint64_t Seed, double Alpha,
                    double Beta, unsigned Ninc, std::uint64_t MaxHcube,
                    unsigned Threads, bool NoCpu, std::vector<int> Gpus,
                    bool AllGpus, bool GpusRequired,
                    std::vector<double> Simulated, std::string Schedule,
                    bool NonFiniteZero, std::vector<double> ChannelWeights,
                    double ChannelFloor, const std::string &Precision) {
  vf::IntegratorOptions O;
  O.Seed = Seed;
  O.Alpha = Alpha;
  O.Beta = Beta;
  O.MaxNinc = Ninc;
  O.MaxHcube = MaxHcube;
  O.Threads = Threads;
  O.NoCpu = NoCpu;
  O.Gpus = std::move(Gpus);
  O.AllGpus = AllGpus;
  O.GpusRequired = GpusRequired;
  O.SimulatedDevices = std::move(Simulated);
  O.Schedule = std::move(Schedule);
  O.OnNonFinite =
      NonFiniteZero ? vf::NonFinitePolicy::Zero : vf::NonFinitePolicy::Stop;
  O.ChannelWeights = std::move(ChannelWeights);
  O.ChannelFloor = ChannelFloor;
  vf::Expected<vf::Precision> P = vf::parsePrecision(Precision);
  if (!P)
    raise(P.error());
  O.Arithmetic = *P;
  std::optional<vf::Expected<std::unique_ptr<vf::Integrator>>> I;
  {
    py::gil_scoped_release R; // setting up GPUs can take a while
    I.emplace(vf::Integrator::create(In.Info, O));
  }
  if (!*I)
    raise(I->error());
  return PyIntegrator{In, std::move(**I), std::nullopt};
}

/// Waits for the library's thread, serving the callbacks and signals on
/// this one; returns the first Python exception raised meanwhile (a null
/// object if none).
py::object serve(RunChannel &C, PyIntegrator &P, const py::object &OnIteration,
                 const py::object &OnProgress, double Poll) {
  py::object Pending;
  bool Cancelled = false;
  auto Cancel = [&] {
    Cancelled = true;
    P.I->cancel();
    if (P.In.Callback)
      P.In.Callback->Stop = true;
  };
  auto Stop = [&](py::object E) {
    Pending = std::move(E);
    Cancel();
  };
  // A callback's False (not None, which is any function's end) stops the
  // run without an error.
  auto Serve = [&](const py::object &F, py::object Arg) {
    if (!F.is_none() && F(std::move(Arg)).is(py::bool_(false)))
      Cancel();
  };
  const auto Wait = std::chrono::duration<double>(Poll);
  unsigned LastRow = 0;
  for (bool Finished = false; !Finished;) {
    std::deque<vf::IterationRow> Rows;
    std::optional<vf::IterationProgress> Progress;
    {
      py::gil_scoped_release R;
      std::unique_lock<std::mutex> L(C.M);
      C.Cv.wait_for(L, Wait, [&] { return C.Finished || !C.Rows.empty(); });
      Finished = C.Finished;
      Rows.swap(C.Rows);
      Progress.swap(C.Progress);
    }
    // Acknowledged when this pass is over, served or skipped.
    struct Acknowledge {
      RunChannel &C;
      std::size_t N;
      ~Acknowledge() {
        if (!N)
          return;
        {
          std::lock_guard<std::mutex> L(C.M);
          C.Served += N;
        }
        C.Cv.notify_all();
      }
    } Ack{C, Rows.size()};
    if (Pending || Cancelled)
      continue;
    try {
      if (PyErr_CheckSignals() != 0)
        throw py::error_already_set();
      for (const vf::IterationRow &Row : Rows) {
        LastRow = Row.Index;
        if (!Cancelled)
          Serve(OnIteration, resultRow(Row));
      }
      // A snapshot from an iteration already reported is stale.
      if (Progress && Progress->Iteration > LastRow && !Cancelled)
        Serve(OnProgress, progressTuple(*Progress));
    } catch (py::error_already_set &E) {
      Stop(E.value());
    } catch (py::builtin_exception &E) { // a callback's bad argument types
      E.set_error();
      Stop(py::error_already_set().value());
    } catch (std::exception &E) {
      Stop(newException(PyExc_RuntimeError, E.what()));
    }
  }
  return Pending;
}

py::object run(PyIntegrator &P, unsigned Iterations, std::uint64_t Calls,
               unsigned Warmup, py::object OnIteration, py::object OnProgress,
               double Poll) {
  const Claim Held(P, "run");
  P.startCall();
  auto C = std::make_shared<RunChannel>();
  P.I->onIteration([C](const vf::IterationRow &Row) {
    std::unique_lock<std::mutex> L(C->M);
    C->Rows.push_back(Row);
    const std::uint64_t Mine = ++C->Pushed;
    C->Cv.notify_all();
    C->Cv.wait(L, [&] { return C->Served >= Mine; });
  });
  const bool WantProgress = !OnProgress.is_none();
  P.I->onProgress([C, WantProgress](const vf::IterationProgress &Pr) {
    if (!WantProgress)
      return;
    std::lock_guard<std::mutex> L(C->M);
    C->Progress = Pr;
  });
  std::optional<vf::Expected<vf::Result>> Out;
  std::exception_ptr Failure;
  std::thread Runner([&] {
    try {
      Out.emplace(P.I->run(Iterations, Calls, Warmup));
    } catch (...) {
      Failure = std::current_exception();
    }
    {
      std::lock_guard<std::mutex> L(C->M);
      C->Finished = true;
    }
    C->Cv.notify_all();
  });
  py::object Pending = serve(*C, P, OnIteration, OnProgress, Poll);
  {
    py::gil_scoped_release R;
    Runner.join();
  }
  P.I->onIteration(nullptr);
  P.I->onProgress(nullptr);
  if (Pending)
    raiseObject(std::move(Pending));
  P.raiseCallbackError();
  if (Failure)
    std::rethrow_exception(Failure);
  if (!Out) // stopped, and nothing above said why: cannot happen
    throw std::logic_error("the run stopped without a reason");
  if (!*Out)
    raise(Out->error());
  return py::cast(std::make_shared<vf::Result>(std::move(**Out)));
}

} // namespace

Claim::Claim(const PyIntegrator &P, const char *Method) : P(P) {
  const std::thread::id Me = std::this_thread::get_id();
  if (P.Owner && *P.Owner != Me)
    raise(vf::Error{std::string("the integrator is busy: ") + Method +
                    "() was called from another thread while a call on it "
                    "(run, extend or sampling) is under way. An integrator "
                    "does one thing at a time: wait for that call to "
                    "return, or make one integrator per thread"});
  if (!P.Owner) {
    P.Owner = Me;
    Took = true;
  }
}

Claim::~Claim() {
  if (Took)
    P.Owner.reset();
}

/// The device list's grammar is the library's (vf::parseDevices): the
/// options it sets, as _Integrator's constructor takes them.
py::dict parseDevices(const std::string &Spec) {
  vf::IntegratorOptions O;
  check(vf::parseDevices(Spec, O));
  py::dict D;
  D["threads"] = O.Threads;
  D["no_cpu"] = O.NoCpu;
  D["gpus"] = O.Gpus;
  D["all_gpus"] = O.AllGpus;
  D["gpus_required"] = O.GpusRequired;
  D["simulated"] = O.SimulatedDevices;
  return D;
}

/// The option table (vf/Options.def), one dict per row, for the keywords'
/// checks and the tests that every door has every option.
py::list optionTable() {
  py::list Rows;
  for (const vf::OptionInfo &I : vf::optionTable()) {
    py::dict D;
    for (auto [Key, Value] : {std::pair{"name", I.Name},
                              {"type", I.Type},
                              {"default", I.Default},
                              {"unit", I.Unit},
                              {"flag", I.Flag},
                              {"toml", I.Toml},
                              {"python", I.Python},
                              {"json", I.Json},
                              {"description", I.Description}})
      D[Key] = std::string(Value);
    D["lo"] = I.Lo;
    D["hi"] = I.Hi;
    Rows.append(std::move(D));
  }
  return Rows;
}

/// The integrator's state: its files and the frozen map.
static void bindState(py::class_<PyIntegrator> &C) {
  C.def("save_state",
        [](const PyIntegrator &P, const std::string &F) {
          const Claim Held(P, "save_state");
          check(P.I->saveState(F));
        })
      .def("load_state",
           [](PyIntegrator &P, const std::string &F) {
             const Claim Held(P, "load_state");
             check(P.I->loadState(F));
           })
      .def("checkpoint_to",
           [](PyIntegrator &P, const std::string &F) {
             const Claim Held(P, "checkpoint_to");
             check(P.I->checkpointTo(F));
           })
      .def("save_grid",
           [](const PyIntegrator &P, const std::string &F) {
             const Claim Held(P, "save_grid");
             check(P.I->saveGrid(F));
           })
      .def("load_grid",
           [](PyIntegrator &P, const std::string &F) {
             const Claim Held(P, "load_grid");
             check(P.I->loadGrid(F));
           })
      .def("freeze",
           [](PyIntegrator &P) {
             const Claim Held(P, "freeze");
             P.I->freeze();
           })
      .def("frozen", [](const PyIntegrator &P) {
        const Claim Held(P, "frozen");
        return P.I->frozen();
      });
}

/// The module's functions of the run options and the result class.
static void bindOptionsAndResult(py::module_ &M) {
  M.def("parse_devices", &parseDevices, py::arg("spec"));
  M.def("options", &optionTable);
  py::class_<vf::Result, std::shared_ptr<vf::Result>>(M, "_Result")
      .def("to_dict", &resultToDict)
      .def("to_json", [](const vf::Result &R, const std::string &Name,
                         const std::string &Settings, int Indent) {
        return vf::resultToJson(R, Name, Settings, Indent);
      });
}

/// Sets the accuracy target; what it asks that the precision cannot
/// give (the integrator's note, for a Python warning), or "".
static std::string setTarget(PyIntegrator &P, double Rtol, double Atol) {
  const Claim Held(P, "set_target");
  check(P.I->setTarget(Rtol, Atol));
  for (const vf::IntegratorNote &N : P.I->notes())
    if (N.What == vf::IntegratorNote::Kind::Precision)
      return N.Text;
  return "";
}

void bindIntegrator(py::module_ &M) {
  bindOptionsAndResult(M);
  py::class_<PyIntegrator> C(M, "_Integrator");
  C.def(py::init(&create), py::arg("integrand"), py::arg("seed"),
        py::arg("alpha"), py::arg("beta"), py::arg("ninc"),
        py::arg("max_hcube"), py::arg("threads"), py::arg("no_cpu"),
        py::arg("gpus"), py::arg("all_gpus"), py::arg("gpus_required"),
        py::arg("simulated"), py::arg("schedule"), py::arg("nonfinite_zero"),
        py::arg("channel_weights"), py::arg("channel_floor"),
        py::arg("precision"))
      .def("run", &run, py::arg("iterations"), py::arg("calls"),
           py::arg("warmup"), py::arg("on_iteration"), py::arg("on_progress"),
           py::arg("poll"))
      .def("result",
           [](const PyIntegrator &P) {
             const Claim Held(P, "result");
             return std::make_shared<vf::Result>(P.I->result());
           })
      .def("extend",
           [](PyIntegrator &P, unsigned Iterations) {
             const Claim Held(P, "extend");
             auto R = [&] {
               py::gil_scoped_release Free;
               return P.I->extend(Iterations);
             }();
             if (!R)
               raise(R.error());
             return std::make_shared<vf::Result>(std::move(*R));
           })
      .def("restart_statistics",
           [](PyIntegrator &P) {
             const Claim Held(P, "restart_statistics");
             check(P.I->restartStatistics());
           })
      .def("set_target", &setTarget)
      .def("summary",
           [](const PyIntegrator &P) {
             const Claim Held(P, "summary");
             return P.I->summary();
           })
      .def("plan",
           [](const PyIntegrator &P) {
             const Claim Held(P, "plan");
             const vf::RunPlan &R = P.I->plan();
             return py::make_tuple(R.Iterations, R.Calls, R.Warmup, R.Done);
           })
      .def("set_param",
           [](PyIntegrator &P, const std::string &Name, double V) {
             const Claim Held(P, "set_param");
             check(P.I->setParam(Name, V));
           })
      .def("params",
           [](const PyIntegrator &P) {
             const Claim Held(P, "params");
             return P.I->params();
           })
      .def("devices",
           [](const PyIntegrator &P) {
             const Claim Held(P, "devices");
             py::list L;
             for (const vf::WorkerInfo &W : P.I->devices())
               L.append(py::make_tuple(W.Name, W.Kind, W.Description));
             return L;
           })
      .def("notes", [](const PyIntegrator &P) {
        const Claim Held(P, "notes");
        py::list L;
        for (const vf::IntegratorNote &N : P.I->notes())
          L.append(N.Text);
        return L;
      });
  bindState(C);
  bindEvents(C);
  bindReport(M, C);
}

} // namespace vfpy
