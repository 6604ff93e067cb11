//===- tests/gpu/GpuMathCheck.cpp - Math library: GPU bits = CPU bits -----===//
//
// Evaluates every math built-in through the compiler's two targets over a
// fixed set of test points - the host JIT build, and the PTX build on every
// GPU the CUDA driver reports - and requires the results to agree bit for
// bit (the library is one C source with the same -ffp-contract=off on both
// targets); in double, then in single precision (--precision f32: the
// float library). Without a GPU it checks the host part, says why the GPU part
// was skipped, and succeeds: scripts/gpu-check.sh runs it on GPU machines.
// It is a mode of vf-gpu-check (GpuCheck.cpp), carried beside vegasc:
//
//   vf-gpu-check gpu-math [--require-gpu]
//
//===----------------------------------------------------------------------===//

#include "backends/Compiler.h"
#include "devices/cuda/CudaDriver.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

// Every built-in of the math library, on (x, y) = the point's coordinates.
const char *const Source = R"(
integrand m(p in [-1, 1]^2) -> [25] = [
  exp(p[0]), expm1(p[0]), log(p[0]), log1p(p[0]), log10(p[0]),
  pow(p[0], p[1]), sqrt(p[0]), cbrt(p[0]), sin(p[0]), cos(p[0]),
  tan(p[0]), asin(p[0]), acos(p[0]), atan(p[0]), atan2(p[0], p[1]),
  sinh(p[0]), cosh(p[0]), tanh(p[0]), erf(p[0]), erfc(p[0]),
  floor(p[0]), ceil(p[0]), abs(p[0]), p[0]^p[1], p[0]^0.5]
)";
const char *const Names[] = {
    "exp",  "expm1", "log",   "log1p", "log10", "pow",  "sqrt",  "cbrt",
    "sin",  "cos",   "tan",   "asin",  "acos",  "atan", "atan2", "sinh",
    "cosh", "tanh",  "erf",   "erfc",  "floor", "ceil", "abs",   "x^y",
    "x^0.5"};
constexpr unsigned Outputs = 25;

std::vector<double> testPoints() {
  const double Inf = std::numeric_limits<double>::infinity();
  const double Special[] = {0.0,     -0.0,    4.9e-324, 2.2e-308, 1e-300,
                            1e-20,   1e-8,    0.5,      1.0,      2.0,
                            M_PI,    10.0,    100.0,    700.0,    709.78,
                            710.0,   -745.0,  1e5,      1e10,     1e300,
                            Inf,     -Inf,    NAN,      -0.5,     -1.0,
                            -2.0,    -M_PI,   -100.0,   0.999999, 1.000001};
  std::vector<double> P;
  for (double X : Special)
    for (double Y : {2.0, -0.5, 0.5, 3.0, -3.0})
      P.insert(P.end(), {X, Y});
  std::mt19937_64 Gen(2026);
  std::uniform_real_distribution<double> Exp(-30, 30), Uni(-1, 1);
  for (int I = 0; I < 4000; ++I) {
    double X = (I % 2 ? -1 : 1) * std::pow(10.0, Exp(Gen));
    P.insert(P.end(), {I % 3 ? X : Uni(Gen) * 10, Uni(Gen) * 8});
  }
  return P;
}

int fail(const std::string &Msg) {
  std::fprintf(stderr, "vf-gpu-check gpu-math: %s\n", Msg.c_str());
  return 1;
}

bool sameBits(double A, double B) {
  return std::memcmp(&A, &B, sizeof(double)) == 0 ||
         (std::isnan(A) && std::isnan(B));
}

/// Runs vf_eval_m on GPU \p Index; fills Out.
vf::Status runOnGpu(int Index, const std::string &PTX,
                    const std::vector<double> &Points,
                    std::vector<double> &Out) {
  const vf::CudaDriver &D = vf::CudaDriver::get();
  CUdevice Dev;
  CUcontext Ctx;
  if (vf::Status S = D.deviceGet(&Dev, Index); !S)
    return S;
  if (vf::Status S = D.primaryCtxRetain(&Ctx, Dev); !S)
    return S;
  if (vf::Status S = D.ctxSetCurrent(Ctx); !S)
    return S;
  char ErrLog[8192] = {0};
  int Opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
  void *Vals[] = {ErrLog, reinterpret_cast<void *>(sizeof(ErrLog))};
  CUmodule Mod;
  if (vf::Status S = D.moduleLoadDataEx(&Mod, PTX.c_str(), 2, Opts, Vals); !S)
    return vf::Error{S.message() + "\n" + ErrLog};
  CUfunction Fn;
  if (vf::Status S = D.moduleGetFunction(&Fn, Mod, "vf_eval_m"); !S)
    return S;
  long long N = Points.size() / 2;
  double Params = 0;
  CUdeviceptr DX, DP, DO;
  size_t OutBytes = N * Outputs * sizeof(double);
  for (vf::Status S : {D.memAlloc(&DX, Points.size() * sizeof(double)),
                       D.memAlloc(&DP, sizeof(double)),
                       D.memAlloc(&DO, OutBytes)})
    if (!S)
      return S;
  if (vf::Status S = D.memcpyHtoD(DX, Points.data(),
                                  Points.size() * sizeof(double));
      !S)
    return S;
  if (vf::Status S = D.memcpyHtoD(DP, &Params, sizeof(double)); !S)
    return S;
  void *Args[] = {&DX, &N, &DP, &DO};
  if (vf::Status S = D.launchKernel(Fn, unsigned((N + 127) / 128), 1u, 1u,
                                    128u, 1u, 1u, 0u, nullptr, Args, nullptr);
      !S)
    return S;
  if (vf::Status S = D.ctxSynchronize(); !S)
    return S;
  Out.resize(N * Outputs);
  if (vf::Status S = D.memcpyDtoH(Out.data(), DO, OutBytes); !S)
    return S;
  for (vf::Status S : {D.memFree(DX), D.memFree(DP), D.memFree(DO),
                       D.moduleUnload(Mod)})
    if (!S)
      return S;
  return vf::Status::ok();
}

} // namespace

