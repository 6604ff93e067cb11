//===- api/CApi.cpp - vegasflow's C API (vf/vf_c.h) -----------------------===//
//
// Thin wrappers over vf::Module, vf::nativeIntegrand and vf::Integrator.
// Each handle owns its C++ object; each failing call stores its message in a
// thread-local string for vf_last_error() and returns a status code. No
// exception crosses the C boundary: this file alone in the compiler is
// built with exceptions, and each call that does work runs in guard(),
// which turns anything thrown below it (std::bad_alloc, ...) into
// VF_ERR_RUN and its message.
//
//===----------------------------------------------------------------------===//

#include "vf/vf_c.h"

#include "vf/Integrator.h"
#include "vf/Module.h"
#include "vf/Native.h"
#include "vf/ResultJson.h"
#include "vf/Version.h"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <exception>
#include <memory>
#include <new>
#include <string>

struct vf_module {
  std::shared_ptr<vf::Module> M;
};

struct vf_integrator {
  std::unique_ptr<vf::Integrator> I;
  /// Set while a function works on this handle (HandleClaim).
  mutable std::atomic<bool> Busy{false};
};

namespace {

thread_local std::string LastError;

int fail(int Code, std::string Message) {
  LastError = std::move(Message);
  return Code;
}

/// Runs \p Body, the work of C function \p Fn, catching every exception.
template <typename F> int guard(const char *Fn, F &&Body) noexcept {
  try {
    return Body();
  } catch (const std::bad_alloc &) {
    return fail(VF_ERR_RUN, std::string(Fn) + ": out of memory");
  } catch (const std::exception &E) {
    return fail(VF_ERR_RUN, std::string(Fn) + ": " + E.what());
  } catch (...) {
    return fail(VF_ERR_RUN, std::string(Fn) + ": an unknown exception");
  }
}

/// Held by every function that works on an integrator handle but
/// vf_cancel: a second call from another thread while one is under way
/// returns VF_ERR_STATE at once, never waits and never races.
class HandleClaim {
public:
  explicit HandleClaim(const vf_integrator &It)
      : Flag(It.Busy), Held(!Flag.exchange(true)) {}
  ~HandleClaim() {
    if (Held)
      Flag = false;
  }
  HandleClaim(const HandleClaim &) = delete;
  HandleClaim &operator=(const HandleClaim &) = delete;
  explicit operator bool() const { return Held; }

private:
  std::atomic<bool> &Flag;
  bool Held;
};

int busyHandle(const char *Fn) {
  return fail(VF_ERR_STATE, std::string(Fn) +
                                ": the integrator is busy: another thread's "
                                "call on it is under way. An integrator does "
                                "one thing at a time: wait for that call to "
                                "return, or make one integrator per thread");
}

int nullHandle(const char *Fn, const char *What) {
  return fail(VF_ERR_ARGUMENT, std::string(Fn) + ": " + What + " is NULL");
}

vf::IntegratorOptions toOptions(const vf_options *O) {
  vf::IntegratorOptions R;
  if (!O)
    return R;
  R.Seed = O->seed;
  R.MaxHcube = O->max_hcube;
  R.Alpha = O->alpha;
  R.Beta = O->beta;
  R.MaxNinc = unsigned(std::max(0, O->max_ninc));
  R.Threads = unsigned(std::max(0, O->threads));
  R.OnNonFinite =
      O->nonfinite_zero ? vf::NonFinitePolicy::Zero : vf::NonFinitePolicy::Stop;
  R.Arithmetic = O->precision == 32 ? vf::Precision::F32 : vf::Precision::F64;
  return R;
}

int makeIntegrator(vf::IntegrandInfo I, const vf_options *O,
                   vf_integrator **Out) {
  // A negative count would become a huge unsigned one (or, clamped, "all
  // threads"): refused, as the C++ options refuse what is out of range.
  if (O && (O->threads < 0 || O->max_ninc < 0))
    return fail(VF_ERR_ARGUMENT,
                "vf_options: threads and max_ninc must not be negative, got " +
                    std::to_string(O->threads) + " and " +
                    std::to_string(O->max_ninc));
  if (O && O->precision != 0 && O->precision != 32 && O->precision != 64)
    return fail(VF_ERR_ARGUMENT,
                "vf_options: precision must be 64 (f64) or 32 (f32), got " +
                    std::to_string(O->precision));
  auto Integ = vf::Integrator::create(std::move(I), toOptions(O));
  if (!Integ)
    return fail(VF_ERR_ARGUMENT, Integ.message());
  *Out = new vf_integrator{std::move(*Integ)};
  return VF_OK;
}

int compiled(vf::Expected<std::shared_ptr<vf::Module>> M, vf_module **Out) {
  if (!M)
    return fail(VF_ERR_COMPILE, M.message());
  *Out = new vf_module{std::move(*M)};
  return VF_OK;
}

/// Copies S into Buf (NUL-terminated) if it fits.
int copyOut(const std::string &S, char *Buf, size_t Size) {
  if (!Buf || Size < S.size() + 1)
    return fail(VF_ERR_BUFFER, "buffer of " + std::to_string(Size) +
                                   " bytes; " + std::to_string(S.size() + 1) +
                                   " needed");
  std::memcpy(Buf, S.c_str(), S.size() + 1);
  return VF_OK;
}

/// Events need a trained (at least one iteration), frozen integrator.
int needTrainedFrozen(const vf_integrator *It, const char *Fn) {
  if (It->I->result().Iterations.empty())
    return fail(VF_ERR_STATE, std::string(Fn) +
                                  ": no events before "
                                  "training: vf_run first, then vf_freeze");
  if (!It->I->frozen())
    return fail(VF_ERR_STATE, std::string(Fn) +
                                  ": events come from a "
                                  "frozen map: call vf_freeze after training");
  return VF_OK;
}

} // namespace

