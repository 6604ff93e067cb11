//===- runtime/integrator/NativeIntegrand.cpp - C++ callbacks as integrands ===//
//
// Binds a NativeFn to the two entry points the runtime needs: Evaluate
// calls it directly, SampleTile runs the natively compiled fused kernel
// (NativeSampler.c) with a C trampoline into the callback. The callback's
// state lives in a shared NativeState that the IntegrandInfo's entry points
// and Owner keep alive.
//
//===----------------------------------------------------------------------===//

#include "vf/Native.h"

#include "IntegrandCode.h"
#include "NativeSampler.h"

#include <cmath>
#include <limits>
#include <memory>

namespace vf {

namespace {

struct NativeState {
  NativeParamFn F;
  unsigned Dim = 0;
  unsigned Outputs = 1;
  std::size_t Nparams = 0;
  vf_native_integrand C{};
};

/// The C side of the callback (vf_native_integrand::eval).
void vfNativeEval(const void *Context, const double *X, vf_u64 N,
                             unsigned Dim, const double *Params, double *Out) {
  const auto *S = static_cast<const NativeState *>(Context);
  std::span<double> Values(Out, std::size_t(N) * S->Outputs);
  try {
    S->F(std::span<const double>(X, std::size_t(N) * Dim), std::size_t(N), Dim,
         std::span<const double>(Params, S->Nparams), Values);
  } catch (...) {
    // Exceptions must not cross the C kernel: the batch becomes NaN, which
    // the integrator reports (or counts as 0) like any non-finite value.
    for (double &V : Values)
      V = std::numeric_limits<double>::quiet_NaN();
  }
}

} // namespace

Expected<IntegrandInfo> nativeIntegrand(std::string Name, unsigned Dim,
                                        unsigned Outputs,
                                        std::vector<double> Lo,
                                        std::vector<double> Hi,
                                        NativeParams Params, NativeParamFn F) {
  std::string What = "native integrand '" + Name + "'";
  if (!F)
    return Error{What + " has no callback"};
  if (Dim == 0 || Dim > VF_SAMPLER_MAX_DIM)
    return Error{What + " has " + std::to_string(Dim) +
                 " dimensions; 1 to " + std::to_string(VF_SAMPLER_MAX_DIM) +
                 " are supported"};
  if (Outputs == 0 || Outputs > VF_SAMPLER_MAX_OUT)
    return Error{What + " has " + std::to_string(Outputs) +
                 " components; 1 to " + std::to_string(VF_SAMPLER_MAX_OUT) +
                 " are supported"};
  if (Lo.size() != Dim || Hi.size() != Dim)
    return Error{What + ": the box needs " + std::to_string(Dim) +
                 " lower and upper bounds, got " + std::to_string(Lo.size()) +
                 " and " + std::to_string(Hi.size())};
  for (unsigned D = 0; D < Dim; ++D)
    if (!(Hi[D] > Lo[D]) || !std::isfinite(Lo[D]) || !std::isfinite(Hi[D]))
      return Error{What + ": the interval of x[" + std::to_string(D) +
                   "] is empty or not finite; its upper bound must exceed "
                   "its lower bound"};
  if (Params.Names.size() != Params.Defaults.size())
    return Error{What + ": " + std::to_string(Params.Names.size()) +
                 " parameter names but " +
                 std::to_string(Params.Defaults.size()) + " defaults"};

  auto S = std::make_shared<NativeState>();
  S->F = std::move(F);
  S->Dim = Dim;
  S->Outputs = Outputs;
  S->Nparams = Params.Names.size();
  S->C = {vfNativeEval, S.get()};

  IntegrandInfo Info;
  Info.Name = Name;
  Info.Dim = Dim;
  Info.Outputs = Outputs;
  Info.ParamNames = std::move(Params.Names);
  Info.ParamDefaults = std::move(Params.Defaults);
  Info.Domain = [Lo = std::move(Lo), Hi = std::move(Hi)](
                    std::span<const double>, std::vector<double> &L,
                    std::vector<double> &H) -> Status {
    L = Lo;
    H = Hi;
    return Status::ok();
  };
  Info.Evaluate = [S](const double *Xs, std::int64_t N, const double *P,
                      double *Out) {
    vfNativeEval(S.get(), Xs, vf_u64(N), S->Dim, P, Out);
  };
  auto Code = std::make_shared<IntegrandCode>();
  Code->SampleTile = [S](const vf_sampler_args *A, unsigned long long Tile,
                         const vf_tile_outputs *Out) {
    vf_native_sample_tile(A, Tile, Out, &S->C);
  };
  Info.Code = std::move(Code);
  // A callback has no source to hash: name and shape identify it.
  Info.ModuleHash = "native:" + Name + ":" + std::to_string(Dim) + ":" +
                    std::to_string(Outputs);
  Info.Owner = S;
  return Info;
}

Expected<IntegrandInfo> nativeIntegrand(std::string Name, unsigned Dim,
                                        unsigned Outputs,
                                        std::vector<double> Lo,
                                        std::vector<double> Hi, NativeFn F) {
  if (!F)
    return Error{"native integrand '" + Name + "' has no callback"};
  return nativeIntegrand(
      std::move(Name), Dim, Outputs, std::move(Lo), std::move(Hi), {},
      [F = std::move(F)](std::span<const double> X, std::size_t N,
                         std::size_t D, std::span<const double>,
                         std::span<double> Out) { F(X, N, D, Out); });
}

} // namespace vf
