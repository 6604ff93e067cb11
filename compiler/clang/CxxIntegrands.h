//===- clang/CxxIntegrands.h - C/C++ files in a .vf program -----*- C++ -*-===//
//
// Where the C/C++ front end meets the .vf one. A .vf program names C/C++
// code by `extern "file.cpp" fn NAME(...)`; foreignSources lists those files
// with the signatures expected of them. A C/C++ file given as the main file
// (`vegasc me.cpp`) becomes a program of the same shape, built as AST
// nodes located in the file (EntryProgram.cpp): per VF_INTEGRAND entry,
// its parameters, an extern fn for the entry and an integrand on
// [0, 1]^DIM calling it, so that everything after the front end (Sema,
// codegen, backends, cache, vf::IntegrandInfo) is the .vf path's.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_CXXINTEGRANDS_H
#define VF_COMPILER_CLANG_CXXINTEGRANDS_H

#include "clang/ClangFrontend.h"

#include "llvm/Support/raw_ostream.h"

namespace vf {

class DiagEngine;
struct Program;

/// The C/C++ files of \p P's extern fns, each once, in declaration order.
std::vector<ForeignSource> foreignSources(const Program &P);

/// loadProgramFile for a .vf file; for a C/C++ file, the checked program
/// of its VF_INTEGRAND entries, whose diagnostics go to \p Diags at the
/// entries' arguments in the file (Clang's, from the scan, to \p ClangOut).
/// True when there is no error.
bool loadIntegrandFile(Program &P, llvm::StringRef Path, DiagEngine &Diags,
                       llvm::raw_ostream &ClangOut);

/// Runs the portability checker over every C/C++ file of \p P, printing
/// its diagnostics to \p OS (without warnings unless \p Warnings); GPU
/// rules as errors when \p Gpu. With \p Single, a file the checker
/// passes is compiled for single precision too, so that its double
/// arithmetic is reported (SinglePrecision.h). True when no file has an
/// error.
bool checkForeignSources(const Program &P, bool Gpu, llvm::raw_ostream &OS,
                         bool Warnings = true, bool Single = false);

} // namespace vf

#endif // VF_COMPILER_CLANG_CXXINTEGRANDS_H
