//===- codegen/HistCellGen.h - A sample's histogram cell in IR --*- C++ -*-===//
//
// The cell of a `hist` statement the sample falls in (the layout of
// kernels/HistogramCells.h), as the reference evaluator computes it
// (Evaluator::histCell), operation for operation: bin
// floor((v - lo) / (hi - lo) * n), at most n - 1, for v in [lo, hi), moved
// by one where rounding put a value on the wrong side of an edge
// vf_hist_edge_at(lo, hi, i, n, p) (kernels/HistogramCells.h; the edges
// vf::HistogramAxis reports).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_HISTCELLGEN_H
#define VF_COMPILER_CODEGEN_HISTCELLGEN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace vf {

struct Body;
struct Expr;
struct HistStmt;

/// The cell of \p H as an i64 (its base added); \p Visit lowers each of
/// its value and range expressions, in the order value, lo, hi per axis.
llvm::Value *
emitHistCell(llvm::IRBuilderBase &B, const HistStmt &H,
             llvm::function_ref<llvm::Value *(const Expr &)> Visit);

/// The `hist` statement of \p Bd (a channel's body) that fills \p H's cells:
/// the one of the same name (Sema checked every channel has it).
const HistStmt &histFilling(const Body &Bd, const HistStmt &H);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_HISTCELLGEN_H
