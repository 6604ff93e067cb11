//===- clang/PortabilityChecker.h - What a GPU cannot run -------*- C++ -*-===//
//
// AST matchers (libTooling's ASTMatchers) over a translation unit, each
// rule reported as a Clang diagnostic at its place (file:line:col, the
// line, a caret). Two kinds of rule:
//
//  - the engine's guarantees, errors on every device: mutable global state
//    (non-const globals, function-local statics, thread_local) makes a
//    sample depend on the ones before it and races across threads;
//    exceptions cannot leave the fused kernel; long double is 80 bits on
//    the CPU and 64 on a GPU, so the devices would disagree; inline asm is
//    for one target only.
//  - what a GPU cannot run: calls to functions without a definition (other
//    than vf/integrand.h's math), new/delete and malloc/free, I/O,
//    virtual calls through unknown types, recursion, and the #include of
//    a standard header that needs the C++ run-time library (<vector>,
//    ...; a host build of such a file takes the system's C++ library).
//    Errors for a GPU build; for a host build warnings, and a note that
//    the file runs on the CPU only.
//
// What the system's headers themselves do (throw, allocate, keep globals)
// is not the file's, and not reported.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_PORTABILITYCHECKER_H
#define VF_COMPILER_CLANG_PORTABILITYCHECKER_H

#include "llvm/ADT/StringRef.h"

#include <string>
#include <vector>

namespace clang {
class ASTContext;
class Preprocessor;
} // namespace clang

namespace vf {

/// Where vf/integrand.h lives in Clang's (virtual) file system.
constexpr llvm::StringLiteral ForeignIncludeRoot = "/vegasflow-include";

/// The #includes of standard headers that need the C++ run-time library
/// (<vector>, ...), as the preprocessor reads them: each is a finding at
/// its line, even of a header that an earlier one already included (which
/// the preprocessor does not enter again, so that no trace of it is left
/// in the AST or the source manager).
struct RuntimeLibraryIncludes {
  struct Include {
    std::string Header;
    unsigned At; ///< clang::SourceLocation's raw encoding: the file name
  };
  std::vector<Include> Found;
  /// Starts recording in \p PP; call before the parse.
  void record(clang::Preprocessor &PP);
};

/// Reports every finding in \p Ctx through its DiagnosticsEngine, those of
/// \p Includes' in the file's own code among them; GPU rules as errors
/// when \p Gpu. Returns true when a GPU rule fired.
bool runPortabilityChecker(clang::ASTContext &Ctx, bool Gpu,
                           const RuntimeLibraryIncludes &Includes);

} // namespace vf

#endif // VF_COMPILER_CLANG_PORTABILITYCHECKER_H
