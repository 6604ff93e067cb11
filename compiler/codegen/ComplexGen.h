//===- codegen/ComplexGen.h - Complex values in IR --------------*- C++ -*-===//
//
// A complex value is a <2 x double> (re, im) in the IR ExprGen emits, so
// that lets, selects and phis carry it as one value; every operation works
// on the two parts as scalars, in the order of frontend/ComplexOps.h (the
// reference evaluator's), and O2 scalarises the pairs: no struct, no
// __muldc3/__divdc3, no libm complex call.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_COMPLEXGEN_H
#define VF_COMPILER_CODEGEN_COMPLEXGEN_H

#include "codegen/PowGen.h"
#include "frontend/AST.h"
#include "frontend/Builtins.h"

namespace vf {

/// \p L op \p R for `+ - * / == !=`, where either operand is complex (a
/// <2 x double>) and the other a double or complex.
llvm::Value *emitComplexBinary(llvm::IRBuilderBase &B, BinaryOp Op,
                               llvm::Value *L, llvm::Value *R);

/// The complex value (\p Re, \p Im).
llvm::Value *emitComplexPair(llvm::IRBuilderBase &B, llvm::Value *Re,
                             llvm::Value *Im);

/// \p Z ^ \p N, as complexPow (binary exponentiation).
llvm::Value *emitComplexPow(llvm::IRBuilderBase &B, llvm::Value *Z,
                            long long N);

/// complex(re, im), re, im, conj, norm, arg, or abs, exp, sqrt of a complex
/// value.
llvm::Value *emitComplexCall(llvm::IRBuilderBase &B, Builtin Fn,
                             llvm::ArrayRef<llvm::Value *> Args,
                             MathCallEmitter CallMath);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_COMPLEXGEN_H
