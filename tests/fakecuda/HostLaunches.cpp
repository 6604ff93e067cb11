//===- tests/fakecuda/HostLaunches.cpp - Host code for the fake driver ----===//
//
// The host kernel's and the fold's launches laid out as the GPU kernels lay
// out their outputs (device pointers are host pointers in the fake driver),
// and the registration of the emulated GPU kernels.
//
//===----------------------------------------------------------------------===//

#include "HostLaunches.h"

#include "EmulatedKernel.h"
#include "GpuEmulation.h"
#include "SamplerABI.h"
#include "backends/GpuCodeHook.h"
#include "backends/ProgramImage.h"
#include "devices/cuda/CudaDriver.h"
#include "reduction/HistogramSums.h"

#include <dlfcn.h>

#include <algorithm>
#include <deque>
#include <functional>
#include <mutex>

namespace vf::fakecuda {

namespace {

/// What the host build of the kernel needs when the fake driver of the
/// tests runs a launch on the host. Contexts are kept for the process: a
/// kernel name stays registered after its device is gone.
struct HostKernelContext {
  std::function<void(const vf_sampler_args *, unsigned long long,
                     const vf_tile_outputs *)>
      SampleTile;
};

HostKernelContext *keepContext(HostKernelContext C) {
  static std::mutex Mutex;
  static auto *Kept = new std::deque<HostKernelContext>();
  std::lock_guard<std::mutex> Lock(Mutex);
  Kept->push_back(std::move(C));
  return &Kept->back();
}

/// The launch of vf_sample_tiles_gpu_NAME, run on the host: each tile the
/// grid covers through the host kernel, with the GPU kernel's layout of
/// outputs (device pointers are host pointers in the fake driver).
void runOnHost(void *Context, void **Params, unsigned Grid, unsigned Block) {
  auto *K = static_cast<HostKernelContext *>(Context);
  auto Arg = [&](unsigned I) { return *static_cast<CUdeviceptr *>(Params[I]); };
  const auto *A = reinterpret_cast<const vf_sampler_args *>(Arg(0));
  const std::uint64_t First = Arg(1), N = Arg(2);
  const auto *O = reinterpret_cast<const vf_chunk_outputs *>(Arg(3));
  const std::uint64_t Stride = VF_SEGMENT_STRIDE(A->nout);
  const std::uint64_t Bins = std::uint64_t(A->dim) * A->ninc;
  const std::uint64_t Covered = std::uint64_t(Grid) * (Block / 32);
  for (std::uint64_t T = 0; T < std::min(N, Covered); ++T) {
    double *Train = O->train ? O->train + 2 * Bins * T : nullptr;
    if (A->train)
      std::fill(Train, Train + 2 * Bins, 0.0);
    vf_tile_outputs Out{O->hcube_segments,
                        O->edge_segments + 2 * Stride * T,
                        Train,
                        O->results + T,
                        nullptr,
                        nullptr,
                        nullptr};
    // Histograms: the GPU kernel zeroes the tile's buffer and workspace.
    if (O->hist) {
      Out.hist = O->hist + VF_HIST_TILE(A->hist_cells) * T;
      Out.hist_work = O->hist_work + VF_HIST_WORK(A->hist_cells) * T;
      std::fill(Out.hist, Out.hist + VF_HIST_TILE(A->hist_cells), 0.0);
      std::fill(Out.hist_work, Out.hist_work + VF_HIST_WORK(A->hist_cells),
                0u);
    }
    if (O->values)
      Out.values = O->values + VF_WEIGHT_SCRATCH(A->nweights) * T;
    K->SampleTile(A, First + T, &Out);
  }
}

/// The fold kernel on the host (GpuSampler.c's vf_fold_groups_gpu).
void runFoldOnHost(void *, void **Params, unsigned, unsigned) {
  auto Arg = [&](unsigned I) { return *static_cast<CUdeviceptr *>(Params[I]); };
  const auto *Train = reinterpret_cast<const double *>(Arg(0));
  const std::uint64_t Entries = Arg(1), Ngroups = Arg(3);
  const auto *Groups = reinterpret_cast<const std::uint64_t *>(Arg(2));
  auto *Partials = reinterpret_cast<double *>(Arg(4));
  for (std::uint64_t G = 0; G < Ngroups; ++G)
    for (std::uint64_t I = 0; I < Entries; ++I) {
      double P = 0.0;
      for (std::uint64_t T = 0; T < Groups[2 * G + 1]; ++T)
        P += Train[(Groups[2 * G] + T) * Entries + I];
      Partials[G * Entries + I] = P;
    }
}

/// The fake driver's test entry points (FakeCuda.cpp), looked up in the
/// driver library the runtime loaded; null for a real driver.
struct FakeDriverHooks {
  using HostKernel = void (*)(void *Context, void **Params, unsigned Grid,
                              unsigned Block);
  void (*RegisterKernel)(const char *, HostKernel, void *) = nullptr;
  int (*EmulatesKernels)() = nullptr;
  void (*RegisterEmulated)(const char *, vf_gpu_emu_bind_fn,
                           vf_gpu_emu_kernel_fn) = nullptr;
};

const FakeDriverHooks &fakeDriverHooks() {
  static const FakeDriverHooks Hooks = [] {
    FakeDriverHooks H;
    void *Lib =
        dlopen(CudaDriver::get().libraryPath().c_str(), RTLD_NOW | RTLD_NOLOAD);
    if (!Lib)
      return H;
    H.RegisterKernel = reinterpret_cast<decltype(H.RegisterKernel)>(
        dlsym(Lib, "vfFakeCudaRegisterKernel"));
    H.EmulatesKernels = reinterpret_cast<decltype(H.EmulatesKernels)>(
        dlsym(Lib, "vfFakeCudaEmulatesKernels"));
    H.RegisterEmulated = reinterpret_cast<decltype(H.RegisterEmulated)>(
        dlsym(Lib, "vfFakeCudaRegisterEmulatedKernel"));
    return H;
  }();
  return Hooks;
}

/// What an integrand's launches need on the host: its tile kernel, and
/// what compiles the emulated GPU kernel (a frozen image of the program
/// with the host's module, and the module's options).
struct KernelSource {
  std::string Name, Kernel;
  std::function<void(const vf_sampler_args *, unsigned long long,
                     const vf_tile_outputs *)>
      SampleTile;
  Compiler *OnDemand;
  std::shared_ptr<const ProgramImage> Image;
  CompileOptions Options;
};

/// The GPU kernels compiled for the host under warp emulation, registered
/// for \p K's kernel and the fold. Each call compiles a module of its own
/// (the compile cache makes it cheap), bound to the emulator's intrinsics.
Status registerEmulated(const FakeDriverHooks &H, const KernelSource &K) {
  CompileOptions O = K.Options;
  O.Host = true;
  O.PTX = false;
  O.Sampler = true;
  O.Extension = &emulatedKernelExtension();
  auto CM = K.OnDemand->compile(*K.Image, O);
  if (!CM)
    return Error{"compiling the emulated GPU kernel: " +
                 llvm::toString(CM.takeError())};
  const auto &Symbols = (*CM)->ExtensionSymbols;
  auto Sample = Symbols.find(emulatedSampleSymbol(K.Name));
  auto Fold = Symbols.find(VF_GPU_EMU_FOLD),
       Bind = Symbols.find(VF_GPU_EMU_BIND);
  if (Sample == Symbols.end() || Fold == Symbols.end() || Bind == Symbols.end())
    return Error{"no emulated GPU kernel for '" + K.Name + "'"};
  auto BindFn = reinterpret_cast<vf_gpu_emu_bind_fn>(Bind->second);
  H.RegisterEmulated(K.Kernel.c_str(), BindFn,
                     reinterpret_cast<vf_gpu_emu_kernel_fn>(Sample->second));
  H.RegisterEmulated(VF_GPU_FOLD_KERNEL, BindFn,
                     reinterpret_cast<vf_gpu_emu_kernel_fn>(Fold->second));
  return Status::ok();
}

/// Gives the fake driver the host code it runs \p K's launches with: the
/// emulated GPU kernels, or the host kernel and fold
/// (VF_FAKE_CUDA_KERNELS=host).
Status registerOnHost(const KernelSource &K) {
  const FakeDriverHooks &H = fakeDriverHooks();
  if (!H.RegisterKernel)
    return Status::ok();
  if (H.EmulatesKernels && H.EmulatesKernels() && H.RegisterEmulated)
    return registerEmulated(H, K);
  H.RegisterKernel(K.Kernel.c_str(), runOnHost, keepContext({K.SampleTile}));
  H.RegisterKernel(VF_GPU_FOLD_KERNEL, runFoldOnHost, nullptr);
  return Status::ok();
}

/// The hook: the integrand's PTX as before, its host code registered
/// with the fake driver whenever the PTX is compiled for a GPU.
void emulateGpuCode(IntegrandCode &Code, const std::string &Name,
                    const GpuCodeSource &S) {
  auto Image = std::make_shared<const ProgramImage>(
      frozenImage(S.P, {{nullptr, S.Options.Evaluate}}, S.Options.Single));
  Code.GpuCode = [Ptx = std::move(Code.GpuCode),
                  K = KernelSource{Name, Code.GpuKernel, Code.SampleTile,
                                   &S.OnDemand, std::move(Image), S.Options}](
                     const std::string &Arch) -> Expected<std::string> {
    Expected<std::string> Text = Ptx(Arch);
    if (!Text)
      return Text;
    if (Status St = registerOnHost(K); !St)
      return St.error();
    return Text;
  };
}

} // namespace

void registerGpuEmulation() { setGpuCodeHook(emulateGpuCode); }

} // namespace vf::fakecuda
