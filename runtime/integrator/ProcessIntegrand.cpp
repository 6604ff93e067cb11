//===- runtime/integrator/ProcessIntegrand.cpp - Pooled process objects ---===//
//
// The non-template half of vf/Process.h: a pool of process objects behind
// a native integrand's callback. The pool is not keyed by thread: the
// integrator starts its worker threads afresh every iteration, so per-thread
// objects would pile up iteration after iteration; a free list stays as
// large as the most batches ever evaluated at once.
//
//===----------------------------------------------------------------------===//

#include "vf/Process.h"

#include <algorithm>
#include <exception>
#include <limits>
#include <mutex>

namespace vf {

namespace {

using detail::ProcessObject;

class ProcessPool {
public:
  ProcessPool(std::string What, detail::ProcessFactory Make)
      : What(std::move(What)), Make(std::move(Make)) {}

  /// A new object from the factory, or an Error naming the integrand.
  Expected<ProcessObject> build();
  /// A free object, or a new one when every object is busy.
  Expected<ProcessObject> take();
  /// Gives back an object from take() or build(); never allocates.
  void give(ProcessObject P);

private:
  ProcessObject takeFree();

  const std::string What;
  detail::ProcessFactory Make;
  std::mutex BuildMutex; ///< held around every call of Make
  std::mutex FreeMutex;  ///< guards Free and Built
  std::vector<ProcessObject> Free;
  std::size_t Built = 0;
};

Expected<ProcessObject> ProcessPool::build() {
  ProcessObject P;
  try {
    P = Make();
  } catch (const std::exception &E) {
    return Error{What + ": its factory threw: " + E.what()};
  } catch (...) {
    return Error{What + ": its factory threw something other than a "
                        "std::exception"};
  }
  if (!P)
    return Error{What + ": its factory returned a null pointer"};
  std::lock_guard Lock(FreeMutex);
  // Room for every object ever built, so give() cannot fail for memory
  // and lose one.
  Free.reserve(++Built);
  return P;
}

ProcessObject ProcessPool::takeFree() {
  std::lock_guard Lock(FreeMutex);
  if (Free.empty())
    return nullptr;
  ProcessObject P = std::move(Free.back());
  Free.pop_back();
  return P;
}

Expected<ProcessObject> ProcessPool::take() {
  if (ProcessObject P = takeFree())
    return P;
  std::lock_guard Building(BuildMutex);
  // One may have come back while this caller waited for its turn to build.
  if (ProcessObject P = takeFree())
    return P;
  return build();
}

void ProcessPool::give(ProcessObject P) {
  std::lock_guard Lock(FreeMutex);
  Free.push_back(std::move(P));
}

/// Holds a taken object for one batch and gives it back however the batch
/// ends, an exception from Eval included.
class Lease {
public:
  Lease(ProcessPool &Pool, ProcessObject P) : Pool(Pool), P(std::move(P)) {}
  Lease(const Lease &) = delete;
  Lease &operator=(const Lease &) = delete;
  ~Lease() { Pool.give(std::move(P)); }
  void *get() const { return P.get(); }

private:
  ProcessPool &Pool;
  ProcessObject P;
};

} // namespace

Expected<IntegrandInfo> detail::processIntegrand(ProcessSpec Spec,
                                                 ProcessFactory Make,
                                                 ProcessBatchFn Eval) {
  auto Pool = std::make_shared<ProcessPool>(
      "process integrand '" + Spec.Name + "'", std::move(Make));
  Expected<IntegrandInfo> Info = nativeIntegrand(
      std::move(Spec.Name), Spec.Dim, Spec.Outputs, std::move(Spec.Lo),
      std::move(Spec.Hi), std::move(Spec.Params),
      [Pool, Eval = std::move(Eval)](
          std::span<const double> X, std::size_t N, std::size_t Dim,
          std::span<const double> Params, std::span<double> Out) {
        Expected<ProcessObject> P = Pool->take();
        if (!P) {
          // As if the factory's exception reached the native callback's
          // guard: the batch is NaN, and the run reports it.
          std::ranges::fill(Out, std::numeric_limits<double>::quiet_NaN());
          return;
        }
        Lease Held(*Pool, std::move(*P));
        Eval(Held.get(), X, N, Dim, Params, Out);
      });
  if (!Info)
    return Info;
  // Built now, once the shape is known good, so that a factory that cannot
  // build fails here as a value rather than as NaN batches later.
  Expected<ProcessObject> First = Pool->build();
  if (!First)
    return First.error();
  Pool->give(std::move(*First));
  return Info;
}

} // namespace vf
