//===- tests/unit/runtime/integrator/DenseMatrixTest.cpp - Dense matrices -===//
//
// The inverses RAvgArray weights by: Cholesky on hand examples and against
// the identity, its refusal of singular and indefinite matrices, the
// regularised fallback (finite, the right size, Cholesky's answer when that
// works), and the helpers submatrix and matmul on hand examples.
//
//===----------------------------------------------------------------------===//
#include "integrator/DenseMatrix.h"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

using vf::choleskyInverse;
using vf::matmul;
using vf::robustInverse;
using vf::submatrix;

namespace {

/// [[4, 2], [2, 3]]^-1 = [[3, -2], [-2, 4]] / 8.
TEST(DenseMatrixTest, CholeskyInverseHandExample) {
  std::vector<double> Inv;
  ASSERT_TRUE(choleskyInverse({4, 2, 2, 3}, 2, Inv));
  const double Want[] = {3.0 / 8, -2.0 / 8, -2.0 / 8, 4.0 / 8};
  ASSERT_EQ(Inv.size(), 4u);
  for (int I = 0; I < 4; ++I)
    EXPECT_NEAR(Inv[I], Want[I], 1e-15) << I;
}

/// A A^-1 = 1 for a 3 x 3 covariance with correlations.
TEST(DenseMatrixTest, CholeskyInverseTimesMatrixIsIdentity) {
  const std::vector<double> A = {2.0, 0.6, -0.3, 0.6, 1.5, 0.4, -0.3, 0.4, 1.0};
  std::vector<double> Inv;
  ASSERT_TRUE(choleskyInverse(A, 3, Inv));
  const std::vector<double> P = matmul(A, Inv, 3);
  for (int I = 0; I < 3; ++I)
    for (int J = 0; J < 3; ++J)
      EXPECT_NEAR(P[I * 3 + J], I == J ? 1.0 : 0.0, 1e-14) << I << J;
}

/// Singular (perfectly correlated) and indefinite matrices are refused.
TEST(DenseMatrixTest, CholeskyRefusesNonPositiveDefinite) {
  std::vector<double> Inv;
  EXPECT_FALSE(choleskyInverse({1, 1, 1, 1}, 2, Inv));
  EXPECT_FALSE(choleskyInverse({1, 2, 2, 1}, 2, Inv));
  EXPECT_FALSE(choleskyInverse({NAN, 0, 0, 1}, 2, Inv));
}

/// Where Cholesky works, robustInverse is its answer, bit for bit.
TEST(DenseMatrixTest, RobustInverseIsCholeskyWhenItWorks) {
  const std::vector<double> A = {4, 2, 2, 3};
  std::vector<double> Inv;
  ASSERT_TRUE(choleskyInverse(A, 2, Inv));
  EXPECT_EQ(robustInverse(A, 2, {1e-300, 1e-300}), Inv);
}

/// A singular matrix gets a finite, symmetric, positive-diagonal inverse of
/// a slightly regularised matrix; a NaN variance an N x N answer that
/// carries the NaN.
TEST(DenseMatrixTest, RobustInverseOfSingularAndNaN) {
  const std::vector<double> Inv = robustInverse({1, 1, 1, 1}, 2, {0, 0});
  ASSERT_EQ(Inv.size(), 4u);
  for (double V : Inv)
    EXPECT_TRUE(std::isfinite(V));
  EXPECT_EQ(Inv[1], Inv[2]);
  EXPECT_GT(Inv[0], 0);
  const std::vector<double> N = robustInverse({NAN, 0, 0, 1}, 2, {0, 0});
  ASSERT_EQ(N.size(), 4u);
  EXPECT_TRUE(std::isnan(N[0]));
}

/// submatrix keeps the chosen rows and columns in order; matmul multiplies.
TEST(DenseMatrixTest, SubmatrixAndMatmul) {
  const std::vector<double> C = {1, 2, 3, 4, 5, 6, 7, 8, 9};
  EXPECT_EQ(submatrix(C, 3, {0, 2}), (std::vector<double>{1, 3, 7, 9}));
  EXPECT_EQ(submatrix(C, 3, {1}), (std::vector<double>{5}));
  EXPECT_EQ(matmul({1, 2, 3, 4}, {5, 6, 7, 8}, 2),
            (std::vector<double>{19, 22, 43, 50}));
}

} // namespace