extern "C" {

const char *vf_last_error(void) { return LastError.c_str(); }

size_t vf_copy_last_error(char *Buf, size_t Size) {
  if (Buf && Size) {
    size_t N = std::min(Size - 1, LastError.size());
    std::memcpy(Buf, LastError.data(), N);
    Buf[N] = '\0';
  }
  return LastError.size();
}

const char *vf_version(void) { return vf::versionString(); }

int vf_compile_file(const char *Path, vf_module **Out) {
  return guard("vf_compile_file", [&]() -> int {
    if (!Path || !Out)
      return nullHandle("vf_compile_file", Path ? "out" : "path");
    return compiled(vf::Module::compileFile(Path), Out);
  });
}

int vf_compile_string(const char *Source, const char *Name, vf_module **Out) {
  return guard("vf_compile_string", [&]() -> int {
    if (!Source || !Out)
      return nullHandle("vf_compile_string", Source ? "out" : "source");
    return compiled(vf::Module::compileString(Source, Name ? Name : "<string>"),
                    Out);
  });
}

int vf_compile_file_pdf_sets(const char *Path, const char *const *Sets,
                             int32_t Count, vf_module **Out) {
  return guard("vf_compile_file_pdf_sets", [&]() -> int {
    if (!Path || !Out || (Count > 0 && !Sets))
      return nullHandle("vf_compile_file_pdf_sets", !Path  ? "path"
                                                    : !Out ? "out"
                                                           : "sets");
    vf::CompileSettings S;
    for (int32_t K = 0; K < Count; ++K) {
      const std::string Choice = Sets[K] ? Sets[K] : "";
      const auto Eq = Choice.find('=');
      if (Eq == std::string::npos || Eq == 0 || Eq + 1 == Choice.size())
        return fail(VF_ERR_ARGUMENT,
                    "vf_compile_file_pdf_sets: sets[" + std::to_string(K) +
                        "] is '" + Choice +
                        "'; expected NAME=SET (a pdf item's name and a set "
                        "name or folder)");
      S.PdfSets[Choice.substr(0, Eq)] = Choice.substr(Eq + 1);
    }
    return compiled(vf::Module::compileFile(Path, S), Out);
  });
}

void vf_module_free(vf_module *M) { delete M; }

int vf_module_integrand_count(const vf_module *M) {
  return M ? int(M->M->integrandNames().size()) : 0;
}

int vf_module_integrand_name(const vf_module *M, int Index, char *Buf,
                             size_t Size) {
  return guard("vf_module_integrand_name", [&]() -> int {
    if (!M)
      return nullHandle("vf_module_integrand_name", "module");
    std::vector<std::string> Names = M->M->integrandNames();
    if (Index < 0 || size_t(Index) >= Names.size())
      return fail(VF_ERR_ARGUMENT, "vf_module_integrand_name: index " +
                                       std::to_string(Index) + " of " +
                                       std::to_string(Names.size()));
    return copyOut(Names[size_t(Index)], Buf, Size);
  });
}

void vf_options_default(vf_options *O) {
  if (!O)
    return;
  vf::IntegratorOptions D;
  *O = vf_options{};
  O->seed = D.Seed;
  O->max_hcube = D.MaxHcube;
  O->alpha = D.Alpha;
  O->beta = D.Beta;
  O->max_ninc = int32_t(D.MaxNinc);
  O->threads = int32_t(D.Threads);
  O->nonfinite_zero = D.OnNonFinite == vf::NonFinitePolicy::Zero;
  O->precision = D.Arithmetic == vf::Precision::F32 ? 32 : 64;
}

int vf_integrator_create(const vf_module *M, const char *Name,
                         const vf_options *O, vf_integrator **Out) {
  return guard("vf_integrator_create", [&]() -> int {
    if (!M || !Out)
      return nullHandle("vf_integrator_create", M ? "out" : "module");
    auto I = M->M->integrand(Name ? Name : "");
    if (!I)
      return fail(VF_ERR_ARGUMENT, I.message());
    return makeIntegrator(std::move(*I), O, Out);
  });
}

int vf_integrator_create_native(const char *Name, int32_t Dim, int32_t Outputs,
                                const double *Lo, const double *Hi,
                                vf_native_fn F, void *User, const vf_options *O,
                                vf_integrator **Out) {
  return guard("vf_integrator_create_native", [&]() -> int {
    if (!Lo || !Hi || !F || !Out)
      return nullHandle("vf_integrator_create_native", !Lo   ? "lo"
                                                       : !Hi ? "hi"
                                                       : !F  ? "f"
                                                             : "out");
    if (Dim < 1 || Outputs < 1)
      return fail(VF_ERR_ARGUMENT, "vf_integrator_create_native: dim and "
                                   "outputs must be at least 1");
    auto I = vf::nativeIntegrand(
        Name ? Name : "native", unsigned(Dim), unsigned(Outputs),
        std::vector<double>(Lo, Lo + Dim), std::vector<double>(Hi, Hi + Dim),
        [F, User](std::span<const double> X, std::size_t N, std::size_t D,
                  std::span<double> Out) {
          F(X.data(), int64_t(N), int32_t(D), Out.data(), User);
        });
    if (!I)
      return fail(VF_ERR_ARGUMENT, I.message());
    return makeIntegrator(std::move(*I), O, Out);
  });
}

void vf_integrator_free(vf_integrator *It) { delete It; }

int vf_integrator_dim(const vf_integrator *It) {
  return It ? int(It->I->integrand().Dim) : 0;
}

int vf_integrator_outputs(const vf_integrator *It) {
  return It ? int(It->I->integrand().Outputs) : 0;
}

int vf_set_param(vf_integrator *It, const char *Name, double Value) {
  return guard("vf_set_param", [&]() -> int {
    if (!It || !Name)
      return nullHandle("vf_set_param", It ? "name" : "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_set_param");
    if (vf::Status S = It->I->setParam(Name, Value); !S)
      return fail(VF_ERR_ARGUMENT, S.message());
    return VF_OK;
  });
}

int vf_run(vf_integrator *It, int32_t Iterations, int64_t Calls,
           int32_t Warmup) {
  return guard("vf_run", [&]() -> int {
    if (!It)
      return nullHandle("vf_run", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_run");
    if (Iterations < 0 || Calls < 0 || Warmup < 0)
      return fail(VF_ERR_ARGUMENT, "vf_run: negative iterations, calls or "
                                   "warm-up");
    auto R =
        It->I->run(unsigned(Iterations), uint64_t(Calls), unsigned(Warmup));
    if (!R)
      return fail(VF_ERR_RUN, R.message());
    if (R->Stopped == vf::StopReason::Cancelled)
      return fail(VF_CANCELLED,
                  "vf_run: cancelled by vf_cancel after " +
                      std::to_string(It->I->plan().Done) + " of " +
                      std::to_string(It->I->plan().total()) +
                      " iterations; vf_run with the same numbers continues");
    return VF_OK;
  });
}

int vf_cancel(vf_integrator *It) {
  if (!It)
    return nullHandle("vf_cancel", "integrator");
  It->I->cancel();
  return VF_OK;
}

int vf_restart_statistics(vf_integrator *It) {
  return guard("vf_restart_statistics", [&]() -> int {
    if (!It)
      return nullHandle("vf_restart_statistics", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_restart_statistics");
    if (vf::Status S = It->I->restartStatistics(); !S)
      return fail(VF_ERR_STATE, S.message());
    return VF_OK;
  });
}

int vf_result(const vf_integrator *It, double *Mean, double *Err,
              double *Chi2Dof, double *Q) {
  return guard("vf_result", [&]() -> int {
    if (!It)
      return nullHandle("vf_result", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_result");
    vf::Result R = It->I->result();
    if (R.Iterations.empty())
      return fail(VF_ERR_STATE, "vf_result: no iteration has run yet");
    if (Mean)
      *Mean = R.Mean[0];
    if (Err)
      *Err = R.Error[0];
    if (Chi2Dof)
      *Chi2Dof = R.Chi2Dof;
    if (Q)
      *Q = R.Q;
    return VF_OK;
  });
}

int vf_result_component(const vf_integrator *It, int32_t C, double *Mean,
                        double *Err) {
  return guard("vf_result_component", [&]() -> int {
    if (!It)
      return nullHandle("vf_result_component", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_result_component");
    vf::Result R = It->I->result();
    if (R.Iterations.empty())
      return fail(VF_ERR_STATE, "vf_result_component: no iteration has run");
    if (C < 0 || size_t(C) >= R.Mean.size())
      return fail(VF_ERR_ARGUMENT, "vf_result_component: component " +
                                       std::to_string(C) + " of " +
                                       std::to_string(R.Mean.size()));
    if (Mean)
      *Mean = R.Mean[size_t(C)];
    if (Err)
      *Err = R.Error[size_t(C)];
    return VF_OK;
  });
}

int vf_result_json(const vf_integrator *It, char *Buf, size_t Size,
                   size_t *Needed) {
  return guard("vf_result_json", [&]() -> int {
    if (!It)
      return nullHandle("vf_result_json", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_result_json");
    const vf::IntegratorOptions &O = It->I->options();
    std::string Settings = "{\"seed\": " + std::to_string(O.Seed) +
                           ", \"alpha\": " + std::to_string(O.Alpha) +
                           ", \"beta\": " + std::to_string(O.Beta) + "}";
    std::string J =
        vf::resultToJson(It->I->result(), It->I->integrand().Name, Settings);
    if (Needed)
      *Needed = J.size() + 1;
    return copyOut(J, Buf, Size);
  });
}

int vf_histogram_count(const vf_integrator *It) {
  return It ? int(It->I->integrand().Histograms.size()) : 0;
}

namespace {
/// Histogram \p H of the integrand, or an error for \p Fn.
int checkHistogram(const vf_integrator *It, int32_t H, const char *Fn) {
  if (!It)
    return nullHandle(Fn, "integrator");
  const size_t N = It->I->integrand().Histograms.size();
  if (H < 0 || size_t(H) >= N)
    return fail(VF_ERR_ARGUMENT, std::string(Fn) + ": histogram " +
                                     std::to_string(H) + " of " +
                                     std::to_string(N));
  return VF_OK;
}
} // namespace

int vf_histogram_info(const vf_integrator *It, int32_t H, char *Name,
                      size_t Size, int32_t *Axes, int32_t *Bins,
                      double *Range) {
  if (int E = checkHistogram(It, H, "vf_histogram_info"); E != VF_OK)
    return E;
  HandleClaim Claim(*It);
  if (!Claim)
    return busyHandle("vf_histogram_info");
  const vf::Histogram Hist = It->I->result().Histograms[size_t(H)];
  if (Axes)
    *Axes = int32_t(Hist.Axes.size());
  for (size_t A = 0; A < 2; ++A) {
    const bool Has = A < Hist.Axes.size();
    if (Bins)
      Bins[A] = Has ? int32_t(Hist.Axes[A].Bins) : 0;
    if (Range) {
      Range[2 * A] = Has ? Hist.Axes[A].Lo : 0;
      Range[2 * A + 1] = Has ? Hist.Axes[A].Hi : 0;
    }
  }
  return Name ? copyOut(Hist.Name, Name, Size) : VF_OK;
}

int vf_histogram(const vf_integrator *It, int32_t H, double *Values,
                 double *Errors, double *Flow, double *FlowErrors) {
  if (int E = checkHistogram(It, H, "vf_histogram"); E != VF_OK)
    return E;
  HandleClaim Claim(*It);
  if (!Claim)
    return busyHandle("vf_histogram");
  vf::Result R = It->I->result();
  if (R.Iterations.empty())
    return fail(VF_ERR_STATE, "vf_histogram: no iteration has run yet");
  const vf::Histogram &Hist = R.Histograms[size_t(H)];
  auto Copy = [](const std::vector<double> &V, double *Out) {
    if (Out)
      std::copy(V.begin(), V.end(), Out);
  };
  Copy(Hist.Values, Values);
  Copy(Hist.Errors, Errors);
  Copy(Hist.Flow, Flow);
  Copy(Hist.FlowErrors, FlowErrors);
  return VF_OK;
}

int vf_channel_count(const vf_integrator *It) {
  return It ? int(It->I->integrand().Channels.size()) : 0;
}

int vf_channel_info(const vf_integrator *It, int32_t C, char *Name, size_t Size,
                    double *Alpha, int64_t *Samples, double *Integral,
                    double *Err, double *ErrorShare) {
  return guard("vf_channel_info", [&]() -> int {
    if (!It)
      return nullHandle("vf_channel_info", "integrator");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_channel_info");
    const std::vector<vf::ChannelSummary> Cs = It->I->result().Channels;
    if (C < 0 || size_t(C) >= Cs.size())
      return fail(VF_ERR_ARGUMENT,
                  "vf_channel_info: channel " + std::to_string(C) + " of " +
                      std::to_string(Cs.size()) + " (integrand '" +
                      It->I->integrand().Name + "')");
    const vf::ChannelSummary &Ch = Cs[size_t(C)];
    if (Alpha)
      *Alpha = Ch.Alpha;
    if (Samples)
      *Samples = int64_t(Ch.Samples);
    if (Integral)
      *Integral = Ch.Last.Mean;
    if (Err)
      *Err = Ch.Last.Error;
    if (ErrorShare)
      *ErrorShare = Ch.ErrorShare;
    return Name ? copyOut(Ch.Name, Name, Size) : VF_OK;
  });
}

int vf_freeze(vf_integrator *It) {
  if (!It)
    return nullHandle("vf_freeze", "integrator");
  HandleClaim Claim(*It);
  if (!Claim)
    return busyHandle("vf_freeze");
  It->I->freeze();
  return VF_OK;
}

int vf_sample(vf_integrator *It, int64_t N, double *X, double *Weight) {
  return guard("vf_sample", [&]() -> int {
    if (!It || !X || !Weight)
      return nullHandle("vf_sample", !It ? "integrator" : !X ? "x" : "weight");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_sample");
    if (N < 0)
      return fail(VF_ERR_ARGUMENT, "vf_sample: negative n");
    if (int E = needTrainedFrozen(It, "vf_sample"))
      return E;
    const std::size_t Dim = It->I->integrand().Dim;
    std::size_t K = 0;
    vf::Status S = It->I->sample(uint64_t(N), [&](const vf::EventBatch &B) {
      std::copy(B.X.begin(), B.X.end(), X + K * Dim);
      std::copy(B.Weight.begin(), B.Weight.end(), Weight + K);
      K += B.N;
    });
    if (!S)
      return fail(VF_ERR_RUN, S.message());
    return VF_OK;
  });
}

int vf_unweight(vf_integrator *It, int64_t N, int64_t WmaxEvents, double *X,
                double *Weight, double *Wmax, double *Efficiency,
                double *Overshoot) {
  return guard("vf_unweight", [&]() -> int {
    if (!It || !X || !Weight)
      return nullHandle("vf_unweight", !It  ? "integrator"
                                       : !X ? "x"
                                            : "weight");
    HandleClaim Claim(*It);
    if (!Claim)
      return busyHandle("vf_unweight");
    if (N < 0 || WmaxEvents < 0)
      return fail(VF_ERR_ARGUMENT, "vf_unweight: negative n or wmax_events");
    if (int E = needTrainedFrozen(It, "vf_unweight"))
      return E;
    vf::UnweightOptions O;
    if (WmaxEvents > 0)
      O.WmaxEvents = uint64_t(WmaxEvents);
    const std::size_t Dim = It->I->integrand().Dim;
    std::size_t K = 0;
    auto R = It->I->unweight(
        uint64_t(N),
        [&](const vf::EventBatch &B) {
          std::copy(B.X.begin(), B.X.end(), X + K * Dim);
          std::copy(B.Weight.begin(), B.Weight.end(), Weight + K);
          K += B.N;
        },
        O);
    if (!R)
      return fail(VF_ERR_RUN, R.message());
    if (Wmax)
      *Wmax = R->Wmax;
    if (Efficiency)
      *Efficiency = R->Efficiency;
    if (Overshoot)
      *Overshoot = R->OvershootFraction;
    return VF_OK;
  });
}

} // extern "C"
