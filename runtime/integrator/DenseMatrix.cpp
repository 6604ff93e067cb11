//===- runtime/integrator/DenseMatrix.cpp - Small dense matrices ----------===//
//
// The matrices are covariances (symmetric, positive semi-definite), so
// Cholesky inverts them; a singular one (perfectly correlated components)
// is regularised towards its diagonal and retried, never refused, because
// RAvgArray must weight every iteration.
//
//===----------------------------------------------------------------------===//
#include "integrator/DenseMatrix.h"

#include <algorithm>
#include <cmath>

using namespace vf;

bool vf::choleskyInverse(const std::vector<double> &A, unsigned N,
                         std::vector<double> &Inv) {
  // A = L L^T.
  std::vector<double> L(std::size_t(N) * N, 0.0);
  for (unsigned I = 0; I < N; ++I) {
    for (unsigned J = 0; J <= I; ++J) {
      double S = A[I * N + J];
      for (unsigned K = 0; K < J; ++K)
        S -= L[I * N + K] * L[J * N + K];
      if (I == J) {
        if (!(S > 0) || !std::isfinite(S))
          return false;
        L[I * N + I] = std::sqrt(S);
      } else {
        L[I * N + J] = S / L[J * N + J];
      }
    }
  }
  // M = L^-1 (lower triangular), then A^-1 = M^T M.
  std::vector<double> M(std::size_t(N) * N, 0.0);
  for (unsigned I = 0; I < N; ++I) {
    M[I * N + I] = 1 / L[I * N + I];
    for (unsigned J = 0; J < I; ++J) {
      double S = 0;
      for (unsigned K = J; K < I; ++K)
        S -= L[I * N + K] * M[K * N + J];
      M[I * N + J] = S / L[I * N + I];
    }
  }
  Inv.assign(std::size_t(N) * N, 0.0);
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J) {
      double S = 0;
      for (unsigned K = std::max(I, J); K < N; ++K)
        S += M[K * N + I] * M[K * N + J];
      Inv[I * N + J] = S;
    }
  return std::all_of(Inv.begin(), Inv.end(),
                     [](double V) { return std::isfinite(V); });
}

std::vector<double> vf::robustInverse(const std::vector<double> &A, unsigned N,
                                      const std::vector<double> &Floor) {
  std::vector<double> Inv;
  if (choleskyInverse(A, N, Inv))
    return Inv;
  for (double Eta = 1e-10;; Eta = std::min(1.0, Eta * 10)) {
    std::vector<double> R(A.size());
    for (unsigned I = 0; I < N; ++I)
      for (unsigned J = 0; J < N; ++J)
        R[I * N + J] = (1 - Eta) * A[I * N + J];
    for (unsigned I = 0; I < N; ++I)
      R[I * N + I] += Eta * std::max(A[I * N + I], Floor[I]);
    if (choleskyInverse(R, N, Inv))
      return Inv;
    if (Eta == 1) {
      // Not even the diagonal inverts (a non-finite variance): a diagonal
      // answer that carries the NaN, never a matrix of the wrong size.
      Inv.assign(std::size_t(N) * N, 0.0);
      for (unsigned I = 0; I < N; ++I)
        Inv[I * N + I] = 1 / R[I * N + I];
      return Inv;
    }
  }
}

std::vector<double> vf::submatrix(const std::vector<double> &C, unsigned N,
                                  const std::vector<unsigned> &Idx) {
  const std::size_t M = Idx.size();
  std::vector<double> S(M * M);
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < M; ++J)
      S[I * M + J] = C[Idx[I] * N + Idx[J]];
  return S;
}

std::vector<double> vf::matmul(const std::vector<double> &A,
                               const std::vector<double> &B, std::size_t M) {
  std::vector<double> P(M * M, 0.0);
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t K = 0; K < M; ++K)
      for (std::size_t J = 0; J < M; ++J)
        P[I * M + J] += A[I * M + K] * B[K * M + J];
  return P;
}
