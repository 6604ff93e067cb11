//===- compiler/bitcode/PdfLibrary.h - PDFs in kernels ----------*- C++ -*-===//
//
// Links the parton-density evaluation into an integrand module: the same C
// sources the host's runtime/pdf runs (LogCubic.c, Continuation.c,
// AlphaSCoupling.c, TableLookup.c), compiled to bitcode for x86-64 and
// nvptx64 by runtime/pdf's vf_add_bitcode(pdf ...). A module that calls
// vf_pdf_xfxq2, vf_pdf_alphasq2 or their lookups in a run's block
// (vf_pdf_table_xfx, vf_pdf_table_alphas) gets exactly those functions,
// internalized; they call the math library (vf_log, vf_exp, vf_pow), so
// linkMathLibrary must run after this.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_PDFLIBRARY_H
#define VF_COMPILER_BITCODE_PDFLIBRARY_H

namespace llvm {
class Error;
class Module;
} // namespace llvm

namespace vf {

enum class BitcodeTarget;

/// Links the parton-density functions M references into M, marked
/// alwaysinline so that a sampling loop calling them still vectorizes.
llvm::Error linkPdfLibrary(llvm::Module &M, BitcodeTarget T);

} // namespace vf

#endif // VF_COMPILER_BITCODE_PDFLIBRARY_H
