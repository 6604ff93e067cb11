//===- backends/Compiler.h - Source program to runnable code ----*- C++ -*-===//
//
// The compiler object turns a checked Program into a CompiledModule: host
// entry points (JIT-linked into this process by ORC LLJIT) and PTX text.
// Compiled code is cached on disk (CompileCache); a cache hit skips codegen
// and optimisation entirely. One Compiler may be used from several threads.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_COMPILER_H
#define VF_COMPILER_BACKENDS_COMPILER_H

#include "backends/BlockStepCalibration.h"
#include "backends/CompileCache.h"
#include "backends/MapLoadCalibration.h"
#include "backends/Targets.h"

#include "SamplerABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace llvm {
class Module;
namespace orc {
class LLJIT;
} // namespace orc
} // namespace llvm

namespace vf {

struct Program;
struct ProgramImage;
struct SamplerInstance;
namespace pdf {
class PdfTable;
} // namespace pdf

/// Code a test build links into a host module next to the sampler, with
/// entry points of its own: the fake CUDA driver's warp emulation
/// (tests/fakecuda) adds the GPU kernel compiled for the host this way.
/// The product has none; its modules and cache keys never depend on one.
struct HostExtension {
  /// Its part of the host object's cache key: a digest of what it links in.
  std::string Key;
  /// Links its code into \p M, given the host sampler's instances (one per
  /// integrand the runtime can integrate) and those integrands' names.
  llvm::Error (*Instantiate)(llvm::Module &M,
                             llvm::ArrayRef<SamplerInstance> Instances,
                             llvm::ArrayRef<std::string> Names);
  /// Its entry points in a module of the integrands \p Names (those with
  /// a sampler), kept through internalization and looked up after linking.
  std::vector<std::string> (*Symbols)(llvm::ArrayRef<std::string> Names);
};

struct CompileOptions {
  bool Host = true;       ///< JIT-compile host entry points
  bool PTX = false;       ///< emit PTX text
  bool UseCache = true;   ///< --no-cache turns it off
  std::string CacheDir;   ///< empty: CompileCache::defaultDirectory()
  std::string GpuArch = DefaultGpuArch;
  /// Instantiate the fused sampling kernel (needed to integrate; --eval and
  /// --emit of the bare integrand skip it, which halves a cold compile).
  bool Sampler = true;
  /// The batch entry points (CompiledIntegrand::Batch and Cells) and the
  /// GPU's batch kernels (GpuEvalKernel). Integrating needs the sampler
  /// alone: vf::Module leaves them out where every integrand has one,
  /// which saves a sixth of a cold host compile; Batch is then the
  /// sampler's integrand at given points (pointsSymbol), compiled with it.
  bool Evaluate = true;
  /// The integrands' arithmetic in single precision (vegasc --precision
  /// f32; docs/user-guide.md, "Precision"): their entry points still read
  /// and write doubles.
  bool Single = false;
  /// With Host and Sampler: a test build's extra code in the host module
  /// (CompiledModule::ExtensionSymbols).
  const HostExtension *Extension = nullptr;
  /// The host kernel's map form (MapLoadCalibration.h): Auto, this CPU's
  /// calibration; Pairs or Gathers forced, for tests and benchmarks (a
  /// developer's setting: the results are the same bits either way).
  MapLoads MapForm = MapLoads::Auto;
  /// The host kernel's block step form (BlockStepCalibration.h): Auto,
  /// this CPU's calibration; Runs or Lanes forced, for tests and
  /// benchmarks (the same bits either way).
  BlockStep BlockForm = BlockStep::Auto;
};

/// vf_batch_NAME(xs, n, params, out): out[i*nout + k] = f_k(xs + i*dim).
using BatchEntry = void (*)(const double *Xs, int64_t N, const double *Params,
                            double *Out);

/// vf_weights_NAME(x, params, out): one point's weight list entries
/// (codegen/IRGen.h).
using WeightsEntry = void (*)(const double *X, const double *Params,
                              double *Out);

/// vf_bounds_NAME(params, out): the domain's and histograms' bounds
/// (codegen/IRGen.h).
using BoundsEntry = void (*)(const double *Params, double *Out);

struct CompiledIntegrand {
  std::string Name;
  unsigned Dim = 0;
  unsigned Outputs = 1;
  unsigned Histograms = 0;     ///< how many; their cells in all:
  unsigned HistCells = 0;
  /// Host entry point: the batch entry point (with Host and Evaluate), or
  /// else the sampler's integrand at given points (with Host and Sampler).
  BatchEntry Batch = nullptr;
  /// vf_cells_NAME: each point's histogram cells (when there are any).
  BatchEntry Cells = nullptr;
  vf_sample_tile_fn SampleTile = nullptr; ///< the fused kernel (host)
  std::string GpuEvalKernel;   ///< kernel names in the PTX (this one
                               ///< with Evaluate)
  std::string GpuSampleKernel;
  BoundsEntry Bounds = nullptr; ///< host entry point (with Host)
  /// A multi-channel integrand's channels (0 for an ordinary integrand),
  /// and on the host each one's term at given points from the kernels'
  /// parameter block, as Batch is found.
  unsigned Channels = 0;
  std::vector<BatchEntry> ChannelBatch = {};
  /// The entries of its weight lists, and on the host vf_weights_NAME
  /// when there are any.
  unsigned WeightEntries = 0;
  WeightsEntry Weights = nullptr;
};

struct CompiledModule {
  std::vector<CompiledIntegrand> Integrands;
  std::string PTX;
  /// The addresses of CompileOptions::Extension's entry points, by name.
  std::map<std::string, void *> ExtensionSymbols;
  /// Clang's warnings on the program's C/C++ code (a file that runs on
  /// the CPU only says so here).
  std::string Warnings;
  bool HostFromCache = false, PTXFromCache = false;
  /// The parton-density members the code reads (ProgramImage::PdfTable):
  /// the host module's PdfTableSymbol points into it, so it lives as long
  /// as the module; a GPU copies it when it loads the module.
  std::shared_ptr<const pdf::PdfTable> PdfTable;
  const CompiledIntegrand *find(llvm::StringRef Name) const;
};

/// The sampler is instantiated for an integrand of this shape; the runtime
/// refuses to integrate the others, with a message.
bool hasSampler(unsigned Dim, unsigned Outputs);

/// What `vegasc --emit=` prints.
enum class EmitKind { LLVMRaw, LLVM, Asm, PTX };

class Compiler {
public:
  static llvm::Expected<std::unique_ptr<Compiler>> create();
  ~Compiler();

