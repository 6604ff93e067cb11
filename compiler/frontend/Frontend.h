//===- frontend/Frontend.h - Load, parse and check a .vf program -*- C++ -*-===//
//
// The front end's entry points: read the main file (or a string), lex and
// parse it, follow `import`s (std modules are embedded; other paths are
// relative to the importing file), and run Sema. Errors go to the
// DiagEngine; the caller decides what to do with a program that has errors.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_FRONTEND_H
#define VF_COMPILER_FRONTEND_FRONTEND_H

#include "frontend/Program.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

#include <cstdint>
#include <memory>
#include <string>

namespace vf {

class DiagEngine;

/// A source or batch file larger than this is refused unread: no input is
/// that large, and a generated one should not exhaust the machine.
constexpr std::uint64_t MaxSourceBytes = std::uint64_t(64) << 20;

/// Reads the input file \p Path whole: only a regular file (checked on the
/// descriptor opened, non-blocking, so a FIFO never blocks), read to its
/// end and at most MaxSourceBytes, so /dev/zero, a FIFO, a directory or an
/// unreadable /proc file is an error, never an endless read or an empty
/// program. The error names the path and says why.
llvm::Expected<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFile(llvm::StringRef Path);

/// readSourceFile with the reason as an error code, for a file system
/// (Clang's, clang/ClangJob.cpp): errno's when the file cannot be opened
/// or read (ENOENT lets a header search go on to the next folder), a code
/// whose message says why it was refused otherwise ("it is a FIFO, not a
/// regular file").
llvm::ErrorOr<std::unique_ptr<llvm::MemoryBuffer>>
readSourceFileOrCode(llvm::StringRef Path);

/// Parses the file at \p Path and its imports into \p P (no Sema). Returns
/// false when the file cannot be read or has syntax errors.
bool parseProgramFile(Program &P, llvm::StringRef Path, DiagEngine &Diags);
/// The same for source text; \p Name is used in diagnostics and relative
/// imports resolve against the current directory.
bool parseProgramSource(Program &P, llvm::StringRef Name,
                        llvm::StringRef Source, DiagEngine &Diags);

/// parseProgram* followed by Sema; true when there is no error.
bool loadProgramFile(Program &P, llvm::StringRef Path, DiagEngine &Diags);
bool loadProgramSource(Program &P, llvm::StringRef Name,
                       llvm::StringRef Source, DiagEngine &Diags);

/// .c (C11) or .cc, .cpp, .cxx (C++17): a file for the C/C++ front end
/// (compiler/clang), named by `extern "file.cpp" fn` or given as the main
/// file.
bool isForeignSourcePath(llvm::StringRef Path);

/// The text of `import "std/NAME"` (embedded at build time), or false.
bool lookupStdModule(const char *Name, const char **Text, unsigned long *Len);
/// The embedded modules, "std/channels, std/genz, ...", for messages.
std::string stdModuleNames();

} // namespace vf

#endif // VF_COMPILER_FRONTEND_FRONTEND_H
