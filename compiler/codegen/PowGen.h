//===- codegen/PowGen.h - x^c for a constant c in IR ------------*- C++ -*-===//
//
// `^` with a constant exponent, strength-reduced where the result stays
// within vf_pow's 2-ulp bound (LANGUAGE.md: x^2 -> x*x, x^-1 -> 1/x,
// x^0.5 -> sqrt(x) with pow's special cases), the math library called
// otherwise.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_POWGEN_H
#define VF_COMPILER_CODEGEN_POWGEN_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/IR/IRBuilder.h"

namespace vf {

/// Emits a call of the math library's \p Name (ExprGen's, which hoists
/// calls on parameters alone where it may).
using MathCallEmitter = llvm::function_ref<llvm::Value *(
    llvm::StringRef Name, llvm::ArrayRef<llvm::Value *> Args)>;

/// \p Base ^ \p C.
llvm::Value *emitPowConst(llvm::IRBuilderBase &B, llvm::Value *Base, double C,
                          MathCallEmitter CallMath);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_POWGEN_H
