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

/// Whether a previous iteration's variance can weight the next one: known
/// (a predecessor exists), not exact and finite.
static bool usablePrediction(double Sdev) {
  return Sdev > 0 && std::isfinite(Sdev);
}

void RAvg::add(double mean, double sdev, bool warmup) {
  assert(!(sdev < 0) && "a standard deviation is not negative");
  if (!warmup) {
    Itns.push_back({mean, sdev, usablePrediction(LastSdev) ? LastSdev : sdev});
    recompute();
  }
  LastSdev = sdev;
  Rows.push_back({mean, sdev, warmup, Mean, Sdev, chi2dof(), Q()});
}

void RAvg::recompute() {
  double Inf = std::numeric_limits<double>::infinity();
  std::size_t NumExact = 0;
  double SumExact = 0, Smallest = Inf;
  for (const Itn &K : Itns) {
    if (K.Sdev == 0) {
      ++NumExact;
      SumExact += K.Mean;
    }
    Smallest = std::min(Smallest, K.Pred);
  }
  // First pass: the mean; exact iterations outweigh all others. Weights
  // are relative to the smallest predicted sigma (in (0, 1]), so that
  // neither their sum nor their squares leave the range of doubles.
  if (NumExact > 0) {
    Mean = SumExact / double(NumExact);
    Sdev = 0;
  } else {
    double SumW = 0, SumWI = 0, SumW2V = 0;
    for (const Itn &K : Itns) {
      double R = Smallest / K.Pred, W = R * R;
      if (W == 0) // An infinite prediction: no weight, and no 0 * inf.
        continue;
      SumW += W;
      SumWI += W * K.Mean;
      SumW2V += (W * K.Sdev) * (W * K.Sdev);
    }
    Mean = SumWI / SumW;
    Sdev = std::sqrt(SumW2V) / SumW;
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
/// eta = 1e-10, 1e-9, ..., 1 that works (eta = 1 is diagonal). Always an
/// N x N matrix; NaN entries only where A itself is not finite.
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
    Preds.push_back(LastCov);
    recompute();
  }
  LastCov.assign(cov.begin(), cov.end());
  Rows.push_back({std::vector<double>(mean.begin(), mean.end()),
                  sqrtDiag(cov, N), warmup, Mean, sdev(), chi2dof(), Q()});
}

/// The rows and columns \p Idx of the N x N matrix \p C.
static std::vector<double> submatrix(const std::vector<double> &C, unsigned N,
                                     const std::vector<unsigned> &Idx) {
  const std::size_t M = Idx.size();
  std::vector<double> S(M * M);
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < M; ++J)
      S[I * M + J] = C[Idx[I] * N + Idx[J]];
  return S;
}

namespace {
/// The iterations of an RAvgArray, rescaled: component i multiplied by
/// 2^S_i so that its largest variance is near 1. Scaling by powers of two
/// is exact (no digit of any sum or factorisation changes in the normal
/// range), and it keeps components of very different sizes (1e-150 next to
/// 1) inside the range of doubles through the inversions.
struct Scaled {
  unsigned N;
  std::vector<int> S;
  std::vector<std::vector<double>> Means, Covs, Preds;

