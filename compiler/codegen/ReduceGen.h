//===- codegen/ReduceGen.h - Reductions and min/max in IR -------*- C++ -*-===//
//
// The operators of `sum`, `prod`, `min` and `max` over an index, and the
// loop that reduces one whose iterations are too many to unroll
// (ExprGen.h's UnrollLimit). The operations are the reference evaluator's,
// in its order, so the two agree bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_REDUCEGEN_H
#define VF_COMPILER_CODEGEN_REDUCEGEN_H

#include "frontend/AST.h"

#include "llvm/ADT/STLFunctionalExtras.h"

namespace llvm {
class IRBuilderBase;
class Value;
} // namespace llvm

namespace vf {

/// NaN-propagating min (\p IsMin) or max: a NaN operand gives NaN, as in
/// the evaluator.
llvm::Value *emitMinMax(llvm::IRBuilderBase &B, bool IsMin, llvm::Value *L,
                        llvm::Value *R);

/// Whether \p Op starts from its first term rather than from a constant.
inline bool isMinMax(ReduceOp Op) {
  return Op == ReduceOp::Min || Op == ReduceOp::Max;
}

/// \p Acc OP \p V (a complex product on pairs).
llvm::Value *emitReduceStep(llvm::IRBuilderBase &B, ReduceOp Op,
                            llvm::Value *Acc, llvm::Value *V);

/// for (i = Lo; i < Hi; ++i) acc = acc OP Body(i), from \p Init, as a
/// loop; the value after it, at the builder's new insertion point.
llvm::Value *
emitReduceLoop(llvm::IRBuilderBase &B, ReduceOp Op, long long Lo, long long Hi,
               llvm::Value *Init,
               llvm::function_ref<llvm::Value *(llvm::Value *Index)> Body);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_REDUCEGEN_H
