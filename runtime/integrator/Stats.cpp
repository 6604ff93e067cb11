//===- runtime/integrator/Stats.cpp - Combining iterations ----------------===//
//
// The incomplete gamma function, scalar and vector running averages and the
// small dense linear algebra they need; see the header for the rules.
//
//===----------------------------------------------------------------------===//
#include "integrator/Stats.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace vf;

//===----------------------------------------------------------------------===//
// Incomplete gamma function
//===----------------------------------------------------------------------===//

/// Relative accuracy at which the series and the continued fraction stop.
static constexpr double GammaEps = 1e-16;
/// Guards the continued fraction's denominators against 0 (Lentz).
static constexpr double GammaTiny = 1e-300;
/// Enough terms for a up to ~10^8 (the series needs O(sqrt(a)) terms near
/// x = a; the continued fraction converges faster).
static constexpr int GammaMaxTerms = 100000;

/// exp(-x) x^a / Gamma(a): the common prefactor.
static double gammaPrefactor(double A, double X) {
  return std::exp(-X + A * std::log(X) - std::lgamma(A));
}

/// P(a, x) by its power series, for x < a + 1.
static double gammaPSeries(double A, double X) {
  double Term = 1 / A, Sum = Term;
  for (int N = 1; N < GammaMaxTerms; ++N) {
    Term *= X / (A + N);
    Sum += Term;
    if (std::fabs(Term) < std::fabs(Sum) * GammaEps)
      break;
  }
  return Sum * gammaPrefactor(A, X);
}

/// Q(a, x) by its continued fraction (modified Lentz), for x >= a + 1.
static double gammaQFraction(double A, double X) {
  double B = X + 1 - A;
  double C = 1 / GammaTiny, D = 1 / B, H = D;
  for (int I = 1; I < GammaMaxTerms; ++I) {
    double An = -I * (I - A);
    B += 2;
    D = An * D + B;
    if (std::fabs(D) < GammaTiny)
      D = GammaTiny;
    C = B + An / C;
    if (std::fabs(C) < GammaTiny)
      C = GammaTiny;
    D = 1 / D;
    double Delta = D * C;
    H *= Delta;
    if (std::fabs(Delta - 1) < GammaEps)
      break;
  }
  return H * gammaPrefactor(A, X);
}

double vf::gammaQ(double a, double x) {
  if (!(a > 0) || !(x >= 0))
    return std::numeric_limits<double>::quiet_NaN();
  if (x == 0)
    return 1.0;
  if (std::isinf(x))
    return 0.0;
  if (x < a + 1)
    return 1 - gammaPSeries(a, x);
  return gammaQFraction(a, x);
}

double vf::chi2Q(double chi2, double dof) {
  if (dof <= 0)
    return 1.0;
  return gammaQ(dof / 2, chi2 / 2);
}

//===----------------------------------------------------------------------===//
// RAvg
//===----------------------------------------------------------------------===//

/// Whether exact results a and b agree to rounding.
static bool agreeExactly(double A, double B) {
  return std::fabs(A - B) <= RoundingTol * std::max(std::fabs(A), std::fabs(B));
}

void RAvg::add(double mean, double sdev, bool warmup) {
  assert(!(sdev < 0) && "a standard deviation is not negative");
  if (!warmup) {
    Itns.push_back({mean, sdev});
    recompute();
  }
  Rows.push_back({mean, sdev, warmup, Mean, Sdev, chi2dof(), Q()});
}

