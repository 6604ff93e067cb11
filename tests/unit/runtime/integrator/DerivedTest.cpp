//===- tests/unit/runtime/integrator/DerivedTest.cpp - Derived results ----===//
//
// evaluateDerived (vf/Derived.h) against central finite differences for
// every operation, the propagated error against var = g^T C g written out,
// and the tapes it refuses (NaN, never a crash).
//
//===----------------------------------------------------------------------===//

#include "vf/Derived.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vf;

namespace {

DerivedStep comp(unsigned K) { return {DerivedOp::Component, 0, K}; }
DerivedStep konst(double V) { return {DerivedOp::Constant, V, 0}; }
DerivedStep op(DerivedOp O) { return {O, 0, 0}; }

/// The tape's value at \p X (a two-component mean, no covariance needed).
double valueAt(const DerivedSpec &S, std::vector<double> X) {
  std::vector<double> Cov(X.size() * X.size(), 0.0);
  return evaluateDerived(S, X, Cov, {}).Mean;
}

/// The gradient against central differences at (a, b).
void expectGradient(const DerivedSpec &S, double A, double B) {
  std::vector<double> X{A, B}, Cov(4, 0.0);
  DerivedValue V = evaluateDerived(S, X, Cov, {});
  for (unsigned K = 0; K < 2; ++K) {
    const double H = 1e-6 * std::max(1.0, std::fabs(X[K]));
    std::vector<double> Up = X, Down = X;
    Up[K] += H;
    Down[K] -= H;
    const double Numeric = (valueAt(S, Up) - valueAt(S, Down)) / (2 * H);
    EXPECT_NEAR(V.Gradient[K], Numeric,
                1e-6 * std::max(1.0, std::fabs(Numeric)))
        << "component " << K << " of tape " << S.Name;
  }
}

} // namespace

/// Each unary operation f(a / b) (so both components vary) and each
/// binary one, against finite differences at a point inside every domain.
TEST(DerivedTest, GradientsMatchFiniteDifferences) {
  const DerivedOp Unary[] = {
      DerivedOp::Neg,   DerivedOp::Abs,   DerivedOp::Sqrt, DerivedOp::Cbrt,
      DerivedOp::Exp,   DerivedOp::Expm1, DerivedOp::Log,  DerivedOp::Log1p,
      DerivedOp::Log10, DerivedOp::Sin,   DerivedOp::Cos,  DerivedOp::Tan,
      DerivedOp::Asin,  DerivedOp::Acos,  DerivedOp::Atan, DerivedOp::Sinh,
      DerivedOp::Cosh,  DerivedOp::Tanh,  DerivedOp::Erf,  DerivedOp::Erfc};
  for (DerivedOp U : Unary) {
    DerivedSpec S{"unary" + std::to_string(int(U)),
                  "",
                  {comp(0), comp(1), op(DerivedOp::Div), op(U)}};
    expectGradient(S, 0.3, 0.7);
  }
  const DerivedOp Binary[] = {DerivedOp::Add, DerivedOp::Sub, DerivedOp::Mul,
                              DerivedOp::Div, DerivedOp::Pow, DerivedOp::Atan2};
  for (DerivedOp B : Binary) {
    DerivedSpec S{
        "binary" + std::to_string(int(B)), "", {comp(0), comp(1), op(B)}};
    expectGradient(S, 1.3, 0.7);
  }
}

/// The error is sqrt(g^T C g) with the off-diagonal terms: for a ratio
/// of positively correlated components it is smaller than without them.
TEST(DerivedTest, ErrorPropagatesTheCovariance) {
  DerivedSpec Ratio{"r", "f[1] / f[0]", {comp(1), comp(0), op(DerivedOp::Div)}};
  const double A = 2, B = 1, Va = 0.04, Vb = 0.01, Cab = 0.015;
  DerivedValue V = evaluateDerived(Ratio, std::vector<double>{A, B},
                                   std::vector<double>{Va, Cab, Cab, Vb}, {});
  const double Ga = -B / (A * A), Gb = 1 / A;
  EXPECT_DOUBLE_EQ(V.Mean, 0.5);
  EXPECT_DOUBLE_EQ(V.Gradient[0], Ga);
  EXPECT_DOUBLE_EQ(V.Gradient[1], Gb);
  EXPECT_NEAR(V.Error,
              std::sqrt(Ga * Ga * Va + 2 * Ga * Gb * Cab + Gb * Gb * Vb),
              1e-15);
  DerivedValue Uncorrelated = evaluateDerived(
      Ratio, std::vector<double>{A, B}, std::vector<double>{Va, 0, 0, Vb}, {});
  EXPECT_LT(V.Error, Uncorrelated.Error);
}

/// Parameters and constants carry no error; a constant exponent of a
/// negative base stays finite (its log is never taken).
TEST(DerivedTest, ParamsAndConstantsHaveNoGradient) {
  DerivedSpec S{"p",
                "",
                {comp(0),
                 konst(3),
                 op(DerivedOp::Pow),
                 {DerivedOp::Param, 0, 1},
                 op(DerivedOp::Mul)}};
  std::vector<double> Params{0, 10};
  DerivedValue V = evaluateDerived(S, std::vector<double>{-2},
                                   std::vector<double>{0.25}, Params);
  EXPECT_DOUBLE_EQ(V.Mean, -80);
  EXPECT_DOUBLE_EQ(V.Gradient[0], 120);
  EXPECT_DOUBLE_EQ(V.Error, 60);
}

/// A malformed tape (a component or parameter out of range, a stack
/// that does not end with one value) gives NaN rather than reading out of
/// bounds.
TEST(DerivedTest, MalformedTapesGiveNaN) {
  std::vector<double> X{1, 2}, Cov(4, 0.0);
  for (const DerivedSpec &S :
       {DerivedSpec{"a", "", {comp(5)}},
        DerivedSpec{"b", "", {{DerivedOp::Param, 0, 3}}},
        DerivedSpec{"c", "", {comp(0), op(DerivedOp::Add)}},
        DerivedSpec{"d", "", {op(DerivedOp::Sqrt)}},
        DerivedSpec{"e", "", {comp(0), comp(1)}}, DerivedSpec{"f", "", {}}}) {
    DerivedValue V = evaluateDerived(S, X, Cov, {});
    EXPECT_TRUE(std::isnan(V.Mean)) << S.Name;
    EXPECT_TRUE(std::isnan(V.Error)) << S.Name;
  }
}
