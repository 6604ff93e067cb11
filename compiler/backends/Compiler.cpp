//===- backends/Compiler.cpp - Source program to runnable code ------------===//
//
// The pipeline per target: codegen -> set triple and data layout -> link the
// math library for that target -> internalize all but the entry points ->
// O2 -> object file (host) or a GPU target's text (legacy codegen pass
// manager, as the NVPTX backend still requires for emission). What differs
// between GPU targets is asked of their GpuCodeGen (GpuCodeGen.h), never
// tested here.
//
//===----------------------------------------------------------------------===//

#include "backends/Compiler.h"
#include "backends/ForeignLink.h"
#include "backends/GpuCodeGen.h"
#include "backends/Optimizer.h"
#include "backends/PdfTableBinding.h"
#include "backends/PerfMap.h"
#include "backends/ProgramImage.h"
#include "backends/RuntimeLibrary.h"
#include "bitcode/LLVMDiagnostics.h"
#include "bitcode/MathLibrary.h"
#include "bitcode/PdfLibrary.h"
#include "bitcode/SamplerKernel.h"
#include "codegen/IRGen.h"
#include "codegen/PdfCallMerge.h"
#include "codegen/PdfGen.h"
#include "codegen/WeightsGen.h"
#include "vf/Version.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/LegacyPassManager.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/Verifier.h"
#include "llvm/MC/MCSubtargetInfo.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Target/TargetMachine.h"

using namespace llvm;

