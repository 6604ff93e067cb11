//===- clang/StandardHeaders.h - Standard headers of integrands -*- C++ -*-===//
//
// The standard headers a C++ integrand may include: vegasflow's own
// header-only subset (include/README.md says which and why), embedded in
// vegasc and overlaid at ForeignIncludeRoot beside vf/integrand.h, the
// same text for the host and nvptx64. The headers that need a run-time
// library (<vector>, <iostream>, ...) are there too, as one #error each
// naming the header, so that a GPU build that includes one says why it is
// refused rather than that it is not found; a CPU build of such a file
// takes the system's C++ library instead (SystemLibrary.h).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_STANDARDHEADERS_H
#define VF_COMPILER_CLANG_STANDARDHEADERS_H

#include "llvm/Support/VirtualFileSystem.h"

namespace vf {

/// Adds every standard header, provided and refused, under \p Root.
void addStandardHeaders(llvm::vfs::InMemoryFileSystem &FS,
                        llvm::StringRef Root);

/// What \p Name (a standard header's file name, "vector") does that needs
/// the C++ run-time library ("allocates memory"); empty for any other.
llvm::StringRef runtimeLibraryUse(llvm::StringRef Name);

} // namespace vf

#endif // VF_COMPILER_CLANG_STANDARDHEADERS_H
