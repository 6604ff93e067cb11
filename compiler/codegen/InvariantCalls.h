//===- codegen/InvariantCalls.h - Math calls that no sample changes -*- C++ -*-===//
//
// A math call whose arguments come from run-time parameters only, such as
// the one-exp lepage form's (a * sqrt(pi))^8, has the same value for every
// sample. Inlined, its body sits in the sampler's loop over samples, and
// LICM cannot hoist it: the optimizer turns some of its selects into
// branches (pow's NaN case), and table loads under a branch do not move.
// So such a call goes to a wrapper that stays a call - no inlining, no
// memory access, speculatable - which LICM hoists out of the loop whole.
// The wrapper computes the math function itself, so the value is the same
// bits.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_INVARIANTCALLS_H
#define VF_COMPILER_CODEGEN_INVARIANTCALLS_H

#include "llvm/ADT/StringRef.h"

namespace llvm {
class Function;
class FunctionType;
class Module;
class Value;
} // namespace llvm

namespace vf {

/// Whether \p V is the same for every sample: built from constants and
/// loads through \p Params only (never \p X, a loop's phi or other
/// memory), with at least one load, so that a call on it is not one that
/// constant folding removes anyway.
bool dependsOnParamsOnly(llvm::Value *V, llvm::Value *X, llvm::Value *Params);

/// The wrapper of math function \p Name (type \p Ty) for sample-invariant
/// arguments, made once per module: `Name.invariant`.
llvm::Function *invariantMathWrapper(llvm::Module &M, llvm::StringRef Name,
                                     llvm::FunctionType *Ty);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_INVARIANTCALLS_H
