//===- backends/RuntimeLibrary.h - libstdc++ for the host JIT ---*- C++ -*-===//
//
// A C++ integrand that includes a header needing the C++ run-time library
// (<vector>, <string>, ...: clang/SystemLibrary.h) calls into libstdc++
// (operator new, std::string's out-of-line members, the red-black tree
// of std::map, __throw_out_of_range) and through it libm (std::complex's
// cexp). The host JIT resolves those symbols in the libstdc++ this process
// has loaded, so the integrand's code and vegasflow's own share one C++
// run-time library (one heap, one std::terminate).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_RUNTIMELIBRARY_H
#define VF_COMPILER_BACKENDS_RUNTIMELIBRARY_H

namespace llvm::orc {
class LLJIT;
} // namespace llvm::orc

namespace vf {

/// Lets \p J's main library resolve symbols in this process's libstdc++
/// and the libraries it loaded (libm, libgcc_s, libc).
void linkRuntimeLibrary(llvm::orc::LLJIT &J);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_RUNTIMELIBRARY_H
