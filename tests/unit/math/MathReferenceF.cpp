//===- tests/unit/math/MathReferenceF.cpp - MPFR harness, floats ----------===//
//
// The float function table, ulp metric and sampler declared in
// MathReferenceF.h. Inputs are drawn as in MathReference.cpp (as doubles,
// then rounded to float); references are computed by MPFR at 100 bits and
// rounded to binary32 with its subnormal range; the error is measured in
// ulps of the exact value's float binade (2^-149 below 2^-126, 2^104
// beyond FLT_MAX).
//
//===----------------------------------------------------------------------===//

#include "MathReferenceF.h"

#include "vfmath.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

namespace vf::mathtest {

namespace {

constexpr mpfr_prec_t Prec = 100;
constexpr float Inf = std::numeric_limits<float>::infinity();
constexpr float NaN = std::numeric_limits<float>::quiet_NaN();
constexpr float Tiny = 0x1p-149f;
constexpr float Max = std::numeric_limits<float>::max();

using Extras = std::vector<std::pair<float, float>>;

Extras commonSpecials() {
  Extras V;
  for (float X : {0.0f, -0.0f, Inf, -Inf, NaN, 1.0f, -1.0f, Tiny, -Tiny,
                  0x1p-126f, -0x1p-126f, Max, -Max, 0.5f, -0.5f, 2.0f, -2.0f})
    V.push_back({X, 0.0f});
  return V;
}

Extras powSpecials() {
  Extras V;
  const float Xs[] = {0.0f,  -0.0f, Inf,   -Inf, NaN,   1.0f, -1.0f, 0.5f,
                      -0.5f, 2.0f,  -2.0f, Tiny, -Tiny, Max,  -Max};
  const float Ys[] = {0.0f,  -0.0f,   Inf,         -Inf,  NaN,   1.0f,
                      -1.0f, 2.0f,    -2.0f,       3.0f,  -3.0f, 0.5f,
                      -0.5f, 0x1p24f, 0x1p24f + 2, 1e30f, -1e30f};
  for (float X : Xs)
    for (float Y : Ys)
      V.push_back({X, Y});
  // Exact powers.
  for (auto [X, Y] : {std::pair{2.0f, 3.0f},
                      {10.0f, 5.0f},
                      {3.0f, 10.0f},
                      {-3.0f, 3.0f},
                      {0.5f, 20.0f},
                      {2.0f, -149.0f}})
    V.push_back({X, Y});
  return V;
}

Extras atan2Specials() {
  Extras V;
  const float Vs[] = {0.0f,  -0.0f, Inf,   -Inf, NaN, 1.0f,
                      -1.0f, Tiny,  -Tiny, Max,  -Max};
  for (float Y : Vs)
    for (float X : Vs)
      V.push_back({Y, X});
  return V;
}

FunctionSpecF one(const char *Name, float (*F)(float), double MaxUlp,
                  std::vector<Domain> D, Extras Extra = {}) {
  Extras E = commonSpecials();
  E.insert(E.end(), Extra.begin(), Extra.end());
  return {Name, 1, F, nullptr, MaxUlp, std::move(D), std::move(E)};
}

// Arguments near multiples of pi/2 and the edges of the inline reduction:
// the floats closest to a multiple of pi/2 below 2^17 (0x1.f9cbe2p+7,
// within 2^-28.5 of one in units of pi/2) and above (0x1.f37c8ap+95,
// 2^-29.9), found by scanning every float with an integer Payne-Hanek.
Extras trigHard() {
  Extras V;
  for (float X : {0x1.921fb6p0f, 0x1.921fb6p1f, 0x1.2d97c8p2f, 0x1.921fb6p2f,
                  1e5f, 0x1p-12f, 0x1p-13f, 0x1.fffffep16f, 0x1p17f, -0x1p17f,
                  0x1.000002p17f, 1e38f, -1e38f, 0x1.f9cbe2p+7f,
                  -0x1.f9cbe2p+7f, 0x1.f37c8ap+95f, -0x1.f37c8ap+95f})
    V.push_back({X, 0.0f});
  return V;
}

std::vector<FunctionSpecF> makeTableF() {
  using S = Sampling;
  std::vector<FunctionSpecF> T;
  T.push_back(one(
      "exp", vf_expf, 1,
      {{S::Uniform, -104, 89}, {S::Uniform, -1, 1}, {S::Exponent, Tiny, 104}},
      {{0x1.62e42ep6f, 0},
       {0x1.62e430p6f, 0},
       {-103.97f, 0},
       {-103.98f, 0},
       {-87.33f, 0},
       {-100, 0}}));
  T.push_back(
      one("expm1", vf_expm1f, 1,
          {{S::Uniform, -20, 89}, {S::Uniform, -1, 1}, {S::Exponent, Tiny, 89}},
          {{0x1.62e42ep6f, 0}, {0x1.62e430p6f, 0}, {-17, 0}, {-100, 0}}));
  T.push_back(one("log", vf_logf, 1,
                  {{S::Uniform, 0, 10},
                   {S::Uniform, 0.9, 1.1},
                   {S::PosExponent, Tiny, Max}}));
  T.push_back(one("log1p", vf_log1pf, 1,
                  {{S::Uniform, -1, 10},
                   {S::Uniform, -0.1, 0.1},
                   {S::Exponent, Tiny, 1},
                   {S::PosExponent, 1, Max}},
                  {{-0x1.fffffep-1f, 0}}));
  T.push_back(one("log10", vf_log10f, 1,
                  {{S::Uniform, 0, 10},
                   {S::Uniform, 0.9, 1.1},
                   {S::PosExponent, Tiny, Max}},
                  {{10, 0}, {100, 0}, {1e10f, 0}, {1e-30f, 0}}));
  T.push_back({"pow",
               2,
               nullptr,
               vf_powf,
               2,
               {{S::PowLog, Tiny, Max, -104, 89},
                {S::PowLog, 0.5, 2, -104, 89},
                {S::Uniform, 0, 10, -20, 20},
                {S::PowNegInt, -10, 0, -40, 40}},
               powSpecials()});
  T.push_back(one("sqrt", vf_sqrtf, 0.5,
                  {{S::PosExponent, Tiny, Max}, {S::Uniform, 0, 4}}));
  T.push_back(one("cbrt", vf_cbrtf, 1,
                  {{S::Exponent, Tiny, Max}, {S::Uniform, -8, 8}},
                  {{8, 0}, {27, 0}, {-1000, 0}}));
  for (auto [Name, F] : {std::pair{"sin", &vf_sinf}, std::pair{"cos", &vf_cosf},
                         std::pair{"tan", &vf_tanf}})
    T.push_back(one(Name, F, 1,
                    {{S::Uniform, -10, 10},
                     {S::Uniform, -1e5, 1e5},
                     {S::Exponent, Tiny, Max},
                     {S::Exponent, 0x1p15, 0x1p19}},
                    trigHard()));
  T.push_back(
      one("asin", vf_asinf, 1, {{S::Uniform, -1, 1}, {S::Exponent, Tiny, 1}}));
  T.push_back(
      one("acos", vf_acosf, 1, {{S::Uniform, -1, 1}, {S::Exponent, Tiny, 1}}));
  T.push_back(one("atan", vf_atanf, 1,
                  {{S::Uniform, -10, 10}, {S::Exponent, Tiny, Max}}));
  T.push_back({"atan2",
               2,
               nullptr,
               vf_atan2f,
               1,
               {{S::Uniform, -10, 10, -10, 10}, {S::Exponent2, Tiny, Max}},
               atan2Specials()});
  for (auto [Name, F] :
       {std::pair{"sinh", &vf_sinhf}, std::pair{"cosh", &vf_coshf}})
    T.push_back(one(
        Name, F, 1,
        {{S::Uniform, -90, 90}, {S::Uniform, -2, 2}, {S::Exponent, Tiny, 90}},
        {{0x1.65a9f8p6f, 0}, {0x1.65a9fap6f, 0}}));
  T.push_back(one(
      "tanh", vf_tanhf, 1,
      {{S::Uniform, -10, 10}, {S::Uniform, -1, 1}, {S::Exponent, Tiny, 20}}));
  T.push_back(
      one("erf", vf_erff, 2,
          {{S::Uniform, -4, 4}, {S::Uniform, -1, 1}, {S::Exponent, Tiny, 12}}));
  T.push_back(
      one("erfc", vf_erfcf, 2,
          {{S::Uniform, -4, 11}, {S::Uniform, -1, 1}, {S::Exponent, Tiny, 12}},
          {{10.05f, 0}, {10.0546f, 0}, {-4, 0}}));
  for (auto [Name, F] :
       {std::pair{"floor", &vf_floorf}, std::pair{"ceil", &vf_ceilf},
        std::pair{"fabs", &vf_fabsf}})
    T.push_back(one(Name, F, 0,
                    {{S::Uniform, -100, 100}, {S::Exponent, Tiny, Max}},
                    {{-0.5f, 0}, {0.5f, 0}, {0x1p23f + 0.5f, 0}}));
  return T;
}

// The exact value rounded to binary32, subnormals included.
float roundToFloat(mpfr_srcptr Ref, bool *Inexact) {
  mpfr_t Rd;
  mpfr_init2(Rd, 24);
  mpfr_exp_t OldMin = mpfr_get_emin(), OldMax = mpfr_get_emax();
  mpfr_set_emin(-148);
  mpfr_set_emax(128);
  int Ternary = mpfr_set(Rd, Ref, MPFR_RNDN);
  Ternary = mpfr_check_range(Rd, Ternary, MPFR_RNDN);
  Ternary = mpfr_subnormalize(Rd, Ternary, MPFR_RNDN);
  float Want = mpfr_get_flt(Rd, MPFR_RNDN);
  mpfr_set_emin(OldMin);
  mpfr_set_emax(OldMax);
  *Inexact = Ternary != 0 || mpfr_cmp(Rd, Ref) != 0;
  mpfr_clear(Rd);
  return Want;
}

} // namespace

void PrintTo(const FunctionSpecF &F, std::ostream *OS) { *OS << F.Name << "f"; }

const std::vector<FunctionSpecF> &allFunctionsF() {
  static const std::vector<FunctionSpecF> Table = makeTableF();
  return Table;
}

double ulpErrorF(const FunctionSpecF &F, float X, float Y, float Got,
                 bool *Exact) {
  mpfr_t MX, MY, Ref, Diff;
  mpfr_inits2(Prec, MX, MY, Ref, Diff, (mpfr_ptr) nullptr);
  mpfr_set_flt(MX, X, MPFR_RNDN);
  mpfr_set_flt(MY, Y, MPFR_RNDN);
  int RefTernary = evalReference(F.Name, F.Arity, Ref, MX, MY);
  bool Inexact;
  float Want = roundToFloat(Ref, &Inexact);
  if (Exact)
    *Exact = RefTernary == 0 && !Inexact;

  // Infinite, NaN and zero results must match bit for bit; everything else
  // is measured.
  double Err;
  bool SameBits = std::memcmp(&Want, &Got, sizeof Got) == 0;
  bool Special = std::isnan(Want) || std::isnan(Got) || std::isinf(Got) ||
                 mpfr_inf_p(Ref) || mpfr_zero_p(Ref) || (Got == 0 && Want == 0);
  if (Special)
    Err = (SameBits || (std::isnan(Want) && std::isnan(Got)))
              ? 0
              : std::numeric_limits<double>::infinity();
  else {
    mpfr_sub_d(Diff, Ref, Got, MPFR_RNDN);
    mpfr_abs(Diff, Diff, MPFR_RNDN);
    long UlpExp = std::clamp<long>(mpfr_get_exp(Ref) - 24, -149, 104);
    mpfr_mul_2si(Diff, Diff, -UlpExp, MPFR_RNDN);
    Err = mpfr_get_d(Diff, MPFR_RNDU);
  }
  mpfr_clears(MX, MY, Ref, Diff, (mpfr_ptr) nullptr);
  return Err;
}

Measurement measureF(const FunctionSpecF &F, uint64_t PerDomain,
                     uint64_t Seed) {
  Measurement M;
  auto Eval = [&](float X, float Y) {
    float Got = F.Arity == 1 ? F.F1(X) : F.F2(X, Y);
    bool Exact = false;
    double E = ulpErrorF(F, X, Y, Got, &Exact);
    ++M.Count;
    if (Exact && E != 0 && M.ExactMisses++ == 0) {
      M.MissX = X;
      M.MissY = Y;
    }
    if (E > M.MaxUlp || std::isnan(E)) {
      M.MaxUlp = std::isnan(E) ? std::numeric_limits<double>::infinity() : E;
      M.WorstX = X;
      M.WorstY = Y;
    }
  };
  std::mt19937_64 G(Seed);
  for (const Domain &D : F.Domains)
    for (uint64_t I = 0; I < PerDomain; ++I) {
      auto [X, Y] = drawInput(G, D);
      Eval((float)X, (float)Y);
    }
  for (auto [X, Y] : F.Extra)
    Eval(X, Y);
  return M;
}

} // namespace vf::mathtest
