//===- runtime/integrator/Derived.cpp - Derived results -------------------===//
//
// Forward-mode differentiation of a derived item's tape (vf/Derived.h):
// each value on the stack carries its gradient with respect to the
// result's components, so one pass gives the value and the gradient
// exactly (no finite differences), and the error follows from the
// covariance by linear propagation.
//
//===----------------------------------------------------------------------===//

#include "vf/Derived.h"

#include <cmath>
#include <limits>
#include <numbers>

namespace vf {

namespace {

/// A value and its gradient.
struct Dual {
  double V = 0;
  std::vector<double> D;
};

/// f(x) with f'(x) = \p Slope: the chain rule.
Dual chain(Dual X, double F, double Slope) {
  for (double &G : X.D)
    G *= Slope;
  X.V = F;
  return X;
}

Dual unary(DerivedOp Op, Dual X) {
  const double V = X.V;
  switch (Op) {
  case DerivedOp::Neg:
    return chain(std::move(X), -V, -1);
  case DerivedOp::Abs:
    return chain(std::move(X), std::fabs(V), V > 0 ? 1 : V < 0 ? -1 : 0);
  case DerivedOp::Sqrt:
    return chain(std::move(X), std::sqrt(V), 0.5 / std::sqrt(V));
  case DerivedOp::Cbrt:
    return chain(std::move(X), std::cbrt(V),
                 1 / (3 * std::cbrt(V) * std::cbrt(V)));
  case DerivedOp::Exp:
    return chain(std::move(X), std::exp(V), std::exp(V));
  case DerivedOp::Expm1:
    return chain(std::move(X), std::expm1(V), std::exp(V));
  case DerivedOp::Log:
    return chain(std::move(X), std::log(V), 1 / V);
  case DerivedOp::Log1p:
    return chain(std::move(X), std::log1p(V), 1 / (1 + V));
  case DerivedOp::Log10:
    return chain(std::move(X), std::log10(V), 1 / (V * std::numbers::ln10));
  case DerivedOp::Sin:
    return chain(std::move(X), std::sin(V), std::cos(V));
  case DerivedOp::Cos:
    return chain(std::move(X), std::cos(V), -std::sin(V));
  case DerivedOp::Tan:
    return chain(std::move(X), std::tan(V), 1 / (std::cos(V) * std::cos(V)));
  case DerivedOp::Asin:
    return chain(std::move(X), std::asin(V), 1 / std::sqrt(1 - V * V));
  case DerivedOp::Acos:
    return chain(std::move(X), std::acos(V), -1 / std::sqrt(1 - V * V));
  case DerivedOp::Atan:
    return chain(std::move(X), std::atan(V), 1 / (1 + V * V));
  case DerivedOp::Sinh:
    return chain(std::move(X), std::sinh(V), std::cosh(V));
  case DerivedOp::Cosh:
    return chain(std::move(X), std::cosh(V), std::sinh(V));
  case DerivedOp::Tanh:
    return chain(std::move(X), std::tanh(V), 1 / (std::cosh(V) * std::cosh(V)));
  case DerivedOp::Erf:
    return chain(std::move(X), std::erf(V),
                 2 / std::sqrt(std::numbers::pi) * std::exp(-V * V));
  case DerivedOp::Erfc:
    return chain(std::move(X), std::erfc(V),
                 -2 / std::sqrt(std::numbers::pi) * std::exp(-V * V));
  default:
    break;
  }
  return chain(std::move(X), std::numeric_limits<double>::quiet_NaN(), 0);
}

/// a op b, with d(a op b) = Da da + Db db.
Dual binary(DerivedOp Op, const Dual &A, const Dual &B) {
  double V, Da, Db;
  switch (Op) {
  case DerivedOp::Add:
    V = A.V + B.V, Da = 1, Db = 1;
    break;
  case DerivedOp::Sub:
    V = A.V - B.V, Da = 1, Db = -1;
    break;
  case DerivedOp::Mul:
    V = A.V * B.V, Da = B.V, Db = A.V;
    break;
  case DerivedOp::Div:
    V = A.V / B.V, Da = 1 / B.V, Db = -A.V / (B.V * B.V);
    break;
  case DerivedOp::Pow:
    // d(a^b) = b a^(b-1) da + a^b log(a) db; the second term only where b
    // varies, so that a constant exponent of a negative base stays finite.
    V = std::pow(A.V, B.V), Da = B.V * std::pow(A.V, B.V - 1);
    Db = V * std::log(A.V);
    break;
  case DerivedOp::Atan2: {
    double R2 = A.V * A.V + B.V * B.V;
    V = std::atan2(A.V, B.V), Da = B.V / R2, Db = -A.V / R2;
    break;
  }
  default:
    V = Da = Db = std::numeric_limits<double>::quiet_NaN();
  }
  Dual R{V, std::vector<double>(A.D.size(), 0.0)};
  auto Varies = [](const Dual &X) {
    for (double G : X.D)
      if (G != 0)
        return true;
    return false;
  };
  const bool AVaries = Varies(A), BVaries = Varies(B);
  for (std::size_t K = 0; K < R.D.size(); ++K)
    R.D[K] = (AVaries ? Da * A.D[K] : 0) + (BVaries ? Db * B.D[K] : 0);
  return R;
}

bool isBinary(DerivedOp Op) {
  switch (Op) {
  case DerivedOp::Add:
  case DerivedOp::Sub:
  case DerivedOp::Mul:
  case DerivedOp::Div:
  case DerivedOp::Pow:
  case DerivedOp::Atan2:
    return true;
  default:
    return false;
  }
}

} // namespace

DerivedValue evaluateDerived(const DerivedSpec &S, std::span<const double> Mean,
                             std::span<const double> Cov,
                             std::span<const double> Params) {
  const std::size_t N = Mean.size();
  const double NaN = std::numeric_limits<double>::quiet_NaN();
  DerivedValue Out{S.Name, NaN, NaN, std::vector<double>(N, NaN)};
  std::vector<Dual> Stack;
  for (const DerivedStep &Step : S.Steps) {
    Dual X{0, std::vector<double>(N, 0.0)};
    if (Step.Op == DerivedOp::Constant) {
      X.V = Step.Value;
    } else if (Step.Op == DerivedOp::Component) {
      if (Step.Index >= N)
        return Out;
      X.V = Mean[Step.Index];
      X.D[Step.Index] = 1;
    } else if (Step.Op == DerivedOp::Param) {
      if (Step.Index >= Params.size())
        return Out;
      X.V = Params[Step.Index];
    } else if (isBinary(Step.Op)) {
      if (Stack.size() < 2)
        return Out;
      Dual B = std::move(Stack.back());
      Stack.pop_back();
      X = binary(Step.Op, Stack.back(), B);
      Stack.pop_back();
    } else {
      if (Stack.empty())
        return Out;
      X = unary(Step.Op, std::move(Stack.back()));
      Stack.pop_back();
    }
    Stack.push_back(std::move(X));
  }
  if (Stack.size() != 1 || Cov.size() != N * N)
    return Out;
  Out.Mean = Stack[0].V;
  Out.Gradient = Stack[0].D;
  double Var = 0;
  for (std::size_t I = 0; I < N; ++I)
    for (std::size_t J = 0; J < N; ++J)
      if (Out.Gradient[I] != 0 && Out.Gradient[J] != 0)
        Var += Out.Gradient[I] * Cov[I * N + J] * Out.Gradient[J];
  Out.Error = std::sqrt(std::max(Var, 0.0));
  return Out;
}

} // namespace vf
