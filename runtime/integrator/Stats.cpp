//===- runtime/integrator/Stats.cpp - Combining iterations ----------------===//
//
// Scalar and vector running averages; see the header for the rules. The
// incomplete gamma function behind Q and the matrix inverses behind the
// vector weights are their own files (IncompleteGamma, DenseMatrix).
//
//===----------------------------------------------------------------------===//
#include "integrator/Stats.h"

#include "integrator/DenseMatrix.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

using namespace vf;

//===----------------------------------------------------------------------===//
// RAvg
//===----------------------------------------------------------------------===//

/// Whether exact results a and b agree to rounding.
static bool agreeExactly(double A, double B) {
  return std::fabs(A - B) <= RoundingTol * std::max(std::fabs(A), std::fabs(B));
}

/// Whether a previous iteration's standard deviation \p Prev can weight
/// the next one, whose own is \p Own: known (a predecessor exists), not
/// exact, finite, and not below 2^-20 Own. The last rule only catches a
/// predecessor exact to rounding (its sigma the round-off floor) followed
/// by one that is not: its sigma, some 10^12 times too small as a
/// prediction, would give the next iteration all the weight and chi2 a
/// term of 10^21 (a constant integrand whose map drifted).
static bool usablePrediction(double Prev, double Own) {
  return Prev > 0 && std::isfinite(Prev) && !(Prev < 0x1p-20 * Own);
}

void RAvg::add(double mean, double sdev, bool warmup) {
  assert(!(sdev < 0) && "a standard deviation is not negative");
  if (!warmup) {
    Itns.push_back(
        {mean, sdev, usablePrediction(LastSdev, sdev) ? LastSdev : sdev});
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
// RAvgArray
//===----------------------------------------------------------------------===//

/// Smallest variance a component is allowed in the fallback: rounding.
static std::vector<double> varianceFloor(const std::vector<double> &Mean) {
  std::vector<double> F(Mean.size());
  for (std::size_t I = 0; I < Mean.size(); ++I) {
    double S = RoundingTol * std::fabs(Mean[I]);
    F[I] = std::max(S * S, 1e-300);
  }
  return F;
}

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
  /// there is 0, not finite or under 2^-40 of iteration k's own
  /// (usablePrediction); then iteration k's own.
  const std::vector<double> &prediction(std::size_t K,
                                        const std::vector<unsigned> &Idx) const {
    bool Usable = !Preds[K].empty();
    for (unsigned I : Idx)
      Usable = Usable && usablePrediction(std::sqrt(Preds[K][I * N + I]),
                                          std::sqrt(Covs[K][I * N + I]));
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
    return usablePrediction(S, std::sqrt(Own)) ? S * S : Own;
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
    return !C.empty() && usablePrediction(std::sqrt(C[0]), std::sqrt(Own))
               ? C[0]
               : Own;
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
