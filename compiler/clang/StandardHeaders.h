//===- clang/StandardHeaders.h - Standard headers of integrands -*- C++ -*-===//
//
// The standard headers a C++ integrand may include: vegasflow's own
// header-only subset (include/README.md says which and why), embedded in
// vegasc and overlaid at ForeignIncludeRoot beside vf/integrand.h, the
// same text for the host and nvptx64. The headers that need a run-time
// library (<vector>, <iostream>, ...) are there too, as one #error each
// naming the header, so that including one says why it is refused rather
// than that it is not found.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_STANDARDHEADERS_H
#define VF_COMPILER_CLANG_STANDARDHEADERS_H

#include "llvm/Support/VirtualFileSystem.h"

namespace vf {

/// Adds every standard header, provided and refused, under \p Root.
void addStandardHeaders(llvm::vfs::InMemoryFileSystem &FS,
                        llvm::StringRef Root);

} // namespace vf

#endif // VF_COMPILER_CLANG_STANDARDHEADERS_H
