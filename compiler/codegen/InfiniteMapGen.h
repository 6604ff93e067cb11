//===- codegen/InfiniteMapGen.h - An infinite axis's map in IR -*- C++ -*-===//
//
// The rational maps of an infinite or semi-infinite axis (frontend/
// DomainMap.h says which and why) emitted as IR: the point from the
// sampled t, the Jacobian factor, and whether t is at a numerical end.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_INFINITEMAPGEN_H
#define VF_COMPILER_CODEGEN_INFINITEMAPGEN_H

#include "frontend/DomainMap.h"

#include "llvm/IR/IRBuilder.h"

namespace vf {

/// x for t in (0, 1) on an axis of kind \p K with bound \p A and scale
/// \p S (NaN for a scale that is not positive, +-inf at the ends); \p Jac
/// is multiplied by dx/dt and \p AtEnd or-ed with "t is at an end".
llvm::Value *emitInfiniteMap(llvm::IRBuilderBase &B, InfiniteMap K,
                             llvm::Value *A, llvm::Value *S, llvm::Value *T,
                             llvm::Value *&Jac, llvm::Value *&AtEnd);

/// A value \p F at the mapped point times the maps' Jacobian \p Jac, step
/// for step as the evaluator's mappedWeight (DomainMap.h), \p AtEnd when
/// t is at an end: the integrand's values and its weight lists' entries.
llvm::Value *emitMappedWeight(llvm::IRBuilderBase &B, llvm::Value *F,
                              llvm::Value *Jac, llvm::Value *AtEnd);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_INFINITEMAPGEN_H