  Scaled(const std::vector<std::vector<double>> &M,
         const std::vector<std::vector<double>> &C,
         const std::vector<std::vector<double>> &P, unsigned N)
      : N(N), S(N, 0), Means(M), Covs(C), Preds(P) {
    for (unsigned I = 0; I < N; ++I) {
      double Largest = 0;
      for (const std::vector<double> &Ck : C)
        if (std::isfinite(Ck[I * N + I]))
          Largest = std::max(Largest, Ck[I * N + I]);
      int E = 0;
      if (Largest > 0)
        std::frexp(Largest, &E);
      S[I] = -(E / 2);
    }
    for (std::size_t K = 0; K < M.size(); ++K)
      for (unsigned I = 0; I < N; ++I) {
        Means[K][I] = std::ldexp(M[K][I], S[I]);
        for (unsigned J = 0; J < N; ++J) {
          Covs[K][I * N + J] = std::ldexp(C[K][I * N + J], S[I] + S[J]);
          if (!P[K].empty())
            Preds[K][I * N + J] = std::ldexp(P[K][I * N + J], S[I] + S[J]);
        }
      }
  }
  /// Component i's variance is 0 in iteration k: known exactly there (its
  /// row and column are then 0, the covariance being positive
  /// semi-definite).
  bool exact(std::size_t K, unsigned I) const {
    return Covs[K][I * N + I] == 0;
  }
  /// The covariance that weights iteration k's components \p Idx: the
  /// previous iteration's, unless there is none or one of its variances
  /// there is 0 or not finite; then iteration k's own.
  const std::vector<double> &prediction(std::size_t K,
                                        const std::vector<unsigned> &Idx) const {
    bool Usable = !Preds[K].empty();
    for (unsigned I : Idx)
      Usable = Usable && usablePrediction(Preds[K][I * N + I]);
    return Usable ? Preds[K] : Covs[K];
  }
  double chi2Term(std::size_t K, const std::vector<unsigned> &Idx,
                  const std::vector<double> &Mean) const;
};
} // namespace

/// (I_k - Ibar)^T C_k^-1 (I_k - Ibar) over the components \p Idx.
double Scaled::chi2Term(std::size_t K, const std::vector<unsigned> &Idx,
                        const std::vector<double> &Mean) const {
  const std::size_t M = Idx.size();
  std::vector<double> Dev(M), Mk(M);
  for (std::size_t I = 0; I < M; ++I) {
    Mk[I] = Means[K][Idx[I]];
    Dev[I] = Mk[I] - Mean[Idx[I]];
  }
  const std::vector<double> Inv =
      robustInverse(submatrix(Covs[K], N, Idx), unsigned(M), varianceFloor(Mk));
  double S = 0;
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t J = 0; J < M; ++J)
      S += Dev[I] * Inv[I * M + J] * Dev[J];
  return S;
}

/// Component \p I, exact in some iteration: the plain mean of its exact
/// values, no variance, no covariance.
static void combineExact(const Scaled &D, unsigned I, std::vector<double> &Mean,
                         std::vector<double> &Cov) {
  double Sum = 0;
  std::size_t Count = 0;
  for (std::size_t K = 0; K < D.Means.size(); ++K)
    if (D.exact(K, I)) {
      Sum += D.Means[K][I];
      ++Count;
    }
  Mean[I] = Sum / double(Count);
  for (unsigned J = 0; J < D.N; ++J)
    Cov[I * D.N + J] = Cov[J * D.N + I] = 0;
}

/// A * B for M x M matrices.
static std::vector<double> matmul(const std::vector<double> &A,
                                  const std::vector<double> &B, std::size_t M) {
  std::vector<double> P(M * M, 0.0);
  for (std::size_t I = 0; I < M; ++I)
    for (std::size_t K = 0; K < M; ++K)
      for (std::size_t J = 0; J < M; ++J)
        P[I * M + J] += A[I * M + K] * B[K * M + J];
  return P;
}

