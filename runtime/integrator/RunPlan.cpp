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

namespace vf {

namespace {
constexpr unsigned MaxIterations = 1000000;
} // namespace

Status checkRunPlan(unsigned Iterations, std::uint64_t Calls,
                    unsigned Warmup) {
  // Two samples per hypercube at least: a variance needs two.
  if (Calls < 2 || Calls > MaxRunCalls)
    return Error{optionRef("calls") + " must be a whole number of samples "
                 "from 2 to 1e18, got " + std::to_string(Calls),
                 ErrorScope::Shared, "calls"};
  if (Iterations < 1 || Iterations > MaxIterations)
    return Error{optionRef("iterations") + " must be an integer from 1 to " +
                     std::to_string(MaxIterations) + ", got " +
                     std::to_string(Iterations),
                 ErrorScope::Shared, "iterations"};
  if (Warmup > MaxIterations)
    return Error{optionRef("warmup") + " must be an integer from 0 to " +
                     std::to_string(MaxIterations) + ", got " +
                     std::to_string(Warmup),
                 ErrorScope::Shared, "warmup"};
  return Status::ok();
}

Status checkResume(const RunPlan &Saved, unsigned Iterations,
                   std::uint64_t Calls, unsigned Warmup) {
  if (Saved.Iterations == Iterations && Saved.Calls == Calls &&
      Saved.Warmup == Warmup)
    return Status::ok();
  const char *Differs = Saved.Warmup != Warmup         ? "warmup"
                        : Saved.Iterations != Iterations ? "iterations"
                                                         : "calls";
  return Error{
      "the restored run was " + std::to_string(Saved.Warmup) + " warm-up + " +
          std::to_string(Saved.Iterations) + " iterations of " +
          std::to_string(Saved.Calls) + " calls (" +
          std::to_string(Saved.Done) + " done); this run asks for " +
          std::to_string(Warmup) + " warm-up + " + std::to_string(Iterations) +
          " iterations of " + std::to_string(Calls) +
          " calls. Use the same numbers to resume",
      ErrorScope::Shared, Differs};
}

} // namespace vf
