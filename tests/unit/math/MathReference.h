//===- tests/unit/math/MathReference.h - MPFR accuracy harness --*- C++ -*-===//
//
// Measures the vf_* math functions against MPFR (correctly rounded, computed
// at 160 bits): the table of functions with their MPFR counterparts, error
// bounds and input domains, a sampler (uniform in value and uniform in
// exponent over each domain), and the ulp-error metric. Shared by the
// GoogleTest accuracy suite (small samples) and bench/math/math_accuracy
// (the full sweep).
//
//===----------------------------------------------------------------------===//

#ifndef VF_TESTS_UNIT_MATH_MATHREFERENCE_H
#define VF_TESTS_UNIT_MATH_MATHREFERENCE_H

#include <cstdint>
#include <mpfr.h>
#include <ostream>
#include <random>
#include <string>
#include <utility>
#include <vector>

namespace vf::mathtest {

/// How inputs are drawn from one interval [Lo, Hi] (or, for two-argument
/// functions, a box).
enum class Sampling {
  Uniform,     ///< uniform in value
  Exponent,    ///< |x| log-uniform between Lo and Hi (Lo > 0), random sign
  PosExponent, ///< as Exponent, positive only
  PowLog,      ///< pow: x as PosExponent, y = t / log(x), t uniform in y range
  PowNegInt,   ///< pow: x uniform (negative), y an integer uniform in y range
  Exponent2,   ///< atan2: y and x both as Exponent over [Lo, Hi]
};

struct Domain {
  Sampling Kind;
  double Lo, Hi;           ///< range of x
  double YLo = 0, YHi = 0; ///< range of y (two-argument functions)
};

struct FunctionSpec {
  const char *Name;
  int Arity;
  double (*F1)(double);
  double (*F2)(double, double);
  double MaxUlp; ///< bound the tests assert
  std::vector<Domain> Domains;
  /// Inputs evaluated besides the sampled ones: special values (zeros,
  /// infinities, NaN, extremes) and known hard cases.
  std::vector<std::pair<double, double>> Extra;
};

/// GoogleTest prints parameters with this (instead of their bytes).
void PrintTo(const FunctionSpec &F, std::ostream *OS);

/// Every vf_* function with its domains and bound.
const std::vector<FunctionSpec> &allFunctions();

/// The error of Got = F(X, Y) in ulps of the exact value: 0 when Got is the
/// correctly rounded result, inf when it is NaN, inf or a zero of the wrong
/// sign and the reference is not. *Exact is set when the exact result is a
/// double (exp(0) = 1, log(1) = 0, sin(-0) = -0, pow(2, 3) = 8, every
/// special value...): there the standard wants it bit for bit.
double ulpError(const FunctionSpec &F, double X, double Y, double Got,
                bool *Exact = nullptr);

struct Measurement {
  double MaxUlp = 0;
  double WorstX = 0, WorstY = 0;
  uint64_t Count = 0;
  /// Inputs whose exact result is a double but Got differs from it.
  uint64_t ExactMisses = 0;
  double MissX = 0, MissY = 0;
};

/// Evaluates F at PerDomain points of each domain (seeded, so runs repeat)
/// plus its extra inputs.
Measurement measure(const FunctionSpec &F, uint64_t PerDomain, uint64_t Seed);

/// One input pair drawn from domain D.
std::pair<double, double> drawInput(std::mt19937_64 &G, const Domain &D);

/// The exact function Name ("exp", "atan2", ...) at X (and Y) into R, at R's
/// precision; returns MPFR's ternary value.
int evalReference(const char *Name, int Arity, mpfr_ptr R, mpfr_srcptr X,
                  mpfr_srcptr Y);

} // namespace vf::mathtest

#endif // VF_TESTS_UNIT_MATH_MATHREFERENCE_H
