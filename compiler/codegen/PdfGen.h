//===- codegen/PdfGen.h - xfx and alphas in generated code ------*- C++ -*-===//
//
// A parton density is looked up by index in the block of the program's
// members (Program::PdfTable), which no module holds: its address is
// the module's global PdfTableSymbol, set once where the module is loaded
// (the host JIT, each GPU), so that the cached code serves any run and
// the block is never a kernel argument.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_PDFGEN_H
#define VF_COMPILER_CODEGEN_PDFGEN_H

#include "llvm/ADT/ArrayRef.h"

namespace llvm {
class GlobalVariable;
class IRBuilderBase;
class Module;
class Value;
} // namespace llvm

namespace vf {

struct CallExpr;

/// The global holding the block's address (a pointer, null until set).
inline constexpr const char *PdfTableSymbol = "vf_pdf_table";

/// \p M's PdfTableSymbol, made if \p M has none: every module of a program
/// with pdf items has it, whether or not its code calls xfx or alphas, so
/// that the loaders always find it.
llvm::GlobalVariable *pdfTableGlobal(llvm::Module &M);

/// `xfx` or `alphas` (\p E.Pdf set) of the run-time arguments \p Args:
/// a call of runtime/pdf's vf_pdf_table_xfx or vf_pdf_table_alphas
/// (compiler/bitcode/PdfLibrary.h links them). \p MemberOffset, an i64
/// for a call with a MemberArg, is its value less E.Member. The tables
/// and their interpolation are double in either precision: float
/// arguments are widened and the result rounded to float once.
llvm::Value *emitPdfCall(llvm::IRBuilderBase &B, llvm::Module &M,
                         const CallExpr &E, llvm::ArrayRef<llvm::Value *> Args,
                         llvm::Value *MemberOffset);

/// emitPdfCall for a call whose member \p Member (a real: a fn's argument)
/// is known only at run time: NaN unless it is one of the set's members
/// (0 .. E.MemberCount - 1), which lie side by side from E.TableIndex.
llvm::Value *emitCheckedPdfCall(llvm::IRBuilderBase &B, llvm::Module &M,
                                const CallExpr &E,
                                llvm::ArrayRef<llvm::Value *> Args,
                                llvm::Value *Member);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_PDFGEN_H
