//===- backends/PdfTableBinding.h - A module's parton densities -*- C++ -*-===//
//
// Points a loaded host module's PdfTableSymbol (codegen/PdfGen.h) at the
// block of the program's members, which the CompiledModule owns, and
// gives the block to the GPUs, which copy it where they load their module.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_PDFTABLEBINDING_H
#define VF_COMPILER_BACKENDS_PDFTABLEBINDING_H

#include "llvm/Support/Error.h"

#include <memory>

namespace llvm::orc {
class JITDylib;
class LLJIT;
} // namespace llvm::orc

namespace vf {

struct IntegrandCode;
namespace pdf {
class PdfTable;
} // namespace pdf

llvm::Error bindPdfTable(llvm::orc::LLJIT &JIT, llvm::orc::JITDylib &JD,
                         const pdf::PdfTable &Table);

/// \p Code's PdfTable, PdfTableBytes and PdfTableSymbol, sharing \p Table.
void bindPdfTable(IntegrandCode &Code,
                  const std::shared_ptr<const pdf::PdfTable> &Table);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_PDFTABLEBINDING_H
