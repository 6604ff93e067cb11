//===- codegen/WeightsGen.h - Weight list entries in IR ---------*- C++ -*-===//
//
// The entries of an integrand's `weights` lists (LANGUAGE.md v3, "Weight
// lists"), as the reference evaluator computes them
// (Evaluator::appendWeights): list after list, k rising. Each list is a
// loop over k, never unrolled into values: an integrand may have up to
// 1024 entries, more than any per-sample buffer of the kernels holds, so
// each entry goes to a sink the caller chooses (a store for vf_weights_NAME,
// sums in place for the sampler) as soon as it is computed.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_WEIGHTSGEN_H
#define VF_COMPILER_CODEGEN_WEIGHTSGEN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/IR/IRBuilder.h"

namespace vf {

struct IntegrandDecl;
struct ReduceExpr;

/// Where an entry goes: \p Slot is its place among the integrand's entries
/// (its list's base plus k - lo, an i64), \p Entry its value.
using WeightSink =
    llvm::function_ref<void(llvm::Value *Slot, llvm::Value *Entry)>;

/// The entry of a list (its index and body) at index k (an i64): the
/// caller binds the index and lowers the body.
using WeightEntryGen =
    llvm::function_ref<llvm::Value *(const ReduceExpr &, llvm::Value *)>;

/// Emits the loops over \p I's lists at the builder's insertion point (the
/// builder ends in the block after them). On an infinite domain, \p Jac
/// and \p AtEnd are the maps' (InfiniteMapGen.h) and each entry is mapped
/// as the integrand's values are; null \p Jac: a finite domain.
void emitWeightLists(llvm::IRBuilderBase &B, const IntegrandDecl &I,
                     WeightEntryGen Entry, WeightSink Sink,
                     llvm::Value *Jac = nullptr, llvm::Value *AtEnd = nullptr);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_WEIGHTSGEN_H
