//===- backends/PdfTableBinding.cpp - A module's parton densities ---------===//

#include "backends/PdfTableBinding.h"
#include "IntegrandCode.h"
#include "codegen/PdfGen.h"
#include "pdf/PdfTable.h"

#include "llvm/ExecutionEngine/Orc/LLJIT.h"

namespace vf {

llvm::Error bindPdfTable(llvm::orc::LLJIT &JIT, llvm::orc::JITDylib &JD,
                         const pdf::PdfTable &Table) {
  auto Global = JIT.lookup(JD, PdfTableSymbol);
  if (!Global)
    return Global.takeError();
  *Global->toPtr<const void **>() = Table.data();
  return llvm::Error::success();
}

void bindPdfTable(IntegrandCode &Code,
                  const std::shared_ptr<const pdf::PdfTable> &Table) {
  Code.PdfTable = std::shared_ptr<const void>(Table, Table->data());
  Code.PdfTableBytes = Table->bytes();
  Code.PdfTableSymbol = PdfTableSymbol;
}

} // namespace vf
