//===- vf/ToolSupport.h - What a command-line tool asks of LLVM -*- C++ -*-===//
//
// A front door that is a program of its own (vegasc) needs a few things
// that only the LLVM inside the library has: a stack dump when it crashes,
// the host CPU's name as the compiler targets it, and the LLVM version its
// results record. They are public calls here so that the tool itself
// includes no LLVM header and links only the public API.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLSUPPORT_H
#define VF_TOOLSUPPORT_H

#include <string>

namespace vf {

/// On a crash (SIGSEGV, SIGABRT, ...), prints a stack trace naming the
/// program \p Argv0 before the process dies, so that a rare crash can be
/// reported usefully. Call once, first thing in main().
void installCrashHandler(const char *Argv0);

/// The host CPU as the compiler's host backend targets it ("znver3",
/// "skylake-avx512", "generic" when unknown).
std::string hostCpuName();

/// The version of the LLVM the library was built with ("19.1.7").
const char *llvmVersionString();

} // namespace vf

#endif // VF_TOOLSUPPORT_H
