//===- backends/ProgramImage.h - A program as the backends see it -*- C++
//-*-===//
//
// What the backends need of a checked program: its integrands' shapes, its
// parameter count, its C/C++ files, its sources (the cache key's part) and
// codegen's module for a target. Made over the Program, whose AST codegen
// walks on demand; or frozen: codegen's modules made at once for the
// variants named and kept as bitcode, so that the Program may be freed
// and the code still compiled later, when an integrator is created for a
// GPU (bindIntegrand keeps a frozen image for that, never the Program).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_PROGRAMIMAGE_H
#define VF_COMPILER_BACKENDS_PROGRAMIMAGE_H

#include "clang/ClangFrontend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace vf {

class GpuCodeGen;
struct IntegrandDecl;
struct Program;
namespace pdf {
class PdfTable;
} // namespace pdf

struct ProgramImage {
  struct Integrand {
    std::string Name;
    unsigned Dim = 0, Outputs = 1, Histograms = 0, HistCells = 0;
    /// Its channels (0 for an ordinary integrand): their weights follow
    /// the parameters in the block the kernels read.
    unsigned Channels = 0;
    /// Some channel calls density(): the block then carries the maps too.
    bool ChannelDensity = false;
    /// The entries of its weight lists, all lists together.
    unsigned WeightEntries = 0;
    /// Its box is the unit cube for every parameter value: each interval
    /// infinite (sampled as [0, 1]) or [0, 1] in constants.
    bool UnitBox = false;
  };
  std::vector<Integrand> Integrands;
  unsigned Params = 0;
  /// The C/C++ files of its extern fns (compiled per target by Clang).
  std::vector<ForeignSource> Foreign;
  /// Each source module's name in the key ("<main>" or its path) and text.
  std::vector<std::pair<std::string, std::string>> Sources;
  /// The parton-density members the code looks up (Program::PdfTable;
  /// null for none) and the identity of their sets' files (the key's part).
  std::shared_ptr<const pdf::PdfTable> PdfTable;
  std::vector<std::string> PdfSetIdentities;
  /// The per-sample arithmetic is single precision (CompileOptions::Single;
  /// the key's part).
  bool Single = false;
  /// codegen's module for the host (null) or a GPU target, with or without
  /// the batch entry points.
  std::function<llvm::Expected<std::unique_ptr<llvm::Module>>(
      llvm::LLVMContext &, const GpuCodeGen *, bool Batch)>
      Generate;
};

/// Whether \p I's box (IntegrandBounds::domain) is [0, 1]^d whatever the
/// parameters: an infinite interval is sampled as [0, 1], a finite one's
/// bounds must be constants 0 and 1 (folded by Sema). The host kernel then
/// leaves the map's points unscaled (the vf_user_unit_box hole).
bool unitBox(const IntegrandDecl &I);

/// One module Generate can make: its target (null: the host) and parts.
struct CodeVariant {
  const GpuCodeGen *Gpu = nullptr;
  bool Batch = false;
};

/// The image over \p P, which must outlive it, in double or (\p Single)
/// single precision.
ProgramImage imageOf(const Program &P, bool Single = false);

/// The image of \p P with codegen's modules for \p Variants made now and
/// kept as bitcode: it holds nothing of \p P, and asked for another
/// variant it says so (an internal error).
ProgramImage frozenImage(const Program &P, llvm::ArrayRef<CodeVariant> Variants,
                         bool Single = false);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_PROGRAMIMAGE_H
