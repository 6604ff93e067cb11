//===- frontend/Builtins.h - The table of built-in functions ----*- C++ -*-===//
//
// One table (VF_FOR_EACH_BUILTIN) gives each built-in its name, arity and
// the math library symbol codegen calls; Sema's arity checks, the reference
// evaluator and codegen all read it, so they cannot disagree.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_BUILTINS_H
#define VF_COMPILER_FRONTEND_BUILTINS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"

#include <optional>

namespace vf {

// X(Enum, name, min arity, max arity (-1: any), math library symbol or "")
#define VF_FOR_EACH_BUILTIN(X)                                                 \
  X(Abs, "abs", 1, 1, "vf_fabs")                                               \
  X(Sqrt, "sqrt", 1, 1, "vf_sqrt")                                             \
  X(Cbrt, "cbrt", 1, 1, "vf_cbrt")                                             \
  X(Exp, "exp", 1, 1, "vf_exp")                                                \
  X(Expm1, "expm1", 1, 1, "vf_expm1")                                          \
  X(Log, "log", 1, 1, "vf_log")                                                \
  X(Log1p, "log1p", 1, 1, "vf_log1p")                                          \
  X(Log10, "log10", 1, 1, "vf_log10")                                          \
  X(Pow, "pow", 2, 2, "vf_pow")                                                \
  X(Sin, "sin", 1, 1, "vf_sin")                                                \
  X(Cos, "cos", 1, 1, "vf_cos")                                                \
  X(Tan, "tan", 1, 1, "vf_tan")                                                \
  X(Asin, "asin", 1, 1, "vf_asin")                                             \
  X(Acos, "acos", 1, 1, "vf_acos")                                             \
  X(Atan, "atan", 1, 1, "vf_atan")                                             \
  X(Atan2, "atan2", 2, 2, "vf_atan2")                                          \
  X(Sinh, "sinh", 1, 1, "vf_sinh")                                             \
  X(Cosh, "cosh", 1, 1, "vf_cosh")                                             \
  X(Tanh, "tanh", 1, 1, "vf_tanh")                                             \
  X(Erf, "erf", 1, 1, "vf_erf")                                                \
  X(Erfc, "erfc", 1, 1, "vf_erfc")                                             \
  X(Floor, "floor", 1, 1, "vf_floor")                                          \
  X(Ceil, "ceil", 1, 1, "vf_ceil")                                             \
  X(Min, "min", 2, -1, "")                                                     \
  X(Max, "max", 2, -1, "")                                                     \
  X(Clamp, "clamp", 3, 3, "")                                                  \
  X(Complex, "complex", 2, 2, "")                                              \
  X(Re, "re", 1, 1, "")                                                        \
  X(Im, "im", 1, 1, "")                                                        \
  X(Conj, "conj", 1, 1, "")                                                    \
  X(Norm, "norm", 1, 1, "")                                                    \
  X(Arg, "arg", 1, 1, "")

enum class Builtin : int {
#define VF_BUILTIN_ENUM(E, Name, Min, Max, Sym) E,
  VF_FOR_EACH_BUILTIN(VF_BUILTIN_ENUM)
#undef VF_BUILTIN_ENUM
};

struct BuiltinInfo {
  Builtin Id;
  llvm::StringRef Name;
  int MinArgs;
  int MaxArgs; // -1: variadic
  llvm::StringRef MathSymbol;
};

const BuiltinInfo &builtinInfo(Builtin B);
std::optional<Builtin> lookupBuiltin(llvm::StringRef Name);
/// All built-in function names, for "did you mean" suggestions.
llvm::ArrayRef<llvm::StringRef> builtinNames();

/// The built-in constants `pi` and `e`.
std::optional<double> lookupBuiltinConstant(llvm::StringRef Name);

/// The built-ins that make or take only complex values (ComplexOps.h);
/// `abs`, `exp` and `sqrt` take either.
bool isComplexBuiltin(Builtin B);
/// Whether \p B of a complex argument is complex (conj, exp, sqrt) rather
/// than real (re, im, norm, abs, arg).
bool hasComplexResult(Builtin B);

/// Evaluates a built-in with the host's libm (the reference semantics used
/// by constant folding and the reference evaluator).
double evalBuiltin(Builtin B, llvm::ArrayRef<double> Args);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_BUILTINS_H
