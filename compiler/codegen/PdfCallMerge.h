//===- codegen/PdfCallMerge.h - One lookup for a point's flavours -*- C++
//-*-===//
//
// A hadronic integrand asks for many flavours at one (x, Q): each xfx is
// its own vf_pdf_table_xfx call, and each repeats the member's look-up,
// the knot searches and the logarithms. Within a basic block, calls on
// the same member, x and Q become one vf_pdf_table_xfx_all call, which
// finds the grid's cell once and fills every flavour's slot with the bits
// that flavour's own call gives (runtime/pdf/TableLayout.h); each call is
// then a load of its slot.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_PDFCALLMERGE_H
#define VF_COMPILER_CODEGEN_PDFCALLMERGE_H

namespace llvm {
class Module;
} // namespace llvm

namespace vf {

/// Merges, in every function of \p M, the vf_pdf_table_xfx calls of a
/// block whose member, x and Q are the same values (or loads of one
/// element of a read-only, unaliased argument), whose table is loaded
/// from the same global and whose PDG id is a constant: two or more such
/// calls become one vf_pdf_table_xfx_all call before the first of them,
/// into a buffer allocated in the function's entry block. Runs before
/// optimisation, while the calls are still calls.
void mergePdfCalls(llvm::Module &M);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_PDFCALLMERGE_H
