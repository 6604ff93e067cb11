//===- vf/Native.h - Integrands written in C++ ------------------*- C++ -*-===//
//
// For integrands that cannot be written in .vf (a matrix element library, a
// lookup table, a detector model): a C++ batch callback, sampled by the same
// fused VEGAS+ kernel as compiled integrands (runtime/kernels/Sampler.c,
// compiled natively), on CPU threads only.
//
//   auto I = vf::nativeIntegrand("gauss", 2, 1, {0, 0}, {1, 1},
//       [](std::span<const double> X, std::size_t N, std::size_t Dim,
//          std::span<double> Out) {
//         for (std::size_t I = 0; I < N; ++I)
//           Out[I] = std::exp(-X[I * Dim] * X[I * Dim + 1]);
//       });
//   auto Integ = vf::Integrator::create(*I);
//
// Thread-safety contract. The callback is called concurrently from every
// worker thread (IntegratorOptions::Threads of them), each call with its
// own X and Out buffers: it must not write to state shared between calls
// without synchronising (read-only shared data is fine), and must not
// assume which thread calls it, how many points a call has (1 to 64 during
// integration, up to 4096 when drawing events) or in which order calls
// come. Given the same points it must return the same values, or results
// stop being reproducible. It must not throw: an exception is caught and
// the batch's values become NaN (reported like any non-finite value).
//
//===----------------------------------------------------------------------===//
#ifndef VF_NATIVE_H
#define VF_NATIVE_H

#include "vf/Expected.h"
#include "vf/Integrand.h"

#include <cstddef>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace vf {

/// f(X, N, Dim, Out): X holds N points, point i at X[i * Dim + d]; write
/// f_c(point i) to Out[i * Outputs + c].
using NativeFn = std::function<void(std::span<const double> X, std::size_t N,
                                    std::size_t Dim, std::span<double> Out)>;
/// The same with the parameters' current values (Integrator::setParam), in
/// the order of NativeParams::Names.
using NativeParamFn =
    std::function<void(std::span<const double> X, std::size_t N,
                       std::size_t Dim, std::span<const double> Params,
                       std::span<double> Out)>;

struct NativeParams {
  std::vector<std::string> Names;
  std::vector<double> Defaults; ///< one per name
};

/// A native integrand over the box [Lo, Hi] (Dim entries each, Lo < Hi,
/// finite) with Outputs components (1 to 16). The callback is kept alive by
/// the returned IntegrandInfo (and every copy of it).
Expected<IntegrandInfo> nativeIntegrand(std::string Name, unsigned Dim,
                                        unsigned Outputs,
                                        std::vector<double> Lo,
                                        std::vector<double> Hi, NativeFn F);
Expected<IntegrandInfo>
nativeIntegrand(std::string Name, unsigned Dim, unsigned Outputs,
                std::vector<double> Lo, std::vector<double> Hi,
                NativeParams Params, NativeParamFn F);

} // namespace vf

#endif // VF_NATIVE_H
