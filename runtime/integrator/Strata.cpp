//===- runtime/integrator/Strata.cpp - VEGAS+ stratification --------------===//
//
// Hypercube geometry, the sigf^beta allocation and the per-hypercube
// moments; see the header for the formulas.
//
//===----------------------------------------------------------------------===//
#include "integrator/Strata.h"

#include <algorithm>
#include <bit>
#include <cassert>
#include <cmath>
#include <cstdint>
#include <cstring>

using namespace vf;

/// B^E, or UINT64_MAX if that overflows.
static std::uint64_t saturatingPow(std::uint64_t B, unsigned E) {
  std::uint64_t R = 1;
  for (unsigned I = 0; I < E; ++I) {
    if (B != 0 && R > UINT64_MAX / B)
      return UINT64_MAX;
    R *= B;
  }
  return R;
}

unsigned Strata::chooseNstrat(unsigned dim, std::uint64_t neval,
                              std::uint64_t maxHcube) {
  // The host kernel finds coordinates in double arithmetic, exact below
  // 2^50 hypercubes (kernels/SampleBatch.h); no run has memory for more.
  std::uint64_t Limit = std::min({neval / 4, std::max<std::uint64_t>(1, maxHcube),
                                  std::uint64_t(1) << 50});
  // A floating-point guess, corrected with exact integer arithmetic: pow
  // may land just below an exact root.
  auto M = std::uint64_t(std::pow(double(Limit), 1.0 / dim));
  M = std::max<std::uint64_t>(M, 1);
  while (M > 1 && saturatingPow(M, dim) > Limit)
    --M;
  while (saturatingPow(M + 1, dim) <= Limit)
    ++M;
  return unsigned(M);
}

std::uint64_t Strata::hcubeCap(unsigned dim, std::uint64_t maxHcube,
                               bool single) {
  return single ? std::min(maxHcube, saturatingPow(SingleMaxNstrat, dim))
                : maxHcube;
}

Strata::Strata(unsigned dim, std::uint64_t neval, double beta,
               std::uint64_t maxHcube)
    : Dim(dim), Neval(neval), SizedFor(neval), Beta(beta),
      Nstrat(chooseNstrat(dim, neval, maxHcube)),
      Nhcube(saturatingPow(Nstrat, dim)) {
  assert(dim >= 1 && "strata need an axis");
  Moments.resize(Nhcube);
  resetUniform();
}

std::uint64_t Strata::findHcube(std::span<const std::uint64_t> offsets,
                                std::uint64_t index) {
  assert(offsets.size() >= 2 && index < offsets.back());
  // The last h with offsets[h] <= index.
  auto It = std::upper_bound(offsets.begin(), offsets.end(), index);
  return std::uint64_t(It - offsets.begin()) - 1;
}

void Strata::coordinates(std::uint64_t h, unsigned *k) const {
  for (unsigned D = 0; D < Dim; ++D) {
    k[D] = unsigned(h % Nstrat);
    h /= Nstrat;
  }
}

void Strata::clearSums() {
  std::fill(Moments.begin(), Moments.end(), Moment());
}

void Strata::setSums(std::uint64_t h, const HypercubeSums &S) {
  if (!(S.n > 0)) {
    Moments[h] = Moment();
    return;
  }
  double MeanD = S.sum_d / S.n;
  Moments[h] = {S.n, S.shift, MeanD, std::max(0.0, S.sum_d2 - S.sum_d * MeanD)};
}

double Strata::integralHcube(std::uint64_t h) const {
  const Moment &M = Moments[h];
  return (M.Shift + M.MeanD) / double(Nhcube);
}

double Strata::varianceHcube(std::uint64_t h) const {
  const Moment &M = Moments[h];
  if (M.N < 2)
    return 0.0;
  double NhVol = double(Nhcube);
  return M.M2 / (NhVol * NhVol * M.N * (M.N - 1));
}

double Strata::roundTo40Bits(double x) {
  if (x == 0 || !std::isfinite(x))
    return x;
  std::uint64_t Bits;
  std::memcpy(&Bits, &x, sizeof Bits);
  if ((Bits >> 52 & 0x7ff) == 0) { // subnormal: fewer significant bits
    int Exp;
    double Frac = std::frexp(x, &Exp); // x = Frac 2^Exp, 0.5 <= |Frac| < 1.
    return std::ldexp(std::nearbyint(std::ldexp(Frac, 40)), Exp - 40);
  }
  // A normal number's 53-bit significand rounded to its top 40 bits (the
  // implicit one and 39 stored ones), to nearest with ties to even (what
  // nearbyint does above), on the bits: once per hypercube and iteration,
  // frexp and ldexp cost more than the rest of the allocation. A carry out
  // of the significand correctly bumps the exponent.
  const std::uint64_t Drop = Bits & 0x1fff, Half = 0x1000;
  Bits &= ~std::uint64_t(0x1fff);
  if (Drop > Half || (Drop == Half && (Bits & 0x2000)))
    Bits += 0x2000;
  std::memcpy(&x, &Bits, sizeof x);
  return x;
}

