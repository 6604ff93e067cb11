//===- vf/Integrator.h - Adaptive VEGAS+ integration ------------*- C++ -*-===//
//
// Integrator owns the iteration loop of VEGAS+ (Lepage, J. Comput. Phys.
// 439 (2021) 110386): each iteration draws `calls` samples through the
// adaptive map and stratification, runs them on the devices in tiles, and
// combines the per-tile sums in tile order, so the result does not depend on
// how many threads ran. Between iterations the map (AdaptiveMap) and the
// per-hypercube allocation (Strata) adapt, unless frozen.
//
//===----------------------------------------------------------------------===//
#ifndef VF_INTEGRATOR_H
#define VF_INTEGRATOR_H

#include "vf/Expected.h"
#include "vf/Integrand.h"
#include "vf/Result.h"

#include <cstdint>
#include <functional>
#include <memory>

namespace vf {

enum class NonFinitePolicy {
  Stop, ///< stop the run, naming the first bad sample's point (default)
  Zero, ///< count such samples as 0 and report how many
};

struct IntegratorOptions {
  /// Seed of the Philox stream; same seed, same result, whatever devices.
  std::uint64_t Seed = 1;
  /// Map damping alpha (0: no adaptation; 0.5 default; classic codes 1.5).
  double Alpha = 0.5;
  /// Stratification exponent beta (0: classic VEGAS; 0.75 default).
  double Beta = 0.75;
  /// Most increments per axis of the map (N_g).
  unsigned MaxNinc = 1000;
  /// Most hypercubes (lower M, the strata per axis, to stay below).
  std::uint64_t MaxHcube = 1000000;
  /// CPU worker threads; 0: every hardware thread.
  unsigned Threads = 0;
  NonFinitePolicy OnNonFinite = NonFinitePolicy::Stop;
};

class Integrator {
public:
  /// Checks the options and the integrand; errors say what to change.
  static Expected<std::unique_ptr<Integrator>>
  create(IntegrandInfo Integrand, IntegratorOptions Options = {});
  ~Integrator();

  /// Runs `warmup` iterations (adapting, excluded from the estimate) and
  /// then `iterations` measured ones of `calls` samples each. Returns the
  /// combined result over every measured iteration since creation. On a
  /// non-finite value (policy Stop) the error names the point; the
  /// iterations completed so far stay in result().
  Expected<Result> run(unsigned iterations, std::uint64_t calls,
                       unsigned warmup = 0);

  /// Stops adapting the map and the stratification.
  void freeze();
  bool frozen() const;
  /// Sets a parameter by name for the following iterations.
  Status setParam(const std::string &Name, double Value);
  const std::vector<double> &params() const;

  /// The result so far (also after a failed run).
  Result result() const;
  /// Called after every iteration (progress, tables).
  void onIteration(std::function<void(const IterationRow &)> Observer);

  const IntegrandInfo &integrand() const;
  const IntegratorOptions &options() const;

private:
  struct Impl;
  explicit Integrator(std::unique_ptr<Impl> I);
  std::unique_ptr<Impl> P;
};

} // namespace vf

#endif // VF_INTEGRATOR_H
