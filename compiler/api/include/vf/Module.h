//===- vf/Module.h - Compile .vf source into integrands ---------*- C++ -*-===//
//
// The library's front door to the compiler: compile a .vf file or a string
// (JIT-compiled for this CPU, cached on disk), list its integrands and get
// each as a vf::IntegrandInfo for vf::Integrator. Errors come back as
// values whose message is the compiler's diagnostics ("file:line:col:
// error: ..." with the source line and a caret). No compiler or LLVM type
// appears here.
//
//   auto M = vf::Module::compileFile("lepage.vf");
//   if (!M) { std::cerr << M.message(); return 1; }
//   auto I = vf::Integrator::create(*(*M)->integrand("lepage"));
//
//===----------------------------------------------------------------------===//
#ifndef VF_MODULE_H
#define VF_MODULE_H

#include "vf/Expected.h"
#include "vf/Integrand.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

namespace vf {

struct CompileSettings {
  /// Reuse compiled code from the on-disk cache (and store new code there).
  bool UseCache = true;
  /// Cache folder; empty: $VF_CACHE_DIR, $XDG_CACHE_HOME/vegasflow or
  /// ~/.cache/vegasflow.
  std::string CacheDir;
  /// Keep warnings (unused let/param, and Clang's and the portability
  /// checker's on C/C++ code) in warnings().
  bool Warnings = true;
  /// Errors beyond this many are counted ("N errors generated.") but
  /// their text is left out of the message (vegasc --error-limit).
  unsigned ErrorLimit = 20;
  /// The PDF set of each named `pdf` item, replacing the one its source
  /// names (docs/user-guide.md, "Hadron colliders"): a set name, searched
  /// as LHAPDF searches, or, with a '/', the set's folder (relative to the
  /// current directory). A name that is no pdf item is an error.
  std::map<std::string, std::string> PdfSets;
  /// Compile the integrands in single precision only, for a caller that
  /// knows before compiling that it runs them so (vegasc --precision f32):
  /// no double code is made, and their IntegrandInfo::SingleCode is set.
  bool Single = false;
};

/// How the on-disk cache served the compiles of this process so far: every
/// Module, and the GPU code their integrands compiled on demand.
struct CompileCacheStats {
  unsigned Hits = 0, Misses = 0, Corrupt = 0;
};
CompileCacheStats compileCacheStats();

class Module {
public:
  static Expected<std::shared_ptr<Module>>
  compileFile(const std::string &Path, const CompileSettings &S = {});
  /// \p Name labels diagnostics; relative imports resolve against the
  /// current directory.
  static Expected<std::shared_ptr<Module>>
  compileString(const std::string &Source, const std::string &Name = "<string>",
                const CompileSettings &S = {});

  /// The file's integrands, in source order.
  std::vector<std::string> integrandNames() const;
  /// The file's `derived` items and the integrand each uses, in source
  /// order (an integrand's binding carries its own: IntegrandInfo::Derived).
  struct DerivedItem {
    std::string Name, Integrand;
  };
  std::vector<DerivedItem> derivedItems() const;
  /// The integrand \p Name ("" picks the file's only integrand). The
  /// result keeps this module (and its compiled code) alive.
  Expected<IntegrandInfo> integrand(const std::string &Name = "") const;
  /// Warnings printed while compiling ("" if none).
  const std::string &warnings() const;
  /// The files it was compiled from: the source, the .vf files it imports
  /// and the C/C++ files of its extern functions (not the headers those
  /// include), for checking that no output of a run replaces one of them.
  std::vector<std::string> inputFiles() const;
  /// True when the compiled code came from the disk cache.
  bool fromCache() const;

  struct Impl;
  explicit Module(std::shared_ptr<Impl> P) : P(std::move(P)) {}

private:
  std::shared_ptr<Impl> P;
};

} // namespace vf

#endif // VF_MODULE_H