/// The components \p Idx, exact in no iteration, weighted by the inverse
/// of each iteration's predicted covariance W_k: Ibar = (sum W_k)^-1 sum
/// W_k I_k and Cov(Ibar) = (sum W_k)^-1 (sum W_k C_k W_k) (sum W_k)^-1.
static void combineWeighted(const Scaled &D, const std::vector<unsigned> &Idx,
                            std::vector<double> &Mean,
                            std::vector<double> &Cov) {
  const std::size_t M = Idx.size(), MM = M * M, Nitn = D.Means.size();
  // Reference point: the plain mean of the iterations.
  std::vector<double> Ref(M, 0.0);
  for (const std::vector<double> &Mk : D.Means)
    for (std::size_t I = 0; I < M; ++I)
      Ref[I] += Mk[Idx[I]] / double(Nitn);
  std::vector<double> SumW(MM, 0.0), SumWCW(MM, 0.0), SumWDev(M, 0.0), Mk(M);
  for (std::size_t K = 0; K < Nitn; ++K) {
    for (std::size_t I = 0; I < M; ++I)
      Mk[I] = D.Means[K][Idx[I]];
    const std::vector<double> W = robustInverse(
        submatrix(D.prediction(K, Idx), D.N, Idx), unsigned(M), varianceFloor(Mk));
    const std::vector<double> WCW =
        matmul(matmul(W, submatrix(D.Covs[K], D.N, Idx), M), W, M);
    for (std::size_t J = 0; J < MM; ++J) {
      SumW[J] += W[J];
      SumWCW[J] += WCW[J];
    }
    for (std::size_t I = 0; I < M; ++I)
      for (std::size_t J = 0; J < M; ++J)
        SumWDev[I] += W[I * M + J] * (Mk[J] - Ref[J]);
  }
  const std::vector<double> Inv =
      robustInverse(SumW, unsigned(M), std::vector<double>(M, 1e-300));
  std::vector<double> C = matmul(matmul(Inv, SumWCW, M), Inv, M);
  for (std::size_t I = 0; I < M; ++I) // Symmetric, whatever the rounding.
    for (std::size_t J = 0; J < I; ++J)
      C[I * M + J] = C[J * M + I] = (C[I * M + J] + C[J * M + I]) / 2;
  for (std::size_t I = 0; I < M; ++I) {
    double S = 0;
    for (std::size_t J = 0; J < M; ++J) {
      S += Inv[I * M + J] * SumWDev[J];
      Cov[Idx[I] * D.N + Idx[J]] = C[I * M + J];
    }
    Mean[Idx[I]] = Ref[I] + S;
  }
}

/// Components exact in some iteration take the plain mean of their exact
/// values and no variance; the others are weighted by inverse covariance
/// among themselves. chi2 adds, per iteration, the weighted term of its
/// non-exact components and +inf for an exact value that disagrees. All of
/// it on the rescaled iterations (Scaled), then scaled back.
void RAvgArray::recompute() {
  const Scaled D(Means, Covs, Preds, N);
  std::vector<unsigned> Weighted;
  for (unsigned I = 0; I < N; ++I) {
    bool Exact = false;
    for (std::size_t K = 0; K < D.Means.size(); ++K)
      Exact = Exact || D.exact(K, I);
    if (Exact)
      combineExact(D, I, Mean, Cov);
    else
      Weighted.push_back(I);
  }
  if (!Weighted.empty())
    combineWeighted(D, Weighted, Mean, Cov);
  Chi2 = 0;
  for (std::size_t K = 0; K < D.Means.size(); ++K) {
    std::vector<unsigned> Idx;
    for (unsigned I = 0; I < N; ++I) {
      if (!D.exact(K, I))
        Idx.push_back(I);
      else if (!agreeExactly(D.Means[K][I], Mean[I]))
        Chi2 = std::numeric_limits<double>::infinity();
    }
    if (!Idx.empty())
      Chi2 += D.chi2Term(K, Idx, Mean);
  }
  for (unsigned I = 0; I < N; ++I) {
    Mean[I] = std::ldexp(Mean[I], -D.S[I]);
    for (unsigned J = 0; J < N; ++J)
      Cov[I * N + J] = std::ldexp(Cov[I * N + J], -(D.S[I] + D.S[J]));
  }
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
  double predictedVariance(double Own) const override {
    const double S = Avg.lastSdev();
    return usablePrediction(S) ? S * S : Own;
  }

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
  double predictedVariance(double Own) const override {
    const std::vector<double> &C = Avg.lastCov();
    return !C.empty() && usablePrediction(std::sqrt(C[0])) ? C[0] : Own;
  }

private:
  RAvgArray Avg;
};

} // namespace

std::unique_ptr<IterationAverage> IterationAverage::create(unsigned Outputs) {
  if (Outputs == 1)
    return std::make_unique<ScalarAverage>();
  return std::make_unique<VectorAverage>(Outputs);
}
