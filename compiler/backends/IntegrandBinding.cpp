//===- backends/IntegrandBinding.cpp - Compiled code to the runtime -------===//

#include "backends/IntegrandBinding.h"
#include "backends/DerivedTape.h"
#include "backends/GpuCodeGen.h"
#include "backends/GpuCodeHook.h"
#include "backends/IntegrandBounds.h"
#include "backends/PdfTableBinding.h"
#include "backends/ProgramImage.h"
#include "frontend/ChannelQueries.h"
#include "frontend/PdfUse.h"
#include "frontend/Program.h"
#include "clang/CxxIntegrands.h"

#include "SamplerABI.h"

using namespace llvm;

namespace vf {

namespace {
/// \p Fn run as \p Site's code (IntegrandFaults.h), or \p Fn itself.
std::function<void(const double *, std::int64_t, const double *, double *)>
guardedBatch(std::shared_ptr<const FaultSite> Site, BatchEntry Fn) {
  if (!Site || !Fn)
    return Fn;
  return [Site, Fn](const double *Xs, std::int64_t N, const double *Params,
                    double *Out) {
    runIntegrandCode(*Site, [&] { callCompiled(Fn, Xs, N, Params, Out); });
  };
}

/// Info's EvaluateWeights: \p Fn (one point's entries, \p Entries of
/// them) at each point, run as \p Site's code; null without \p Fn.
std::function<void(const double *, std::int64_t, const double *, double *)>
weightsBatch(std::shared_ptr<const FaultSite> Site, WeightsEntry Fn,
             unsigned Dim, unsigned Entries) {
  if (!Fn)
    return nullptr;
  return [Site, Fn, Dim, Entries](const double *Xs, std::int64_t N,
                                  const double *Params, double *Out) {
    auto Points = [&] {
      for (std::int64_t K = 0; K < N; ++K)
        callCompiled(Fn, Xs + K * Dim, Params, Out + K * Entries);
    };
    if (Site)
      runIntegrandCode(*Site, Points);
    else
      Points();
  };
}

/// Info's EvaluateChannel over \p Entries (one per channel), or null.
std::function<void(unsigned, const double *, std::int64_t, const double *,
                   double *)>
channelBatches(const std::shared_ptr<const FaultSite> &Site,
               const std::vector<BatchEntry> &Entries) {
  if (Entries.empty())
    return nullptr;
  std::vector<std::function<void(const double *, std::int64_t, const double *,
                                 double *)>>
      Guarded;
  for (BatchEntry Fn : Entries)
    Guarded.push_back(guardedBatch(Site, Fn));
  return [Guarded](unsigned Channel, const double *Xs, std::int64_t N,
                   const double *Params,
                   double *Out) { Guarded[Channel](Xs, N, Params, Out); };
}

/// Info's Domain and HistRanges: \p C's compiled bounds, checked
/// (IntegrandBounds.h).
void bindBounds(IntegrandInfo &Info, const Program &P, const IntegrandDecl &I,
                const CompiledIntegrand &C,
                std::shared_ptr<const FaultSite> Site) {
  if (!C.Bounds)
    return;
  auto Bounds =
      std::make_shared<const IntegrandBounds>(P, I, C.Bounds, std::move(Site));
  Info.Domain = [Bounds](std::span<const double> Params,
                         std::vector<double> &Lo, std::vector<double> &Hi) {
    return Bounds->domain(Params, Lo, Hi);
  };
  Info.HistRanges = [Bounds](std::span<const double> Params,
                             std::vector<double> &Ranges) {
    return Bounds->histRanges(Params, Ranges);
  };
}
/// \p W's entries from cell \p Base, and its band.
static WeightListSpec weightListSpec(const WeightsStmt &W, unsigned Base) {
  WeightListSpec S{W.Name, W.Length, Base, W.List->LoValue};
  const pdf::ErrorMembers E = listBand(W);
  if (E.Band == WeightBand::Envelope)
    return S;
  S.Band = E.Band;
  S.ErrorMembers = E.Count;
  S.Scale = E.Scale;
  return S;
}

/// The devices' code of \p C: its tile kernel, run as \p Site's code; with
/// \p OnDemand, its GPU code compiled for a target when an integrator is
/// set up for such a GPU, from \p Image (made now from \p P if null).
std::shared_ptr<const IntegrandCode>
bindCode(const Program &P, const IntegrandDecl &I, const CompiledIntegrand &C,
         std::shared_ptr<const FaultSite> Site, Compiler *OnDemand,
         const CompileOptions &Options,
         std::shared_ptr<const ProgramImage> Image) {
  auto Code = std::make_shared<IntegrandCode>();
  Code->SampleTile = C.SampleTile;
  Code->UnitBoxTile = C.SampleTile && unitBox(I);
  if (Site && C.SampleTile)
    Code->SampleTile = [Site, Fn = C.SampleTile](const vf_sampler_args *A,
                                                 unsigned long long Tile,
                                                 const vf_tile_outputs *Out) {
      runIntegrandCode(*Site, [&] { callCompiled(Fn, A, Tile, Out); });
    };
  if (!OnDemand || !C.SampleTile)
    return Code;
  Code->GpuKernel = C.GpuSampleKernel;
  if (!Image)
    Image = gpuImage(P, Options);
  Code->GpuCode = [OnDemand, Image, Options](
                      const std::string &Arch) -> vf::Expected<std::string> {
    CompileOptions O = Options;
    O.Host = false;
    O.PTX = true;
    O.Sampler = true;
    O.GpuArch = Arch;
    auto CM = OnDemand->compile(*Image, O);
    if (!CM)
      return vf::Error{toString(CM.takeError())};
    return std::move((*CM)->PTX);
  };
  if (Image->PdfTable)
    bindPdfTable(*Code, Image->PdfTable);
  applyGpuCodeHook(*Code, I.Name, {*OnDemand, P, Options});
  return Code;
}
} // namespace

std::shared_ptr<const FaultSite> integrandFaultSite(const Program &P,
                                                    const std::string &Name) {
  std::string Files;
  for (const ForeignSource &S : foreignSources(P))
    Files += (Files.empty() ? "" : ", ") + S.Path;
  if (Files.empty())
    return nullptr;
  return std::make_shared<const FaultSite>(Name, Files);
}

std::shared_ptr<const ProgramImage> gpuImage(const Program &P,
                                             const CompileOptions &Options) {
  return std::make_shared<const ProgramImage>(
      frozenImage(P, {{&cudaCodeGen(), Options.Evaluate}}, Options.Single));
}

IntegrandInfo bindIntegrand(const Program &P, const CompiledModule &M,
                            const IntegrandDecl &I, Compiler *OnDemand,
                            const CompileOptions &Options,
                            std::shared_ptr<const ProgramImage> GpuImage) {
  IntegrandInfo Info;
  Info.Name = I.Name;
  Info.Dim = I.Dim;
  Info.Outputs = I.Outputs;
  for (const ParamDecl *PD : P.Params) {
    Info.ParamNames.push_back(PD->Name);
    Info.ParamDefaults.push_back(PD->DefaultValue);
  }
  if (const CompiledIntegrand *C = M.find(I.Name)) {
    auto Site = integrandFaultSite(P, I.Name);
    Info.Evaluate = guardedBatch(Site, C->Batch);
    Info.EvaluateChannel = channelBatches(Site, C->ChannelBatch);
    Info.EvaluateWeights =
        weightsBatch(Site, C->Weights, I.Dim, C->WeightEntries);
    bindBounds(Info, P, I, *C, Site);
    Info.Code = bindCode(P, I, *C, std::move(Site), OnDemand, Options,
                         std::move(GpuImage));
  }
  Info.ModuleHash = compileCacheKey(P, "integrand;" + I.Name, Options.Single);
  Info.SingleCode = Options.Single;
  for (const HistStmt *H : I.Histograms) {
    HistogramSpec S{H->Name, {H->Bins[0]}, H->Base};
    if (H->Axes == 2)
      S.Bins.push_back(H->Bins[1]);
    Info.Histograms.push_back(S);
  }
  // The entries' cells follow the histograms' (kernels/HistSums.h,
  // vf_hist_add_entries): the entries, their differences from the
  // integrand's value in the same order, and that value.
  const unsigned Entries = I.WeightEntries;
  Info.HistCells =
      I.HistCells + (Entries ? unsigned(VF_WEIGHT_CELLS(Entries)) : 0u);
  for (const WeightsStmt *W : I.WeightLists) {
    const unsigned Base = I.HistCells + unsigned(W->Base);
    WeightListSpec S = weightListSpec(*W, Base);
    S.Differences = Base + Entries;
    S.Central = I.HistCells + 2 * Entries;
    Info.WeightLists.push_back(S);
  }
  for (const auto &C : I.Channels)
    Info.Channels.push_back(C->Name);
  Info.ChannelWeightsUsed =
      firstChannelQuery(I, ChannelQuery::Alpha) != nullptr;
  Info.ChannelDensityUsed =
      firstChannelQuery(I, ChannelQuery::Density) != nullptr;
  Info.Derived = derivedTapes(P, I);
  return Info;
}

} // namespace vf
