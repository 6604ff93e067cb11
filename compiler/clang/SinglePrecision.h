//===- clang/SinglePrecision.h - No double arithmetic in f32 code -*- C++
//-*-===//
//
// In single precision (--precision f32) a C/C++ file is compiled with
// vf_real as float (vf/integrand.h), but a double literal (x[0] * 0.5), a
// double variable or a double function still makes the arithmetic around
// it double: correct, and on a GPU whose double rate is 1/64 of its float
// rate as slow as what f32 was asked to avoid, without a word. So such
// arithmetic left in the optimised code is an error naming the function
// and the line.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_SINGLEPRECISION_H
#define VF_COMPILER_CLANG_SINGLEPRECISION_H

#include "llvm/Support/Error.h"

namespace llvm {
class Module;
} // namespace llvm

namespace vf {

/// Checks \p M, Clang's module of a file compiled in single precision with
/// line tables: a copy is optimised function by function (SROA, CSE,
/// simplification, dead code; no inlining, so a function is blamed for
/// its own code), then every defined function that still has double
/// arithmetic (fadd, fsub, fmul, fdiv, frem, fneg or fcmp on doubles or
/// vectors of them) or calls a function without a body here (the math
/// library, an intrinsic) on doubles is an error at the first such line,
/// `FILE:LINE:COL: error: double-precision arithmetic ...`, one per
/// function, the main file's first, in source order, at most 20 and then
/// a count. Conversions are not arithmetic: the parton densities'
/// library (vf_pdf_table_xfx, vf_pdf_table_alphas) takes and returns
/// doubles in either precision. \p M itself is left as it was.
llvm::Error checkSinglePrecision(const llvm::Module &M);

/// Drops the line tables the check read (and their module flag): the
/// integrand module keeps no debug information.
void dropLineTables(llvm::Module &M);

} // namespace vf

#endif // VF_COMPILER_CLANG_SINGLEPRECISION_H
