//===- clang/SystemLibrary.h - The host's C++ standard library --*- C++ -*-===//
//
// Where the host's C++ standard library (libstdc++) and Clang's built-in
// headers are, for a C++ integrand that includes a header needing a
// run-time library (<vector>, <string>, <map>, ...): such a file is
// compiled for the CPU only, with the system's headers instead of
// vegasflow's subset (the two cannot be mixed: both define namespace std),
// and its module is linked against this process's libstdc++ and libm.
// The folders are the ones Clang's driver finds (its GCC installation
// detection, for the clang of the LLVM vegasflow was built with), found
// once per process.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_SYSTEMLIBRARY_H
#define VF_COMPILER_CLANG_SYSTEMLIBRARY_H

#include "llvm/Support/Error.h"

#include <string>
#include <vector>

namespace vf {

/// The cc1 arguments that make the system's C++ library and Clang's
/// built-in headers visible (-resource-dir, -internal-isystem, ...), or an
/// error naming what is missing and the Debian package that provides it.
llvm::Expected<const std::vector<std::string> &> systemLibraryArguments();

} // namespace vf

#endif // VF_COMPILER_CLANG_SYSTEMLIBRARY_H
