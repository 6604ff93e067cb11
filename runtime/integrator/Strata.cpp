//===- runtime/integrator/Strata.cpp - VEGAS+ stratification --------------===//
//
// Hypercube geometry, the sigf^beta allocation and the per-hypercube
// moments; see the header for the formulas.
//
//===----------------------------------------------------------------------===//
#include "integrator/Strata.h"

#include <algorithm>
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
  std::uint64_t Limit =
      std::min(neval / 4, std::max<std::uint64_t>(1, maxHcube));
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

Strata::Strata(unsigned dim, std::uint64_t neval, double beta,
               std::uint64_t maxHcube)
    : Dim(dim), Neval(neval), Beta(beta),
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

double Strata::powTo40Bits(double x, double beta) {
  // A hypercube where f is constant, or zero (outside a cut): pow(±0, beta)
  // is +0 for every beta > 0 (adapt() handles beta = 0), without a call.
  if (x == 0 && beta > 0)
    return 0.0;
  // The default beta = 3/4 without pow, which was the largest cost of an
  // iteration's host work at d = 4 (14% of a run): c = sqrt(x) sqrt(sqrt
  // x) is within 3.5 ulp of x^(3/4) (three correctly rounded operations)
  // and pow within 1, so unless c lies within 16 ulp of a midpoint between
  // 40-bit neighbours, no rounding boundary separates them and both round
  // to the same 40 bits. The rest (about 1 in 128) takes pow.
  if (beta == 0.75 && x > 0 && std::isnormal(x)) {
    const double S = std::sqrt(x), C = S * std::sqrt(S);
    std::uint64_t Bits;
    std::memcpy(&Bits, &C, sizeof Bits);
    const std::int64_t Drop = std::int64_t(Bits & 0x1fff);
    if (std::isnormal(C) && (Drop - 0x1000 > 16 || 0x1000 - Drop > 16))
      return roundTo40Bits(C);
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
  for (std::uint64_t H = 0; H < Nhcube; ++H) {
    auto Share = std::uint64_t(std::floor(Spare * (D[H] / Sum)));
    Offsets[H + 1] = Offsets[H] + MinNevalHcube + Share;
  }
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

void Strata::adapt() {
  if (Beta == 0)
    return resetUniform();
  std::vector<double> &D = Damped;
  D.resize(Nhcube);
  double Sum = 0;
  for (std::uint64_t H = 0; H < Nhcube; ++H) {
    double Sigf = std::sqrt(varianceHcube(H) * double(nevalHcube(H)));
    D[H] = powTo40Bits(Sigf, Beta);
    Sum += D[H];
  }
  if (!(Sum > 0) || !std::isfinite(Sum))
    return resetUniform();
  allocate(D, Sum);
}
