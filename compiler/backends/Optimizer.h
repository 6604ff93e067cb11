//===- backends/Optimizer.h - The optimisation pipeline ---------*- C++ -*-===//
//
// Runs the new pass manager's O2 pipeline with loop vectorization for a
// given target machine. Host and NVPTX share it.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_OPTIMIZER_H
#define VF_COMPILER_BACKENDS_OPTIMIZER_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <string>

namespace llvm {
class Module;
class TargetMachine;
} // namespace llvm

namespace vf {

/// Gives every function but \p Keep internal linkage, so what the entry
/// points do not use is dropped and the rest can be inlined.
void internalizeExcept(llvm::Module &M, llvm::ArrayRef<std::string> Keep);

/// O2 with loop vectorization, for \p TM's target; for the host without
/// the late partial unrolling and the repeated InstCombines after the
/// vectorizer, which cost compile time for nothing (Optimizer.cpp).
void optimizeModule(llvm::Module &M, llvm::TargetMachine &TM);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_OPTIMIZER_H
