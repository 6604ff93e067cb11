//===- vf/Process.h - Class-based processes as integrands -------*- C++ -*-===//
//
// Generated matrix elements (MadGraph's standalone C++ output and the like)
// come as classes: an object whose parameters are set once (read from a
// parameter card), with member state and std::vector buffers, and a method
// evaluated per point. Such an object cannot be shared between threads,
// and building one per call would read the card every batch. This adapter
// keeps a pool of them behind a native integrand (vf/Native.h), so the
// class is used as it comes:
//
//   auto I = vf::processIntegrand(
//       vf::ProcessSpec{"ee_mumu", /*Dim=*/2, /*Outputs=*/1, {0, 0}, {1, 1}},
//       [] {
//         auto P = std::make_unique<CPPProcess>();
//         P->initProc("param_card.dat");
//         return P;
//       },
//       [](CPPProcess &P, std::span<const double> X, std::span<double> Out) {
//         Out[0] = P.sigma(X[0], X[1]);
//       });
//
// Eval may also take the parameters' current values (Integrator::setParam,
// in the order of ProcessSpec::Params.Names) before Out:
// (P, X, Params, Out).
//
// Objects. The factory returns a std::unique_ptr or std::shared_ptr to a
// process. A batch of points takes a free object, or has the factory build
// one if every object is busy, evaluates each of its points with it (Eval
// once per point: X the point's Dim coordinates, Out its Outputs values)
// and gives it back. So an object is never used by two threads at once, is
// built once and reused, and there are at most as many objects as batches
// ever evaluated at the same time: with the integrator, its thread count
// (IntegratorOptions::Threads), whatever the number of iterations and runs.
// Calls of the factory never overlap one another (generated code often
// sets global parameters while it initialises), though they may overlap
// evaluations on other objects. The objects live as long as the returned
// IntegrandInfo or any copy of it.
//
// Errors. The first object is built here, so a factory that throws or
// returns a null pointer is an Error naming the integrand (and the
// exception's what()). A factory that fails later, or an Eval that throws,
// makes that batch's values NaN, reported like any non-finite value (see
// vf/Native.h); no object is lost.
//
// Determinism. Which object evaluates which batch depends on the threads'
// timing. Results are bitwise reproducible for a seed, whatever the thread
// count, if and only if Eval's values depend on the point and the
// parameters alone: member buffers overwritten by every call are fine;
// state carried from one point to the next (a cache of the last point, a
// counter, a random number stream) is not.
//
// CPU threads only, as every native integrand.
//
//===----------------------------------------------------------------------===//
#ifndef VF_PROCESS_H
#define VF_PROCESS_H

#include "vf/Native.h"

#include <cstddef>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace vf {

/// What a process integrand is: its name, Dim coordinates over the box
/// [Lo, Hi] and Outputs components (as nativeIntegrand's), and parameters.
struct ProcessSpec {
  std::string Name;
  unsigned Dim = 0;
  unsigned Outputs = 1;
  std::vector<double> Lo, Hi;
  NativeParams Params = {};
};

namespace detail {

/// A process object of any class; null when the factory gave none.
using ProcessObject = std::shared_ptr<void>;
using ProcessFactory = std::function<ProcessObject()>;
/// Evaluates the N points of a batch (X stride Dim, Out stride Outputs)
/// with the object Process.
using ProcessBatchFn = std::function<void(
    void *Process, std::span<const double> X, std::size_t N, std::size_t Dim,
    std::span<const double> Params, std::span<double> Out)>;

/// processIntegrand's work, with the process class erased.
Expected<IntegrandInfo> processIntegrand(ProcessSpec Spec, ProcessFactory Make,
                                         ProcessBatchFn Eval);

} // namespace detail

/// The integrand that evaluates \p Eval on objects built by \p Make (see
/// the file comment for the rules).
template <typename Factory, typename EvalFn>
Expected<IntegrandInfo> processIntegrand(ProcessSpec Spec, Factory Make,
                                         EvalFn Eval) {
  using Process = std::remove_cvref_t<
      decltype(*std::declval<std::invoke_result_t<Factory &>>())>;
  using Values = std::span<const double>;
  constexpr bool WithParams =
      std::is_invocable_v<const EvalFn &, Process &, Values, Values,
                          std::span<double>>;
  static_assert(WithParams || std::is_invocable_v<const EvalFn &, Process &,
                                                  Values, std::span<double>>,
                "Eval must take (Process &, std::span<const double> X, "
                "[std::span<const double> Params,] std::span<double> Out)");
  const std::size_t Outputs = Spec.Outputs;
  return detail::processIntegrand(
      std::move(Spec),
      [Make = std::move(Make)]() mutable {
        return detail::ProcessObject(Make());
      },
      [Eval = std::move(Eval), Outputs](void *Object, Values X, std::size_t N,
                                        std::size_t Dim, Values Params,
                                        std::span<double> Out) {
        Process &P = *static_cast<Process *>(Object);
        for (std::size_t I = 0; I < N; ++I) {
          Values Point = X.subspan(I * Dim, Dim);
          std::span<double> PointOut = Out.subspan(I * Outputs, Outputs);
          if constexpr (WithParams)
            Eval(P, Point, Params, PointOut);
          else
            Eval(P, Point, PointOut);
        }
      });
}

} // namespace vf

#endif // VF_PROCESS_H
