//===- integrator/RunPlan.cpp - The checks of a run's plan ----------------===//
//
// What run() refuses about its three arguments, as free functions, so that
// a front end can refuse a bad plan before it compiles anything: vegasc's
// --calls 1 is a usage error, a batch's calls = 1 an error at its TOML line.
// Messages name the arguments as options (optionRef), and Error::Option
// says which one is wrong, for the front end to name its own flag or key.
//
//===----------------------------------------------------------------------===//

#include "vf/Integrator.h"

#include "integrator/FormatDouble.h"

#include <cmath>
#include <utility>

namespace vf {

Status checkRunPlan(unsigned Iterations, std::uint64_t Calls,
                    unsigned Warmup) {
  // Two samples per hypercube at least: a variance needs two.
  if (!inRange(OptionId::Calls, double(Calls)))
    return Error{optionRef("calls") +
                     " must be a whole number of samples "
                     "from " +
                     rangeText(OptionId::Calls) + ", got " +
                     std::to_string(Calls),
                 "calls"};
  if (!inRange(OptionId::Iterations, Iterations))
    return Error{optionRef("iterations") + " must be an integer from " +
                     rangeText(OptionId::Iterations) + ", got " +
                     std::to_string(Iterations),
                 "iterations"};
  if (!inRange(OptionId::Warmup, Warmup))
    return Error{optionRef("warmup") + " must be an integer from " +
                     rangeText(OptionId::Warmup) + ", got " +
                     std::to_string(Warmup),
                 "warmup"};
  return Status::ok();
}

Status checkResume(const RunPlan &Saved, unsigned Iterations,
                   std::uint64_t Calls, unsigned Warmup) {
  auto Plan = [](unsigned W, unsigned It, std::uint64_t C) {
    return std::to_string(W) + " warm-up + " + std::to_string(It) +
           " iterations of " + std::to_string(C) + " calls";
  };
  const std::string Both = "the restored run was " +
                           Plan(Saved.Warmup, Saved.Iterations, Saved.Calls) +
                           " (" + std::to_string(Saved.Done) +
                           " done); this run asks for " +
                           Plan(Warmup, Iterations, Calls) + ": ";
  // The map and the allocation were trained for the saved calls, and the
  // iterations done were warm-up or measured by the saved plan: another
  // value of either is another run, not a continuation of this one.
  if (Saved.Calls != Calls)
    return Error{Both + "another number of " + optionRef("calls") +
                     " is another run (the map and the allocation were "
                     "trained with " + std::to_string(Saved.Calls) +
                     "); resume with the same calls", "calls"};
  if (Saved.Warmup != Warmup)
    return Error{Both + "the " + optionRef("warmup") +
                     " iterations cannot change once a run has started; "
                     "resume with the same warm-up", "warmup"};
  if (Iterations < Saved.measured())
    return Error{Both + "it has already measured " +
                     std::to_string(Saved.measured()) +
                     " iterations, more than the " + optionRef("iterations") +
                     " asked for; ask for at least that many", "iterations"};
  return Status::ok();
}

Status checkTarget(const IntegratorOptions &O) {
  for (auto [Id, V] :
       {std::pair{OptionId::Rtol, O.Rtol}, std::pair{OptionId::Atol, O.Atol}}) {
    const std::string Name(optionInfo(Id).Name);
    if (!inRange(Id, V) || !std::isfinite(V))
      return Error{optionRef(Name) + " must be a finite number " +
                       rangeText(Id) + " (0: no target), got " +
                       formatDouble(V),
                   Name};
  }
  return Status::ok();
}

} // namespace vf