namespace vf {

const CompiledIntegrand *CompiledModule::find(StringRef Name) const {
  for (const CompiledIntegrand &I : Integrands)
    if (I.Name == Name)
      return &I;
  return nullptr;
}

/// Bump when codegen changes in a way the version string does not show.
static constexpr const char *CodegenRevision = "codegen-21";

/// A digest of the embedded bitcode: a rebuilt math library or sampler
/// must not reuse code compiled with the old one.
static const std::string &embeddedBitcodeDigest() {
  static const std::string Digest = [] {
    CompileCacheKey K;
    for (BitcodeTarget T : {BitcodeTarget::Host, cudaCodeGen().bitcodeTarget()})
      for (ArrayRef<unsigned char> BC :
           {mathLibraryBitcode(T), samplerBitcode(T, false),
            samplerBitcode(T, true)})
        K.add(StringRef(reinterpret_cast<const char *>(BC.data()), BC.size()));
    return K.finish();
  }();
  return Digest;
}

std::string compileCacheKey(const ProgramImage &P, StringRef Target) {
  CompileCacheKey K;
  K.add(versionString());
  K.add(LLVM_VERSION_STRING);
  K.add(CodegenRevision);
  K.add(embeddedBitcodeDigest());
  K.add(Target);
  if (P.Single)
    K.add("precision=f32");
  for (const auto &[Name, Text] : P.Sources) {
    K.add(Name);
    K.add(Text);
  }
  K.add(foreignDigest(P.Foreign, gpuCodeGenForKey(Target)));
  for (const std::string &Set : P.PdfSetIdentities)
    K.add(Set);
  return K.finish();
}

std::string compileCacheKey(const Program &P, StringRef Target, bool Single) {
  return compileCacheKey(imageOf(P, Single), Target);
}

Compiler::Compiler(std::unique_ptr<orc::LLJIT> J) : JIT(std::move(J)) {}
Compiler::~Compiler() = default;

Expected<std::unique_ptr<Compiler>> Compiler::create() {
  auto JTMB = hostMachineBuilder();
  if (!JTMB)
    return JTMB.takeError();
  auto J = orc::LLJITBuilder().setJITTargetMachineBuilder(*JTMB).create();
  if (!J)
    return J.takeError();
  enablePerfMapIfRequested(**J);
  linkRuntimeLibrary(**J);
  return std::unique_ptr<Compiler>(new Compiler(std::move(*J)));
}

namespace {
/// What a module holds besides the integrands.
struct ModuleParts {
  bool Sampler = true; ///< the fused sampling kernels
  bool Batch = true;   ///< the batch entry points (host) or kernels (GPU)
  /// A test build's extra code (host, with the sampler).
  const HostExtension *Extension = nullptr;
  /// The host kernel's map gathers its edges (MapLoadCalibration.h).
  bool MapGathers = false;
  /// The host kernel's block step form (BlockStepCalibration.h).
  BlockStep BlockForm = BlockStep::Runs;
};
} // namespace

bool hasSampler(unsigned Dim, unsigned Outputs) {
  return Dim <= VF_SAMPLER_MAX_DIM && Outputs <= VF_SAMPLER_MAX_OUT;
}

/// \p Ext's entry points in a module of \p Integrands.
template <typename Range>
static std::vector<std::string> extensionSymbols(const HostExtension &Ext,
                                                 const Range &Integrands) {
  std::vector<std::string> Names;
  for (const auto &I : Integrands)
    if (hasSampler(I.Dim, I.Outputs))
      Names.push_back(I.Name);
  return Ext.Symbols(Names);
}

/// The host's (\p Gpu null) or \p Gpu's entry points in a module of \p P.
static std::vector<std::string>
entrySymbols(const ProgramImage &P, const GpuCodeGen *Gpu, ModuleParts Parts) {
  std::vector<std::string> Names;
  const bool Host = !Gpu;
  for (const ProgramImage::Integrand &I : P.Integrands) {
    if (Host)
      Names.push_back(boundsSymbol(I.Name));
    if (Parts.Batch)
      Names.push_back(Host ? batchSymbol(I.Name) : gpuEvalSymbol(I.Name));
    if (Parts.Batch && Host && I.Histograms)
      Names.push_back(cellsSymbol(I.Name));
    if (Host && I.WeightEntries)
      Names.push_back(weightsSymbol(I.Name));
    if (Parts.Sampler)
      Names.push_back(Host ? sampleTileSymbol(I.Name)
                           : gpuSampleSymbol(I.Name));
    if (Parts.Sampler && Host && !Parts.Batch)
      Names.push_back(pointsSymbol(I.Name));
    for (unsigned C = 0; C < I.Channels && Host; ++C)
      Names.push_back(Parts.Batch ? channelBatchSymbol(I.Name, C)
                                  : channelPointsSymbol(I.Name, C));
  }
  if (Parts.Sampler && !Host && !P.Integrands.empty())
    Names.push_back(VF_GPU_FOLD_KERNEL);
  if (Parts.Extension)
    for (std::string &S : extensionSymbols(*Parts.Extension, P.Integrands))
      Names.push_back(std::move(S));
  if (P.PdfTable) // set where the module is loaded (codegen/PdfGen.h)
    Names.push_back(PdfTableSymbol);
  return Names;
}

/// The bitcode libraries' build for the host (\p Gpu null) or \p Gpu.
static BitcodeTarget bitcodeTarget(const GpuCodeGen *Gpu) {
  return Gpu ? Gpu->bitcodeTarget() : BitcodeTarget::Host;
}

static Error addSamplers(const ProgramImage &P, Module &M,
                         const GpuCodeGen *Gpu, ModuleParts Parts) {
  const bool Lanes = !Gpu && Parts.BlockForm == BlockStep::Lanes;
  const bool Foreign = !P.Foreign.empty();
  std::vector<SamplerInstance> Instances;
  std::vector<std::string> Names;
  for (const ProgramImage::Integrand &I : P.Integrands) {
    if (!hasSampler(I.Dim, I.Outputs))
      continue;
    Names.push_back(I.Name);
    Instances.push_back(
        {M.getFunction(integrandSymbol(I.Name)), I.Dim, I.Outputs, I.Histograms,
         Gpu ? gpuSampleSymbol(I.Name) : sampleTileSymbol(I.Name),
         Gpu || Parts.Batch ? std::string() : pointsSymbol(I.Name), Lanes,
         Foreign,
         // C/C++ code may read the parameters in ways the count does not
         // bound; density() reads the maps after the weights.
         Foreign || I.ChannelDensity ? 0u : P.Params + I.Channels});
    Instances.back().WeightEntries = I.WeightEntries;
    Instances.back().Single = P.Single;
    Instances.back().MapGathers = !Gpu && Parts.MapGathers;
    Instances.back().UnitBox = !Gpu && I.UnitBox;
    for (unsigned C = 0; C < I.Channels; ++C)
      Instances.back().Channels.push_back(
          {M.getFunction(channelSymbol(I.Name, C)),
           Gpu || Parts.Batch ? std::string()
                              : channelPointsSymbol(I.Name, C)});
  }
  if (Error E = instantiateSampler(M, bitcodeTarget(Gpu), Instances))
    return E;
  return Parts.Extension ? Parts.Extension->Instantiate(M, Instances, Names)
                         : Error::success();
}

/// A debugging aid: with VF_DUMP_IR=DIR set, the module is written to
/// DIR/STAGE.ll before and after optimisation.
static void dumpModule(const Module &M, StringRef Stage) {
  std::optional<std::string> Dir = sys::Process::GetEnv("VF_DUMP_IR");
  if (!Dir)
    return;
  std::error_code EC;
  raw_fd_ostream OS(*Dir + "/" + Stage.str() + ".ll", EC);
  if (EC)
    return;
  M.print(OS, nullptr);
  // A full disk loses the dump, not the process: a stream destroyed with an
  // error pending ends it (report_fatal_error).
  OS.close();
  OS.clear_error();
}

/// Codegen, C/C++ code, math library, internalize, and (unless \p Raw)
/// O2.
static Expected<std::unique_ptr<Module>>
buildModule(const ProgramImage &P, LLVMContext &Ctx, const GpuCodeGen *Gpu,
            TargetMachine &TM, bool Raw, ModuleParts Parts,
            std::string &Warnings) {
  Expected<std::unique_ptr<Module>> Generated =
      P.Generate(Ctx, Gpu, Parts.Batch);
  if (!Generated)
    return Generated.takeError();
  std::unique_ptr<Module> M = std::move(*Generated);
  if (P.PdfTable)
    pdfTableGlobal(*M);
  M->setTargetTriple(TM.getTargetTriple().str());
  M->setDataLayout(TM.createDataLayout());
  mergePdfCalls(*M);
  if (Error E = linkForeignSources(P.Foreign, *M, Gpu, Warnings))
    return std::move(E);
  if (Raw)
    return std::move(M);
  // The densities call the math library, which links after them.
  if (P.PdfTable)
    if (Error E = linkPdfLibrary(*M, bitcodeTarget(Gpu)))
      return std::move(E);
  if (Error E = linkMathLibrary(*M, bitcodeTarget(Gpu)))
    return std::move(E);
  if (Parts.Sampler)
    if (Error E = addSamplers(P, *M, Gpu, Parts))
      return std::move(E);
  internalizeExcept(*M, entrySymbols(P, Gpu, Parts));
  const std::string Stage = Gpu ? Gpu->dumpName().str() : "host";
  dumpModule(*M, Stage + "-linked");
  optimizeModule(*M, TM);
  dumpModule(*M, Stage + "-optimized");
  std::string VerifyMsg;
  raw_string_ostream VOS(VerifyMsg);
  if (verifyModule(*M, &VOS))
    return createStringError(inconvertibleErrorCode(),
                             "internal error: invalid module after "
                             "optimisation: " +
                                 VOS.str());
  return std::move(M);
}

static Expected<std::string> emitFile(Module &M, TargetMachine &TM,
                                      const GpuCodeGen *Gpu,
                                      CodeGenFileType Kind) {
  SmallString<0> Buf;
  raw_svector_ostream OS(Buf);
  legacy::PassManager PM;
  if (TM.addPassesToEmitFile(PM, OS, nullptr, Kind))
    return createStringError(inconvertibleErrorCode(),
                             "the target cannot emit this file type");
  PM.run(M);
  if (Gpu)
    return Gpu->finishAssembly(Buf.str().str());
  return Buf.str().str();
}

namespace {
/// What generate() makes of a module.
enum class Output { Object, Assembly, IR, RawIR };
} // namespace

/// The one pipeline of every target and output: \p P for the host (\p Gpu
/// null) or for \p Gpu's \p Arch, with \p Parts, as a host object for the
/// JIT, assembly text (PTX for CUDA) or IR (unoptimised with RawIR); LLVM's
/// diagnostics become an error naming \p What, Clang's warnings on C/C++ code
/// go to \p Warnings.
static Expected<std::string> generate(const ProgramImage &P,
                                      const GpuCodeGen *Gpu, StringRef Arch,
                                      Output Out, ModuleParts Parts,
                                      StringRef What, std::string &Warnings) {
  LLVMContext Ctx;
  LLVMDiagnosticCapture Diags(Ctx);
  auto TM = Gpu ? Gpu->createTargetMachine(Arch) : createHostTargetMachine();
  if (!TM)
    return TM.takeError();
  auto M =
      buildModule(P, Ctx, Gpu, **TM, Out == Output::RawIR, Parts, Warnings);
  if (!M)
    return M.takeError();
  Expected<std::string> Text = std::string();
  if (Out == Output::IR || Out == Output::RawIR) {
    raw_string_ostream OS(*Text);
    (*M)->print(OS, nullptr);
  } else {
    Text = emitFile(**M, **TM, Gpu,
                    Out == Output::Object ? CodeGenFileType::ObjectFile
                                          : CodeGenFileType::AssemblyFile);
  }
  if (Error E = Diags.takeError(What))
    return std::move(E);
  return Text;
}

/// \p I's ChannelBatch in \p JD: the batch entry points with Evaluate,
/// else the sampler's terms at given points.
static Error lookUpChannelBatches(orc::LLJIT &JIT, orc::JITDylib &JD,
                                  CompiledIntegrand &I,
                                  const CompileOptions &O) {
  if (!O.Evaluate && !(O.Sampler && hasSampler(I.Dim, I.Outputs)))
    return Error::success();
  for (unsigned C = 0; C < I.Channels; ++C) {
    auto Addr = JIT.lookup(JD, O.Evaluate ? channelBatchSymbol(I.Name, C)
                                          : channelPointsSymbol(I.Name, C));
    if (!Addr)
      return Addr.takeError();
    I.ChannelBatch.push_back(Addr->toPtr<BatchEntry>());
  }
  return Error::success();
}

Error Compiler::linkHostObject(std::string Object, CompiledModule &CM,
                               const CompileOptions &O) {
  const bool Sampler = O.Sampler;
  orc::JITDylib *JD;
  {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto JDOr = JIT->createJITDylib("vfmodule" + std::to_string(NextDylib++));
    if (!JDOr)
      return JDOr.takeError();
    JD = &*JDOr;
  }
  if (Error E = JIT->addObjectFile(
          *JD, MemoryBuffer::getMemBufferCopy(Object, "vegasflow-module")))
    return E;
  if (CM.PdfTable)
    if (Error E = bindPdfTable(*JIT, *JD, *CM.PdfTable))
      return E;
  for (CompiledIntegrand &I : CM.Integrands) {
    auto Bounds = JIT->lookup(*JD, boundsSymbol(I.Name));
    if (!Bounds)
      return Bounds.takeError();
    I.Bounds = Bounds->toPtr<BoundsEntry>();
    if (O.Evaluate) {
      auto Addr = JIT->lookup(*JD, batchSymbol(I.Name));
      if (!Addr)
        return Addr.takeError();
      I.Batch = Addr->toPtr<BatchEntry>();
    }
    if (O.Evaluate && I.Histograms) {
      auto Cells = JIT->lookup(*JD, cellsSymbol(I.Name));
      if (!Cells)
        return Cells.takeError();
      I.Cells = Cells->toPtr<BatchEntry>();
    }
    if (I.WeightEntries) {
      auto Weights = JIT->lookup(*JD, weightsSymbol(I.Name));
      if (!Weights)
        return Weights.takeError();
      I.Weights = Weights->toPtr<WeightsEntry>();
    }
    if (!Sampler || !hasSampler(I.Dim, I.Outputs))
      continue;
    auto Sample = JIT->lookup(*JD, sampleTileSymbol(I.Name));
    if (!Sample)
      return Sample.takeError();
    I.SampleTile = Sample->toPtr<vf_sample_tile_fn>();
    if (O.Evaluate)
      continue;
    auto Points = JIT->lookup(*JD, pointsSymbol(I.Name));
    if (!Points)
      return Points.takeError();
    I.Batch = Points->toPtr<BatchEntry>();
  }
  for (CompiledIntegrand &I : CM.Integrands)
    if (Error E = lookUpChannelBatches(*JIT, *JD, I, O))
      return E;
  if (!Sampler || !O.Extension)
    return Error::success();
  for (const std::string &Name :
       extensionSymbols(*O.Extension, CM.Integrands)) {
    auto Addr = JIT->lookup(*JD, Name);
    if (!Addr)
      return Addr.takeError();
    CM.ExtensionSymbols[Name] = Addr->toPtr<void *>();
  }
  return Error::success();
}

Expected<std::unique_ptr<CompiledModule>>
Compiler::compile(const Program &P, const CompileOptions &O) {
  return compile(imageOf(P, O.Single), O);
}

/// What the host module of a compile with \p O holds: its map's form and
/// its block step's are the calibrations' where \p O leaves them to them
/// (MapLoadCalibration.h, BlockStepCalibration.h); a single-precision
/// kernel loads its float edges in pairs, and takes the block step form
/// measured in double.
static ModuleParts hostParts(const CompileOptions &O) {
  const bool Gathers =
      O.Sampler && !O.Single &&
      resolveMapLoads(O.MapForm, O.CacheDir, O.UseCache) == MapLoads::Gathers;
  const BlockStep Block =
      O.Sampler ? resolveBlockStep(O.BlockForm, O.CacheDir, O.UseCache)
                : BlockStep::Runs;
  return {O.Sampler, O.Evaluate, O.Sampler ? O.Extension : nullptr, Gathers,
          Block};
}

/// The target part of a host object's cache key. The block step's form
/// is named only where it is not the one the target implied before the
/// calibration (blockStepRule), whose objects keep their keys.
static std::string hostCacheTarget(const ModuleParts &Parts) {
  const bool RuleForm = !Parts.Sampler || Parts.BlockForm == blockStepRule();
  return "host;" + hostTargetDescription() + (Parts.Sampler ? ";sampler" : "") +
         (Parts.Extension ? ";" + Parts.Extension->Key : "") +
         (Parts.Batch ? "" : ";nobatch") +
         (Parts.MapGathers ? ";gathers" : "") +
         (RuleForm ? "" : ";block=" + blockStepName(Parts.BlockForm).str());
}

Expected<std::unique_ptr<CompiledModule>>
Compiler::compile(const ProgramImage &P, const CompileOptions &O) {
  if (!O.Sampler && !O.Evaluate)
    return createStringError(inconvertibleErrorCode(),
                             "internal error: compile options ask for "
                             "neither the sampler nor the batch entry points");
  auto CM = std::make_unique<CompiledModule>();
  CM->PdfTable = P.PdfTable;
  for (const ProgramImage::Integrand &I : P.Integrands) {
    CM->Integrands.push_back(
        {I.Name, I.Dim, I.Outputs, I.Histograms, I.HistCells, nullptr, nullptr,
         nullptr, O.Evaluate ? gpuEvalSymbol(I.Name) : std::string(),
         gpuSampleSymbol(I.Name), nullptr, I.Channels});
    CM->Integrands.back().WeightEntries = I.WeightEntries;
  }
  std::optional<CompileCache> Cache;
  if (O.UseCache)
    Cache.emplace(O.CacheDir);

  auto Cached = [&](StringRef Target, StringRef Ext, bool &FromCache,
                    auto Build) -> Expected<std::string> {
    std::string Key = compileCacheKey(P, Target);
    if (Cache)
      if (std::optional<std::string> Hit = Cache->load(Key, Ext)) {
        FromCache = true;
        return std::move(*Hit);
      }
    Expected<std::string> Built = Build();
    if (Built && Cache)
      Cache->store(Key, Ext, *Built);
    return Built;
  };

  if (O.PTX) {
    const GpuCodeGen &Gpu = cudaCodeGen();
    if (Error E = Gpu.checkArch(O.GpuArch))
      return std::move(E);
    std::string Unused; // the host build reports them
    auto PTX = Cached(Gpu.cacheName().str() + ";" + O.GpuArch +
                          (O.Sampler ? ";sampler" : "") +
                          (O.Evaluate ? "" : ";nobatch"),
                      Gpu.cacheName(), CM->PTXFromCache, [&] {
                        return generate(P, &Gpu, O.GpuArch, Output::Assembly,
                                        {O.Sampler, O.Evaluate},
                                        "PTX code generation", Unused);
                      });
    if (!PTX)
      return PTX.takeError();
    CM->PTX = std::move(*PTX);
  }
  if (O.Host) {
    // With C/C++ code, Clang's warnings are kept with the object, so that a
    // cached run says what a fresh one does.
    const bool Foreign = !P.Foreign.empty();
    const ModuleParts Parts = hostParts(O);
    auto Obj = Cached(hostCacheTarget(Parts), "obj", CM->HostFromCache,
                      [&]() -> Expected<std::string> {
                        std::string W;
                        auto Built = generate(P, nullptr, "", Output::Object,
                                              Parts, "host code generation", W);
                        if (Built && Foreign)
                          return packWarnings(W, *Built);
                        return Built;
                      });
    if (!Obj)
      return Obj.takeError();
    if (Foreign && !unpackWarnings(*Obj, CM->Warnings))
      return createStringError(inconvertibleErrorCode(),
                               "internal error: a host object without its "
                               "warnings");
    if (Error E = linkHostObject(std::move(*Obj), *CM, O))
      return std::move(E);
  }
  if (Cache)
    addCacheStats(Cache->stats());
  return std::move(CM);
}

void Compiler::addCacheStats(const CacheStats &S) {
  std::lock_guard<std::mutex> Lock(Mutex);
  Stats.Hits += S.Hits;
  Stats.Misses += S.Misses;
  Stats.Corrupt += S.Corrupt;
  Stats.WriteFailures += S.WriteFailures;
}

Expected<std::string> Compiler::emitText(const Program &P, EmitKind K,
                                         const CompileOptions &O) {
  const Output Out = K == EmitKind::LLVMRaw ? Output::RawIR
                     : K == EmitKind::LLVM  ? Output::IR
                                            : Output::Assembly;
  std::string Warnings; // --emit prints the code only
  const bool Ptx = K == EmitKind::PTX;
  ModuleParts Parts = Ptx ? ModuleParts{O.Sampler, O.Evaluate} : hostParts(O);
  Parts.Extension = nullptr;
  return generate(imageOf(P, O.Single), Ptx ? &cudaCodeGen() : nullptr,
                  O.GpuArch, Out, Parts, "code generation", Warnings);
}

CacheStats Compiler::cacheStats() const {
  std::lock_guard<std::mutex> Lock(const_cast<std::mutex &>(Mutex));
  return Stats;
}

} // namespace vf