void RAvg::recompute() {
  double Inf = std::numeric_limits<double>::infinity();
  std::size_t NumExact = 0;
  double SumExact = 0, SumW = 0, SumWI = 0;
  for (const Itn &K : Itns) {
    if (K.Sdev == 0) {
      ++NumExact;
      SumExact += K.Mean;
    } else {
      double W = 1 / (K.Sdev * K.Sdev);
      SumW += W;
      SumWI += W * K.Mean;
    }
  }
  // First pass: the mean; exact iterations outweigh all others.
  if (NumExact > 0) {
    Mean = SumExact / double(NumExact);
    Sdev = 0;
  } else {
    Mean = SumWI / SumW;
    Sdev = 1 / std::sqrt(SumW);
  }
  // Second pass: chi2 from deviations, not from power sums.
  Chi2 = 0;
  for (const Itn &K : Itns) {
    if (K.Sdev == 0) {
      if (!agreeExactly(K.Mean, Mean))
        Chi2 = Inf;
      continue;
    }
    double Pull = (K.Mean - Mean) / K.Sdev;
    Chi2 += Pull * Pull;
  }
}

//===----------------------------------------------------------------------===//
// Small dense matrices (row-major, n x n)
//===----------------------------------------------------------------------===//

/// Inverse of a symmetric positive definite A by Cholesky; false if A is
/// not numerically positive definite.
static bool choleskyInverse(const std::vector<double> &A, unsigned N,
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

/// Inverse of a symmetric positive semi-definite A: Cholesky, or, when that
/// fails, of (1 - eta) A + eta diag(max(A_ii, Floor_i)) for the smallest
/// eta = 1e-10, 1e-9, ..., 1 that works (eta = 1 is diagonal).
static std::vector<double> robustInverse(const std::vector<double> &A,
                                         unsigned N,
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
    if (choleskyInverse(R, N, Inv) || Eta == 1)
      return Inv;
  }
}

/// Smallest variance a component is allowed in the fallback: rounding.
static std::vector<double> varianceFloor(const std::vector<double> &Mean) {
  std::vector<double> F(Mean.size());
  for (std::size_t I = 0; I < Mean.size(); ++I) {
    double S = RoundingTol * std::fabs(Mean[I]);
    F[I] = std::max(S * S, 1e-300);
  }
  return F;
}

//===----------------------------------------------------------------------===//
// RAvgArray
//===----------------------------------------------------------------------===//

static std::vector<double> sqrtDiag(std::span<const double> C, unsigned N) {
  std::vector<double> S(N);
  for (unsigned I = 0; I < N; ++I)
    S[I] = std::sqrt(C[I * N + I]);
  return S;
}

std::vector<double> RAvgArray::sdev() const { return sqrtDiag(Cov, N); }

void RAvgArray::add(std::span<const double> mean, std::span<const double> cov,
                    bool warmup) {
  assert(mean.size() == N && cov.size() == std::size_t(N) * N &&
         "mean has n entries, cov n x n");
  if (!warmup) {
    Means.emplace_back(mean.begin(), mean.end());
    Covs.emplace_back(cov.begin(), cov.end());
    recompute();
  }
  Rows.push_back({std::vector<double>(mean.begin(), mean.end()),
                  sqrtDiag(cov, N), warmup, Mean, sdev(), chi2dof(), Q()});
}

/// Whether C is all zeros: an exact iteration.
static bool isExact(const std::vector<double> &C) {
  return std::all_of(C.begin(), C.end(), [](double V) { return V == 0; });
}

double RAvgArray::chi2Term(std::size_t K,
                           const std::vector<double> &Inv) const {
  std::vector<double> Dev(N);
  for (unsigned I = 0; I < N; ++I)
    Dev[I] = Means[K][I] - Mean[I];
  double S = 0;
  for (unsigned I = 0; I < N; ++I)
    for (unsigned J = 0; J < N; ++J)
      S += Dev[I] * Inv[I * N + J] * Dev[J];
  return S;
}

