//===- backends/ForeignLink.h - C/C++ code in an integrand module -*- C++ -*-===//
//
// The backends' side of the C/C++ front end (compiler/clang): the digest of
// a program's C/C++ files for the compile cache's key, and the link of
// their modules into the integrand module, before the math library and the
// sampler are linked and everything is internalized and optimised
// together, so that the C/C++ functions inline into the sampling loop.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_FOREIGNLINK_H
#define VF_COMPILER_BACKENDS_FOREIGNLINK_H

#include "clang/ClangFrontend.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/Error.h"

#include <string>

namespace llvm {
class Module;
} // namespace llvm

namespace vf {

class GpuCodeGen;

/// The C/C++ part of a program's cache key for the host (\p Gpu null) or
/// the GPU target \p Gpu: per file of \p Files, Clang's digest of it and
/// its includes, flags (the precision's among them) and version ("" for a
/// .vf-only program). A file
/// that cannot be preprocessed gives a digest of its error, so the compile
/// that follows reports it.
std::string foreignDigest(llvm::ArrayRef<ForeignSource> Files,
                          const GpuCodeGen *Gpu);

/// Compiles \p Files for the host or \p Gpu and links them into \p M (whose
/// triple and data layout are set). Warnings (a host build of a file a GPU
/// cannot run) are appended to \p Warnings.
llvm::Error linkForeignSources(llvm::ArrayRef<ForeignSource> Files,
                               llvm::Module &M, const GpuCodeGen *Gpu,
                               std::string &Warnings);

/// A host object with the warnings of its compile, as one cache payload
/// (for programs with C/C++ files), and back.
std::string packWarnings(llvm::StringRef Warnings, llvm::StringRef Object);
bool unpackWarnings(std::string &Payload, std::string &Warnings);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_FOREIGNLINK_H