namespace {

/// GPU \p G's compute capability, capped at the newest vegasflow targets.
vf::Expected<int> computeCapability(int G) {
  const vf::CudaDriver &D = vf::CudaDriver::get();
  CUdevice Dev;
  int Major = 0, Minor = 0;
  for (vf::Status S :
       {D.deviceGet(&Dev, G),
        D.deviceGetAttribute(&Major,
                             CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, Dev),
        D.deviceGetAttribute(
            &Minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, Dev)})
    if (!S)
      return S.error();
  return std::min(Major * 10 + Minor, 90);
}

/// GPU \p G's values against the host's \p CpuOut, function by function;
/// the functions that differ.
vf::Expected<int> compareOnGpu(vf::Compiler &C, const vf::Program &P,
                               vf::CompileOptions Gpu, int G,
                               const std::vector<double> &Points,
                               const std::vector<double> &CpuOut,
                               const char *Tag) {
  vf::Expected<int> CC = computeCapability(G);
  if (!CC)
    return CC.error();
  Gpu.GpuArch = "sm_" + std::to_string(*CC);
  auto GM = C.compile(P, Gpu);
  if (!GM)
    return vf::Error{llvm::toString(GM.takeError())};
  std::vector<double> GpuOut;
  if (vf::Status S = runOnGpu(G, (*GM)->PTX, Points, GpuOut); !S)
    return S.error();
  const long long N = Points.size() / 2;
  unsigned Mismatch[Outputs] = {0};
  for (long long I = 0; I < N * Outputs; ++I)
    if (!sameBits(CpuOut[I], GpuOut[I]) && Mismatch[I % Outputs]++ == 0)
      std::printf("gpu:%d: %s %s(%.17g, %.17g): cpu %.17g gpu %.17g\n", G, Tag,
                  Names[I % Outputs], Points[2 * (I / Outputs)],
                  Points[2 * (I / Outputs) + 1], CpuOut[I], GpuOut[I]);
  int Differ = 0;
  for (unsigned F = 0; F < Outputs; ++F) {
    std::printf("gpu:%d %s %-6s %s (%u of %lld differ)\n", G, Tag, Names[F],
                Mismatch[F] ? "DIFFERS" : "identical", Mismatch[F], N);
    Differ += Mismatch[F] != 0;
  }
  return Differ;
}

/// The check in double or (\p Single) single precision, whose built-ins
/// are the float library's: the host's values, the PTX built, and each
/// GPU's bits against the host's; the functions that differ, added to
/// \p Failures. Returns a failure's exit code, or 0.
int checkPrecision(vf::Compiler &C, const vf::Program &P,
                   const std::vector<double> &Points, bool Single,
                   bool RequireGpu, int &Failures) {
  const char *Tag = Single ? "f32" : "f64";
  const long long N = Points.size() / 2;
  vf::CompileOptions Host;
  Host.UseCache = false;
  Host.Single = Single;
  auto HM = C.compile(P, Host);
  if (!HM)
    return fail(llvm::toString(HM.takeError()));
  std::vector<double> CpuOut(N * Outputs);
  double Params = 0;
  (*HM)->find("m")->Batch(Points.data(), N, &Params, CpuOut.data());
  std::printf("cpu: %s: %lld points x %u functions evaluated\n", Tag, N,
              Outputs);
  // The PTX must build (and name its kernel) with or without a GPU.
  vf::CompileOptions Gpu = Host;
  Gpu.Host = false;
  Gpu.PTX = true;
  auto PM = C.compile(P, Gpu);
  if (!PM)
    return fail(llvm::toString(PM.takeError()));
  if ((*PM)->PTX.find(".entry vf_eval_m") == std::string::npos)
    return fail(std::string("the sm_90 PTX lacks the kernel vf_eval_m (") +
                Tag + ")");
  std::printf("ptx: sm_90 module built (%s, %zu bytes)\n", Tag,
              (*PM)->PTX.size());
  const vf::CudaDriver &D = vf::CudaDriver::get();
  if (!D.detected()) {
    std::printf("gpu: skipped: %s\n", D.unavailableReason().c_str());
    return RequireGpu ? 1 : 0;
  }
  for (int G = 0; G < D.deviceCount(); ++G) {
    vf::Expected<int> Differ = compareOnGpu(C, P, Gpu, G, Points, CpuOut, Tag);
    if (!Differ)
      return fail("gpu:" + std::to_string(G) + ": " + Differ.message());
    Failures += *Differ;
  }
  return 0;
}

} // namespace

int vfGpuMathSelfTest(bool RequireGpu) {
  vf::Program P;
  vf::DiagEngine Diags(P.SM, llvm::errs());
  if (!vf::loadProgramSource(P, "gpu-math-check.vf", Source, Diags))
    return fail("the check's own source does not compile");
  auto C = vf::Compiler::create();
  if (!C)
    return fail(llvm::toString(C.takeError()));
  const std::vector<double> Points = testPoints();
  int Failures = 0;
  for (bool Single : {false, true})
    if (int Code = checkPrecision(**C, P, Points, Single, RequireGpu, Failures))
      return Code;
  return Failures ? 1 : 0;
}