namespace {

/// Whether x is a positive normal double, on its bits.
inline bool positiveNormal(std::uint64_t Bits) {
  return (Bits >> 52) - 1 < 0x7fe;
}

/// x^(3/4) rounded to 40 bits without pow, and in \p Exact whether that is
/// roundTo40Bits(pow(x, 3/4)) for certain. c = sqrt(x) sqrt(sqrt(x)) is
/// within 3.5 ulp of x^(3/4) (three correctly rounded operations) and pow
/// within 1, so unless c lies within 16 ulp of a midpoint between 40-bit
/// neighbours, no rounding boundary separates them and both round to the
/// same 40 bits; about 1 value in 128 is not exact. No branch, so that
/// adapt()'s loop over the hypercubes vectorizes; the roots are
/// __builtin_elementwise_sqrt, std::sqrt without errno (which keeps a loop
/// scalar).
inline double threeQuartersTo40Bits(double X, bool &Exact) {
  const double S = __builtin_elementwise_sqrt(X),
               C = S * __builtin_elementwise_sqrt(S);
  const auto Bits = std::bit_cast<std::uint64_t>(C);
  const auto Drop = std::int64_t(Bits & 0x1fff);
  Exact = positiveNormal(std::bit_cast<std::uint64_t>(X)) &&
          positiveNormal(Bits) && (Drop - 0x1000 > 16 || 0x1000 - Drop > 16);
  // roundTo40Bits on a normal number without its branches: adding 0xfff
  // and the kept part's last bit carries into it exactly when the dropped
  // 13 bits round up, ties to even.
  return std::bit_cast<double>((Bits + 0xfff + (Bits >> 13 & 1)) &
                               ~std::uint64_t(0x1fff));
}

} // namespace

double Strata::powTo40Bits(double x, double beta) {
  // A hypercube where f is constant, or zero (outside a cut): pow(±0, beta)
  // is +0 for every beta > 0 (adapt() handles beta = 0), without a call.
  if (x == 0 && beta > 0)
    return 0.0;
  // The default beta = 3/4 without pow where that is exact: pow was the
  // largest cost of an iteration's host work at d = 4 (14% of a run).
  if (beta == 0.75) {
    bool Exact;
    const double R = threeQuartersTo40Bits(x, Exact);
    if (Exact)
      return R;
  }
  return roundTo40Bits(std::pow(x, beta));
}

void Strata::allocate(const std::vector<double> &D, double Sum) {
  // Every hypercube gets its minimum, and the rest of the budget is shared
  // in proportion to d_h (as Lepage's vegas does): the total stays at most
  // neval, where max(2, floor(neval d_h / sum d)) could overshoot it by a
  // third when many hypercubes sit at the minimum.
  std::uint64_t Floor = MinNevalHcube * Nhcube;
  double Spare = double(Neval > Floor ? Neval - Floor : 0);
  Offsets.resize(Nhcube + 1);
  Offsets[0] = 0;
  shares(D.data(), Spare, Sum, Offsets.data() + 1);
  for (std::uint64_t H = 0; H < Nhcube; ++H)
    Offsets[H + 1] += Offsets[H] + MinNevalHcube;
}

/// allocate()'s floor(spare d_h / sum) for every h, a pass of its own on
/// the widest vectors (its prefix sums are the serial part).
__attribute__((target_clones("avx512f", "avx2", "default"))) void
Strata::shares(const double *D, double Spare, double Sum,
               std::uint64_t *Share) const {
  for (std::uint64_t H = 0, End = Nhcube; H < End; ++H)
    Share[H] = std::uint64_t(std::floor(Spare * (D[H] / Sum)));
}

void Strata::resetUniform() {
  // Integer arithmetic: neval (1/N_h) in floating point can fall just
  // below a whole number.
  auto NH = std::max<std::uint64_t>(MinNevalHcube, Neval / Nhcube);
  Offsets.resize(Nhcube + 1);
  for (std::uint64_t H = 0; H <= Nhcube; ++H)
    Offsets[H] = H * NH;
}

bool Strata::restoreOffsets(std::span<const std::uint64_t> O) {
  if (O.size() != Nhcube + 1 || O[0] != 0)
    return false;
  for (std::uint64_t H = 0; H < Nhcube; ++H)
    if (O[H + 1] < O[H] || O[H + 1] - O[H] < MinNevalHcube)
      return false;
  Offsets.assign(O.begin(), O.end());
  return true;
}

/// adapt()'s first pass for the default beta = 3/4, on the widest vectors
/// the CPU has (chosen at load time; the loop has no branch, so it
/// vectorizes): d_h = powTo40Bits(sigf_h, 3/4) wherever that needs no pow,
/// else -1 (no d_h is negative) for the second pass to fill. The same
/// operations as varianceHcube and powTo40Bits, so the same bits.
__attribute__((target_clones("avx512f", "avx2", "default"))) void
Strata::dampThreeQuarters(double *D) const {
#pragma clang fp contract(off)
  const double NhVol = double(Nhcube);
  const Moment *M = Moments.data();
  const std::uint64_t *O = Offsets.data();
  // A local count: the stores through D could alias the member, which
  // would hide the trip count from the vectorizer.
  for (std::uint64_t H = 0, End = Nhcube; H < End; ++H) {
    const double N = M[H].N;
    const double Var = N < 2 ? 0.0 : M[H].M2 / (NhVol * NhVol * N * (N - 1));
    const double Sigf =
        __builtin_elementwise_sqrt(Var * double(O[H + 1] - O[H]));
    bool Exact;
    const double R = threeQuartersTo40Bits(Sigf, Exact);
    D[H] = Sigf == 0 ? 0.0 : Exact ? R : -1.0;
  }
}

void Strata::adapt() {
  if (Beta == 0)
    return resetUniform();
  std::vector<double> &D = Damped;
  D.resize(Nhcube);
  if (Beta == 0.75)
    dampThreeQuarters(D.data());
  double Sum = 0;
  for (std::uint64_t H = 0; H < Nhcube; ++H) {
    if (Beta != 0.75 || D[H] < 0)
      D[H] = powTo40Bits(std::sqrt(varianceHcube(H) * double(nevalHcube(H))),
                         Beta);
    Sum += D[H];
  }
  if (!(Sum > 0) || !std::isfinite(Sum))
    return resetUniform();
  allocate(D, Sum);
}