void RAvgArray::combineExact() {
  std::fill(Mean.begin(), Mean.end(), 0.0);
  std::fill(Cov.begin(), Cov.end(), 0.0);
  std::size_t NumExact = 0;
  for (std::size_t K = 0; K < Means.size(); ++K) {
    if (!isExact(Covs[K]))
      continue;
    ++NumExact;
    for (unsigned I = 0; I < N; ++I)
      Mean[I] += Means[K][I];
  }
  for (double &M : Mean)
    M /= double(NumExact);
  Chi2 = 0;
  for (std::size_t K = 0; K < Means.size(); ++K) {
    if (!isExact(Covs[K])) {
      Chi2 += chi2Term(K, robustInverse(Covs[K], N, varianceFloor(Means[K])));
      continue;
    }
    for (unsigned I = 0; I < N; ++I)
      if (!agreeExactly(Means[K][I], Mean[I]))
        Chi2 = std::numeric_limits<double>::infinity();
  }
}

void RAvgArray::combineWeighted() {
  std::size_t NN = std::size_t(N) * N;
  // Reference point: the plain mean of the iterations.
  std::vector<double> Ref(N, 0.0);
  for (const std::vector<double> &M : Means)
    for (unsigned I = 0; I < N; ++I)
      Ref[I] += M[I] / double(Means.size());
  std::vector<std::vector<double>> Invs;
  std::vector<double> SumInv(NN, 0.0), SumInvDev(N, 0.0);
  for (std::size_t K = 0; K < Means.size(); ++K) {
    Invs.push_back(robustInverse(Covs[K], N, varianceFloor(Means[K])));
    const std::vector<double> &Inv = Invs.back();
    for (std::size_t J = 0; J < NN; ++J)
      SumInv[J] += Inv[J];
    for (unsigned I = 0; I < N; ++I)
      for (unsigned J = 0; J < N; ++J)
        SumInvDev[I] += Inv[I * N + J] * (Means[K][J] - Ref[J]);
  }
  Cov = robustInverse(SumInv, N, std::vector<double>(N, 1e-300));
  for (unsigned I = 0; I < N; ++I) {
    double S = 0;
    for (unsigned J = 0; J < N; ++J)
      S += Cov[I * N + J] * SumInvDev[J];
    Mean[I] = Ref[I] + S;
  }
  Chi2 = 0;
  for (std::size_t K = 0; K < Means.size(); ++K)
    Chi2 += chi2Term(K, Invs[K]);
}

void RAvgArray::recompute() {
  if (std::any_of(Covs.begin(), Covs.end(), isExact))
    combineExact();
  else
    combineWeighted();
}

//===----------------------------------------------------------------------===//
// The average an integrand's output count calls for
//===----------------------------------------------------------------------===//

namespace {

/// One output: the scalar average, whose error is the iteration's own.
class ScalarAverage final : public IterationAverage {
public:
  void add(std::span<const double> Mean, std::span<const double> Error,
           std::span<const double>, bool Warmup) override {
    Avg.add(Mean[0], Error[0], Warmup);
  }
  std::vector<double> mean() const override { return {Avg.mean()}; }
  std::vector<double> sdev() const override { return {Avg.sdev()}; }
  std::vector<double> cov() const override {
    return {Avg.sdev() * Avg.sdev()};
  }
  double chi2dof() const override { return Avg.chi2dof(); }
  double Q() const override { return Avg.Q(); }

private:
  RAvg Avg;
};

/// Several outputs: weighted by the inverse covariance.
class VectorAverage final : public IterationAverage {
public:
  explicit VectorAverage(unsigned Outputs) : Avg(Outputs) {}
  void add(std::span<const double> Mean, std::span<const double>,
           std::span<const double> Cov, bool Warmup) override {
    Avg.add(Mean, Cov, Warmup);
  }
  std::vector<double> mean() const override { return Avg.mean(); }
  std::vector<double> sdev() const override { return Avg.sdev(); }
  std::vector<double> cov() const override { return Avg.cov(); }
  double chi2dof() const override { return Avg.chi2dof(); }
  double Q() const override { return Avg.Q(); }

private:
  RAvgArray Avg;
};

} // namespace

std::unique_ptr<IterationAverage> IterationAverage::create(unsigned Outputs) {
  if (Outputs == 1)
    return std::make_unique<ScalarAverage>();
  return std::make_unique<VectorAverage>(Outputs);
}
