//===- tests/unit/math/MathReferenceF.h - MPFR harness, floats --*- C++ -*-===//
//
// The single-precision counterpart of MathReference.h: the vf_*f functions
// with their MPFR counterparts, bounds (in float ulps) and input domains,
// measured against MPFR rounded to binary32 (subnormals included). Shared
// by the GoogleTest suite (small samples) and bench/math/math_accuracy's
// float mode (the full sweep).
//
//===----------------------------------------------------------------------===//

#ifndef VF_TESTS_UNIT_MATH_MATHREFERENCEF_H
#define VF_TESTS_UNIT_MATH_MATHREFERENCEF_H

#include "MathReference.h"

#include <cstdint>
#include <ostream>
#include <utility>
#include <vector>

namespace vf::mathtest {

struct FunctionSpecF {
  const char *Name; ///< the f64 name ("exp"); the function is vf_<Name>f
  int Arity;
  float (*F1)(float);
  float (*F2)(float, float);
  double MaxUlp; ///< bound the tests assert
  std::vector<Domain> Domains;
  /// Special values and known hard cases, evaluated besides the samples.
  std::vector<std::pair<float, float>> Extra;
};

void PrintTo(const FunctionSpecF &F, std::ostream *OS);

/// Every vf_*f function with its domains and bound.
const std::vector<FunctionSpecF> &allFunctionsF();

/// As ulpError, in float ulps of the exact value (2^-149 in the subnormal
/// range); *Exact when the exact result is a float.
double ulpErrorF(const FunctionSpecF &F, float X, float Y, float Got,
                 bool *Exact = nullptr);

/// Evaluates F at PerDomain points of each domain (seeded) plus its extra
/// inputs. The result's inputs are floats widened to double.
Measurement measureF(const FunctionSpecF &F, uint64_t PerDomain, uint64_t Seed);

} // namespace vf::mathtest

#endif // VF_TESTS_UNIT_MATH_MATHREFERENCEF_H
