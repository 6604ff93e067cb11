//===- codegen/ExternCallGen.h - Calls of C and C++ functions ---*- C++ -*-===//
//
// An extern fn's call (compiler/clang, vf/integrand.h's ABI): a real by
// value, an array as a pointer to a copy on the stack, a pdf as a vf_pdf
// (a pointer to the block's address and the member's index), an array
// result through a last pointer. The backends link the definition in
// before optimising, so the copies become registers once it is inlined.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_EXTERNCALLGEN_H
#define VF_COMPILER_CODEGEN_EXTERNCALLGEN_H

#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"

namespace llvm {
class IRBuilderBase;
class Module;
class Type;
class Value;
} // namespace llvm

namespace vf {

struct CallExpr;
struct Expr;

using ExternValues = llvm::SmallVector<llvm::Value *, 4>;

/// \p E (its callee extern) with its arguments' values from \p Values,
/// converted to \p Real, the C code's vf_real (double, or float in single
/// precision); the result's values (one for a real), of type \p Real.
ExternValues
emitExternCall(llvm::IRBuilderBase &B, llvm::Module &M, const CallExpr &E,
               llvm::Type *Real,
               llvm::function_ref<ExternValues(const Expr &)> Values);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_EXTERNCALLGEN_H
