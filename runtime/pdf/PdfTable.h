//===- runtime/pdf/PdfTable.h - A run's members as one block ----*- C++ -*-===//
//
// Builds TableLayout.h's block from members loaded by PdfSet: the bytes a
// device copies once per run, whose kernels look members up by their
// index in the list given here. Copying the members' arrays is the only
// work; nothing can fail.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_PDFTABLE_H
#define VF_RUNTIME_PDF_PDFTABLE_H

#include "pdf/PdfSet.h"
#include "pdf/TableLayout.h"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace vf::pdf {

class PdfTable {
public:
  /// The block of \p Members, member K of the block being Members[K].
  static PdfTable build(const std::vector<const PdfMember *> &Members);

  /// The block's bytes, 8-byte aligned, to copy to a device as they are.
  const void *data() const { return Words.data(); }
  std::size_t bytes() const { return Words.size() * sizeof(std::uint64_t); }

  /// What member \p M adds to a block: its entry and its arrays.
  static std::size_t memberBytes(const PdfMember &M);

private:
  std::vector<std::uint64_t> Words;
};

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_PDFTABLE_H
