//===- vf/Derived.h - Functions of an integrand's results -------*- C++ -*-===//
//
// A `derived` item (LANGUAGE.md v3, "Derived results"), e.g. an asymmetry
// `afb = ee[1] / ee[0]`, is a function of one integrand's components. The
// compiler checks it and hands the runtime its expression as a tape of
// steps in postfix order; the runtime evaluates the tape on a result's
// means with forward-mode derivatives, and propagates the covariance
// linearly: var = g^T C g, g the gradient with respect to the components.
// So the error of a ratio of correlated components is right without the
// user writing the propagation by hand.
//
//===----------------------------------------------------------------------===//
#ifndef VF_DERIVED_H
#define VF_DERIVED_H

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace vf {

/// What one step of a tape does. Constants, components and parameters
/// push a value; the others pop their operands and push the result.
enum class DerivedOp : std::uint8_t {
  Constant,  ///< pushes Value
  Component, ///< pushes the result's component Index
  Param,     ///< pushes the parameter in slot Index
  Neg,
  Add,
  Sub,
  Mul,
  Div,
  Pow, ///< x^y (pow, ^)
  Atan2,
  Abs, ///< derivative sign(x), 0 at 0
  Sqrt,
  Cbrt,
  Exp,
  Expm1,
  Log,
  Log1p,
  Log10,
  Sin,
  Cos,
  Tan,
  Asin,
  Acos,
  Atan,
  Sinh,
  Cosh,
  Tanh,
  Erf,
  Erfc,
};

struct DerivedStep {
  DerivedOp Op = DerivedOp::Constant;
  double Value = 0;   ///< a Constant's value
  unsigned Index = 0; ///< a Component's or Param's index
};

/// One `derived` item: its name, its source text (for tables and
/// reports) and its tape.
struct DerivedSpec {
  std::string Name;
  std::string Text;
  std::vector<DerivedStep> Steps;
};

struct DerivedValue {
  std::string Name;
  double Mean = 0;
  double Error = 0;
  /// d(value)/d(component k), for each component of the result.
  std::vector<double> Gradient;
};

/// \p S at the components \p Mean with covariance \p Cov (Mean.size()
/// squared, row-major) and parameters \p Params. A value outside a
/// function's domain (a division by zero, the log of a negative mean)
/// gives NaN, as the same expression would in the integrand.
DerivedValue evaluateDerived(const DerivedSpec &S, std::span<const double> Mean,
                             std::span<const double> Cov,
                             std::span<const double> Params);

} // namespace vf

#endif // VF_DERIVED_H
