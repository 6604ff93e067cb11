//===- clang/ClangJob.h - One Clang run over a translation unit -*- C++ -*-===//
//
// A CompilerInstance built from cc1 arguments (never through Clang's
// driver, which would look for a CUDA installation for nvptx64 and for
// system headers for the host), over the real file system (every file
// read whole by the front end's bounded reader, readSourceFileOrCode, so
// an #include of a FIFO or /dev/zero is an error at its line) with
// vf/integrand.h and vegasflow's standard headers (StandardHeaders.h)
// overlaid at ForeignIncludeRoot, its diagnostics printed
// as text (file:line:col, the line, a caret) into a string.
//
// The flags are those of the project's bitcode (cmake/Bitcode.cmake): no
// system or builtin headers (except in a CPU-only build with the system's
// C++ library, SystemLibrary.h), freestanding, no math errno, no FP
// contraction, __VF_SINGLE__ in single precision, and for the GPU the
// whole target stated (nvptx64-nvidia-cuda,
// VF_BITCODE_GPU_ARCH and VF_BITCODE_PTX_ISA of runtime/kernels/PtxTargets.h;
// the functions later take the integrand module's sm_XX).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_CLANGJOB_H
#define VF_COMPILER_CLANG_CLANGJOB_H

#include "clang/ClangFrontend.h"
#include "frontend/Frontend.h"

#include "clang/Frontend/CompilerInstance.h"

#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <memory>
#include <string>
#include <vector>

namespace vf {

// MaxSourceBytes (frontend/Frontend.h) bounds a translation unit, its
// includes with it (a file larger is not read; the scan counts the rest):
// a generated matrix element of 100,000 lines is about 5 MB.

enum class ClangPurpose {
  Scan,    ///< preprocess only
  Check,   ///< parse with exceptions on, so the checker sees them
  Compile, ///< parse and generate IR
};

class ClangJob {
public:
  /// With \p SystemLibrary (a host build of a file that needs the C++
  /// run-time library), the system's standard headers and Clang's
  /// built-in ones rather than vegasflow's subset; a machine without them
  /// leaves no instance, and diagnostics() says what to install. With
  /// \p Single, vf_real is float (__VF_SINGLE__), and a compile keeps
  /// line tables for the check of its arithmetic (SinglePrecision.h).
  ClangJob(llvm::StringRef Path, ForeignTarget T, ClangPurpose P,
           bool SystemLibrary = false, bool Single = false);

  /// Null when the arguments were refused (a bug; diagnostics() says).
  clang::CompilerInstance *instance() { return CI.get(); }
  /// Everything Clang printed so far.
  std::string diagnostics();
  bool hasErrors() const;
  /// The flags, for cache digests.
  const std::vector<std::string> &arguments() const { return Args; }

private:
  std::string Text;
  llvm::raw_string_ostream OS{Text};
  std::vector<std::string> Args;
  std::unique_ptr<clang::CompilerInstance> CI;
};

enum class ClangPhase { Scan, Parse, Check, CodeGen };

/// A stopwatch over Clang's phases (clangPhaseTimes): lap(P) adds the
/// time since the last lap, or since it was made, to P's total.
class PhaseClock {
public:
  void lap(ClangPhase P);

private:
  std::chrono::steady_clock::time_point Last = std::chrono::steady_clock::now();
};

/// Clang's full version string, for cache digests.
std::string clangVersion();

} // namespace vf

#endif // VF_COMPILER_CLANG_CLANGJOB_H
