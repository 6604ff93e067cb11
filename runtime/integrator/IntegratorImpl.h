//===- runtime/integrator/IntegratorImpl.h - The integrator -----*- C++ -*-===//
//
// Integrator::Impl owns the inputs, the loop and the units it calls, each
// with a small interface of its own, as in Lepage's vegas:
//   RunState.h        where the run stands: exactly what a checkpoint
//                     stores (Checkpoint.h), with its conversion to it
//   Iteration.h       one iteration as named steps (Iteration.cpp; the
//                     estimate IterationEstimate.cpp, the memory check
//                     MemoryBudget.cpp), returning what happened
//   RankExchange.h    MPI: ranks claim groups of tiles and exchange them
//                     (the packets GroupPacket.h, checked before use)
//   EventStream.h     events from the frozen map (sample, unweight)
//   DeviceSet.h       the devices of a run
// and the Integrator's entry points: Integrator.cpp (create, run and the
// loop, the result, the small accessors), State.cpp (checkpoint and grid
// files), StateChecks.cpp (a loaded state's invariants, forged
// checkpoints), EventStream.cpp (sample, unweight).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H
#define VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H

#include "vf/Integrator.h"

#include "integrator/Checkpoint.h"
#include "integrator/DeviceSet.h"
#include "integrator/EventStream.h"
#include "integrator/FormatDouble.h"
#include "integrator/Iteration.h"
#include "integrator/RankExchange.h"
#include "integrator/RunState.h"
#include "scheduler/TileScheduler.h"

#include <atomic>
#include <functional>
#include <memory>
#include <string>
#include <thread>
#include <vector>

namespace vf {

/// Held by every Integrator call that reads or changes the state: a second
/// such call from another thread is refused with busyError rather than
/// waited for or let race. On the thread of the call under way (its
/// observers) only the Reentrant calls pass, those that take effect
/// between iterations (a checkpoint's path, a target, saving the state).
class BusyClaim {
public:
  BusyClaim(std::atomic<std::thread::id> &Owner, bool Reentrant = false)
      : Owner(Owner) {
    std::thread::id None;
    const std::thread::id Me = std::this_thread::get_id();
    Took = Owner.compare_exchange_strong(None, Me);
    Held = Took || (Reentrant && None == Me);
  }
  ~BusyClaim() {
    if (Took)
      Owner = std::thread::id();
  }
  BusyClaim(const BusyClaim &) = delete;
  BusyClaim &operator=(const BusyClaim &) = delete;
  explicit operator bool() const { return Held; }

private:
  std::atomic<std::thread::id> &Owner;
  bool Took = false, Held = false;
};

/// The error of a call refused by BusyClaim; \p What names the call.
Error busyError(const std::string &What);

/// The integrator, as vegas's: its inputs (the integrand, the options,
/// the parameters, the devices and the observers), the run's state, and
/// the parts that work on it; it owns the loop (runPlan).
struct Integrator::Impl {
  // Inputs.
  IntegrandInfo I;
  IntegratorOptions O;
  std::vector<double> Params;
  /// The devices (with their rates and failures) and the scheduling policy.
  DeviceSet Workers;
  ScheduleSpec Schedule;
  std::vector<IntegratorNote> Notes;
  std::string CheckpointPath;
  std::function<void(const IterationRow &)> Observer;
  std::function<void(const IterationProgress &)> Progress;

  // The loop's control.
  /// loadState() restored the plan: the next run() may continue it.
  bool Restored = false;
  StopReason Stopped = StopReason::None;
  /// Integrator::cancel(); run() clears it when it returns.
  std::atomic<bool> CancelRequested{false};
  /// The thread of the call under way that reads or changes the state
  /// (BusyClaim), or none.
  std::atomic<std::thread::id> Busy{};

  // The run and its parts.
  RunState State;
  RankExchange Ranks;
  Iteration Step;
  EventStream Events;

  Impl(IntegrandInfo In, IntegratorOptions Opt, ScheduleSpec S, DeviceSet D,
       std::vector<IntegratorNote> N)
      : I(std::move(In)), O(std::move(Opt)), Params(I.ParamDefaults),
        Workers(std::move(D)), Schedule(S), Notes(std::move(N)),
        State(I.Dim, I.Outputs, I.HistCells, unsigned(I.Channels.size())),
        Step(I, O, Params, Workers, Schedule, Ranks, CancelRequested, Progress),
        Events(I, O, Params) {
    State.Unit = roundingUnit(O.Arithmetic);
  }

  // Integrator.cpp
  /// Runs Plan's remaining iterations, stopping early at the target.
  Expected<Result> runPlan(Integrator &Self);
  /// One iteration of the plan, added to the state, then the checkpoint;
  /// \p Cancelled set when cancel() dropped it.
  Status iterate(bool &Cancelled);
  /// Whether the accuracy target is set and met by the combined estimate
  /// after a measured iteration of this plan (never in its warm-up).
  bool targetReached() const;
  /// Why the run stopped: as runPlan() decided, or, for a state restored
  /// by loadState() and not run since (a task engine's merged state), what
  /// runPlan() would decide at once.
  StopReason stopReason() const;
  /// The histograms of the result (Integrator::result).
  std::vector<Histogram> histograms() const;
  /// About the integrand's value \p Central.
  std::vector<WeightListResult> weightLists(double Central) const;
  /// The channels of the result (ChannelPasses.cpp).
  std::vector<ChannelSummary> channels() const;

  // State.cpp
  /// The state as a checkpoint; without \p WithState only what
  /// checkCompatible compares (identity, options, parameters).
  CheckpointState snapshot(bool WithState) const;
  Status restoreChecked(CheckpointState S, const std::string &Name);
};

/// The Error for the exception being handled, from an entry point doing
/// \p What ("run", "loadState", ...): out of memory says so and what to
/// lower; anything else is named by its what().
Error currentExceptionError(const std::string &What);

/// Runs an entry point's body \p Fn; an exception from below it (the
/// standard library's std::bad_alloc, std::system_error, or a callback's)
/// becomes an Error value, so that none leaves the library: a caller
/// through the C API, or a front end, sees an error, never std::terminate.
template <typename F>
auto guarded(const std::string &What, F &&Fn) -> decltype(Fn()) {
  try {
    return Fn();
  } catch (...) {
    return currentExceptionError(What);
  }
}

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_INTEGRATORIMPL_H
