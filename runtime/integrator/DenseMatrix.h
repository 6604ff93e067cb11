//===- runtime/integrator/DenseMatrix.h - Small dense matrices --*- C++ -*-===//
//
// The few operations on small dense matrices that RAvgArray (Stats.h)
// needs to weight vector-valued iterations by their inverse covariance:
// inverses of covariance matrices, products and principal submatrices.
// Matrices are std::vector<double>, n x n, row-major; n is the integrand's
// output count, so O(n^3) costs nothing next to an iteration.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_INTEGRATOR_DENSEMATRIX_H
#define VF_RUNTIME_INTEGRATOR_DENSEMATRIX_H

#include <cstddef>
#include <vector>

namespace vf {

/// Inverse of a symmetric positive definite A (N x N) by Cholesky, into
/// \p Inv; false if A is not numerically positive definite or the inverse
/// is not finite.
bool choleskyInverse(const std::vector<double> &A, unsigned N,
                     std::vector<double> &Inv);

/// Inverse of a symmetric positive semi-definite A: Cholesky, or, when that
/// fails, of (1 - eta) A + eta diag(max(A_ii, Floor_i)) for the smallest
/// eta = 1e-10, 1e-9, ..., 1 that works (eta = 1 is diagonal). Always an
/// N x N matrix; NaN entries only where A itself is not finite.
std::vector<double> robustInverse(const std::vector<double> &A, unsigned N,
                                  const std::vector<double> &Floor);

/// The rows and columns \p Idx of the N x N matrix \p C.
std::vector<double> submatrix(const std::vector<double> &C, unsigned N,
                              const std::vector<unsigned> &Idx);

/// A * B for M x M matrices.
std::vector<double> matmul(const std::vector<double> &A,
                           const std::vector<double> &B, std::size_t M);

} // namespace vf

#endif // VF_RUNTIME_INTEGRATOR_DENSEMATRIX_H