  llvm::Expected<std::unique_ptr<CompiledModule>>
  compile(const Program &P, const CompileOptions &O);
  /// The same from \p P's image (ProgramImage.h): a frozen one compiles
  /// without the Program.
  llvm::Expected<std::unique_ptr<CompiledModule>>
  compile(const ProgramImage &P, const CompileOptions &O);

  /// The module as text at the given stage; never cached.
  llvm::Expected<std::string> emitText(const Program &P, EmitKind K,
                                       const CompileOptions &O);

  /// Cache hits/misses/corrupt entries over this compiler's lifetime.
  CacheStats cacheStats() const;

private:
  explicit Compiler(std::unique_ptr<llvm::orc::LLJIT> J);

  llvm::Error linkHostObject(std::string Object, CompiledModule &M,
                             const CompileOptions &O);
  void addCacheStats(const CacheStats &S);

  std::unique_ptr<llvm::orc::LLJIT> JIT;
  std::mutex Mutex; // guards JIT dylib creation and the stats
  unsigned NextDylib = 0;
  CacheStats Stats;
};

/// The cache key of \p P for \p Target ("host;<cpu>..." or "ptx;sm_90").
std::string compileCacheKey(const Program &P, llvm::StringRef Target,
                            bool Single = false);
std::string compileCacheKey(const ProgramImage &P, llvm::StringRef Target);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_COMPILER_H
