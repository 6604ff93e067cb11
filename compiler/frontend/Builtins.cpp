//===- frontend/Builtins.cpp - The table of built-in functions ------------===//
//
// Constant folding and the reference evaluator use the host's correctly
// rounded-or-nearly libm; the generated code uses the project's math library.
// The differential tests compare the two.
//
//===----------------------------------------------------------------------===//

#include "frontend/Builtins.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace vf {

static const BuiltinInfo Table[] = {
#define VF_BUILTIN_INFO(E, Name, Min, Max, Sym) {Builtin::E, Name, Min, Max, Sym},
    VF_FOR_EACH_BUILTIN(VF_BUILTIN_INFO)
#undef VF_BUILTIN_INFO
};

static const StringRef Names[] = {
#define VF_BUILTIN_NAME(E, Name, Min, Max, Sym) Name,
    VF_FOR_EACH_BUILTIN(VF_BUILTIN_NAME)
#undef VF_BUILTIN_NAME
};

const BuiltinInfo &builtinInfo(Builtin B) {
  return Table[static_cast<int>(B)];
}

std::optional<Builtin> lookupBuiltin(StringRef Name) {
  for (const BuiltinInfo &I : Table)
    if (I.Name == Name)
      return I.Id;
  return std::nullopt;
}

ArrayRef<StringRef> builtinNames() { return Names; }

std::optional<double> lookupBuiltinConstant(StringRef Name) {
  if (Name == "pi")
    return 3.141592653589793238462643383279502884;
  if (Name == "e")
    return 2.718281828459045235360287471352662498;
  return std::nullopt;
}

bool isComplexBuiltin(Builtin B) {
  return B == Builtin::Complex || B == Builtin::Re || B == Builtin::Im ||
         B == Builtin::Conj || B == Builtin::Norm || B == Builtin::Arg;
}

bool hasComplexResult(Builtin B) {
  return B == Builtin::Complex || B == Builtin::Conj || B == Builtin::Exp ||
         B == Builtin::Sqrt;
}

double evalBuiltin(Builtin B, ArrayRef<double> A) {
  switch (B) {
  case Builtin::Abs: return std::fabs(A[0]);
  case Builtin::Sqrt: return std::sqrt(A[0]);
  case Builtin::Cbrt: return std::cbrt(A[0]);
  case Builtin::Exp: return std::exp(A[0]);
  case Builtin::Expm1: return std::expm1(A[0]);
  case Builtin::Log: return std::log(A[0]);
  case Builtin::Log1p: return std::log1p(A[0]);
  case Builtin::Log10: return std::log10(A[0]);
  case Builtin::Pow: return std::pow(A[0], A[1]);
  case Builtin::Sin: return std::sin(A[0]);
  case Builtin::Cos: return std::cos(A[0]);
  case Builtin::Tan: return std::tan(A[0]);
  case Builtin::Asin: return std::asin(A[0]);
  case Builtin::Acos: return std::acos(A[0]);
  case Builtin::Atan: return std::atan(A[0]);
  case Builtin::Atan2: return std::atan2(A[0], A[1]);
  case Builtin::Sinh: return std::sinh(A[0]);
  case Builtin::Cosh: return std::cosh(A[0]);
  case Builtin::Tanh: return std::tanh(A[0]);
  case Builtin::Erf: return std::erf(A[0]);
  case Builtin::Erfc: return std::erfc(A[0]);
  case Builtin::Floor: return std::floor(A[0]);
  case Builtin::Ceil: return std::ceil(A[0]);
  case Builtin::Min:
  case Builtin::Max: {
    // NaN propagates (unlike fmin/fmax): a NaN integrand value must be seen.
    double R = A[0];
    for (double V : A.drop_front()) {
      if (std::isnan(V) || std::isnan(R))
        R = NAN;
      else
        R = B == Builtin::Min ? std::min(R, V) : std::max(R, V);
    }
    return R;
  }
  case Builtin::Clamp: {
    if (std::isnan(A[0]) || std::isnan(A[1]) || std::isnan(A[2]))
      return NAN;
    return std::min(std::max(A[0], A[1]), A[2]);
  }
  case Builtin::Complex: // complex operands: the evaluator's complexValue
  case Builtin::Re:
  case Builtin::Im:
  case Builtin::Conj:
  case Builtin::Norm:
  case Builtin::Arg:
    break;
  }
  return NAN;
}

} // namespace vf
