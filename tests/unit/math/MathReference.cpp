//===- tests/unit/math/MathReference.cpp - MPFR accuracy harness ----------===//
//
// The function table, the samplers and the ulp metric declared in
// MathReference.h. References are computed by MPFR at 160 bits, far beyond
// what is needed to place a double within a fraction of an ulp; the error is
// measured in ulps of the exact value's binade (2^-1074 in the subnormal
// range, 2^971 beyond DBL_MAX).
//
//===----------------------------------------------------------------------===//

#include "MathReference.h"

#include "vfmath.h"

#include <cmath>
#include <cstring>
#include <limits>
#include <mpfr.h>
#include <random>

namespace vf::mathtest {

namespace {

constexpr mpfr_prec_t Prec = 160;
constexpr double Inf = std::numeric_limits<double>::infinity();
constexpr double NaN = std::numeric_limits<double>::quiet_NaN();
constexpr double Tiny = 0x1p-1074;
constexpr double Max = std::numeric_limits<double>::max();

using Mpfr1 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using Mpfr2 = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

struct RefEntry {
  const char *Name;
  Mpfr1 R1;
  Mpfr2 R2;
};

int refFloor(mpfr_ptr R, mpfr_srcptr X, mpfr_rnd_t) { return mpfr_floor(R, X); }
int refCeil(mpfr_ptr R, mpfr_srcptr X, mpfr_rnd_t) { return mpfr_ceil(R, X); }

const RefEntry Refs[] = {
    {"exp", mpfr_exp, nullptr},     {"expm1", mpfr_expm1, nullptr},
    {"log", mpfr_log, nullptr},     {"log1p", mpfr_log1p, nullptr},
    {"log10", mpfr_log10, nullptr}, {"pow", nullptr, mpfr_pow},
    {"sqrt", mpfr_sqrt, nullptr},   {"cbrt", mpfr_cbrt, nullptr},
    {"sin", mpfr_sin, nullptr},     {"cos", mpfr_cos, nullptr},
    {"tan", mpfr_tan, nullptr},     {"asin", mpfr_asin, nullptr},
    {"acos", mpfr_acos, nullptr},   {"atan", mpfr_atan, nullptr},
    {"atan2", nullptr, mpfr_atan2}, {"sinh", mpfr_sinh, nullptr},
    {"cosh", mpfr_cosh, nullptr},   {"tanh", mpfr_tanh, nullptr},
    {"erf", mpfr_erf, nullptr},     {"erfc", mpfr_erfc, nullptr},
    {"floor", refFloor, nullptr},   {"ceil", refCeil, nullptr},
    {"fabs", mpfr_abs, nullptr},
};

const RefEntry &refFor(const char *Name) {
  for (const RefEntry &R : Refs)
    if (std::string(R.Name) == Name)
      return R;
  std::abort();
}

// Inputs every function sees exactly (special values).
std::vector<std::pair<double, double>> commonSpecials() {
  std::vector<std::pair<double, double>> V;
  for (double X : {0.0, -0.0, Inf, -Inf, NaN, 1.0, -1.0, Tiny, -Tiny,
                   0x1p-1022, -0x1p-1022, Max, -Max, 0.5, -0.5, 2.0, -2.0})
    V.push_back({X, 0.0});
  return V;
}

std::vector<std::pair<double, double>> powSpecials() {
  std::vector<std::pair<double, double>> V;
  const double Xs[] = {0.0, -0.0, Inf, -Inf, NaN, 1.0, -1.0, 0.5, -0.5, 2.0,
                       -2.0, Tiny, -Tiny, Max, -Max};
  const double Ys[] = {0.0, -0.0, Inf, -Inf, NaN, 1.0, -1.0, 2.0, -2.0, 3.0,
                       -3.0, 0.5, -0.5, 0x1p53, 0x1p53 + 2, 1e300, -1e300};
  for (double X : Xs)
    for (double Y : Ys)
      V.push_back({X, Y});
  return V;
}

std::vector<std::pair<double, double>> atan2Specials() {
  std::vector<std::pair<double, double>> V;
  const double Vs[] = {0.0, -0.0, Inf, -Inf, NaN, 1.0, -1.0, Tiny, -Tiny,
                       Max, -Max};
  for (double Y : Vs)
    for (double X : Vs)
      V.push_back({Y, X});
  return V;
}

FunctionSpec one(const char *Name, double (*F)(double), double MaxUlp,
                 std::vector<Domain> D,
                 std::vector<std::pair<double, double>> Extra = {}) {
  std::vector<std::pair<double, double>> E = commonSpecials();
  E.insert(E.end(), Extra.begin(), Extra.end());
  return {Name, 1, F, nullptr, MaxUlp, std::move(D), std::move(E)};
}

std::vector<FunctionSpec> makeTable() {
  using S = Sampling;
  const double Pi = 3.141592653589793;
  std::vector<FunctionSpec> T;
  T.push_back(one("exp", vf_exp, 1,
                  {{S::Uniform, -746, 710}, {S::Uniform, -1, 1},
                   {S::Exponent, Tiny, 746}},
                  {{709.782712893384, 0}, {709.7827128933841, 0},
                   {-745.1332191019411, 0}, {-745.1332191019412, 0},
                   {-708.4, 0}, {-740, 0}}));
  T.push_back(one("expm1", vf_expm1, 1,
                  {{S::Uniform, -50, 710}, {S::Uniform, -1, 1},
                   {S::Exponent, Tiny, 710}},
                  {{709.782712893384, 0}, {-40, 0}, {-800, 0}}));
  T.push_back(one("log", vf_log, 1,
                  {{S::Uniform, 0, 10}, {S::Uniform, 0.9, 1.1},
                   {S::PosExponent, Tiny, Max}}));
  T.push_back(one("log1p", vf_log1p, 1,
                  {{S::Uniform, -1, 10}, {S::Uniform, -0.1, 0.1},
                   {S::Exponent, Tiny, 1}, {S::PosExponent, 1, Max}},
                  {{-0x1.fffffffffffffp-1, 0}}));
  T.push_back(one("log10", vf_log10, 1,
                  {{S::Uniform, 0, 10}, {S::Uniform, 0.9, 1.1},
                   {S::PosExponent, Tiny, Max}},
                  {{10, 0}, {100, 0}, {1e22, 0}, {1e-300, 0}}));
  {
    FunctionSpec P{"pow", 2, nullptr, vf_pow, 2,
                   {{S::PowLog, 0x1p-1074, Max, -745, 709},
                    {S::PowLog, 0.5, 2, -745, 709},
                    {S::Uniform, 0, 10, -20, 20},
                    {S::PowNegInt, -10, 0, -300, 300}},
                   powSpecials()};
    T.push_back(std::move(P));
  }
  T.push_back(one("sqrt", vf_sqrt, 0.5,
                  {{S::PosExponent, Tiny, Max}, {S::Uniform, 0, 4}}));
  T.push_back(one("cbrt", vf_cbrt, 1,
                  {{S::Exponent, Tiny, Max}, {S::Uniform, -8, 8}}));
  const std::vector<std::pair<double, double>> TrigHard = {
      {0x1.6ac5b262ca1ffp849, 0}, // 6381956970095103 * 2^797: the worst case
      {Pi, 0}, {Pi / 2, 0}, {1e5, 0}, {1e22, 0}, {0x1p-28, 0}, {0x1p-27, 0},
      // The worst cases of the Cody-Waite range |x| < 2^30 (29 pi/2 and
      // 9206271 pi/2 within 2^-60.5 and 2^-59), and its edges.
      {0x1.6c6cbc45dc8dep+5, 0}, {0x1.b951f1572eba5p+23, 0},
      {0x1.fffffffffffffp+29, 0}, {0x1p30, 0}, {-0x1p30, 0},
      {0x1.0000000000001p+30, 0}, {1e300, 0}, {-1e300, 0}};
  for (auto [Name, F] : {std::pair{"sin", &vf_sin}, std::pair{"cos", &vf_cos},
                         std::pair{"tan", &vf_tan}})
    T.push_back(one(Name, F, 1,
                    {{S::Uniform, -10, 10}, {S::Uniform, -1e5, 1e5},
                     {S::Exponent, Tiny, Max}, {S::Exponent, 0x1p28, 0x1p32}},
                    TrigHard));
  T.push_back(one("asin", vf_asin, 1,
                  {{S::Uniform, -1, 1}, {S::Exponent, Tiny, 1}}));
  T.push_back(one("acos", vf_acos, 1,
                  {{S::Uniform, -1, 1}, {S::Exponent, Tiny, 1}}));
  T.push_back(one("atan", vf_atan, 1,
                  {{S::Uniform, -10, 10}, {S::Exponent, Tiny, Max}}));
  {
    FunctionSpec A{"atan2", 2, nullptr, vf_atan2, 1,
                   {{S::Uniform, -10, 10, -10, 10},
                    {S::Exponent2, Tiny, Max}},
                   atan2Specials()};
    T.push_back(std::move(A));
  }
  T.push_back(one("sinh", vf_sinh, 1,
                  {{S::Uniform, -711, 711}, {S::Uniform, -2, 2},
                   {S::Exponent, Tiny, 711}},
                  {{710.4758600739439, 0}, {710.475860073944, 0}}));
  T.push_back(one("cosh", vf_cosh, 1,
                  {{S::Uniform, -711, 711}, {S::Uniform, -2, 2},
                   {S::Exponent, Tiny, 711}},
                  {{710.4758600739439, 0}, {710.475860073944, 0}}));
  T.push_back(one("tanh", vf_tanh, 1,
                  {{S::Uniform, -20, 20}, {S::Uniform, -1, 1},
                   {S::Exponent, Tiny, 40}}));
  T.push_back(one("erf", vf_erf, 2,
                  {{S::Uniform, -6, 6}, {S::Uniform, -1, 1},
                   {S::Exponent, Tiny, 30}}));
  T.push_back(one("erfc", vf_erfc, 2,
                  {{S::Uniform, -6, 28}, {S::Uniform, -1, 1},
                   {S::Exponent, Tiny, 30}},
                  {{27.2, 0}, {26.5, 0}, {-6, 0}}));
  for (auto [Name, F] : {std::pair{"floor", &vf_floor},
                         std::pair{"ceil", &vf_ceil},
                         std::pair{"fabs", &vf_fabs}})
    T.push_back(one(Name, F, 0,
                    {{S::Uniform, -100, 100}, {S::Exponent, Tiny, Max}},
                    {{-0.5, 0}, {0.5, 0}, {0x1p52 + 0.5, 0}}));
  return T;
}

double expUniform(std::mt19937_64 &G, double Lo, double Hi) {
  std::uniform_real_distribution<double> E(std::log2(Lo), std::log2(Hi));
  std::uniform_real_distribution<double> M(1.0, 2.0);
  double X = std::ldexp(M(G), (int)std::floor(E(G)));
  return std::fmin(std::fmax(X, Lo), Hi);
}

} // namespace

std::pair<double, double> drawInput(std::mt19937_64 &G, const Domain &D) {
  std::uniform_real_distribution<double> UX(D.Lo, D.Hi), UY(D.YLo, D.YHi);
  std::bernoulli_distribution Coin;
  switch (D.Kind) {
  case Sampling::Uniform:
    return {UX(G), D.YLo < D.YHi ? UY(G) : 0.0};
  case Sampling::Exponent: {
    double X = expUniform(G, D.Lo, D.Hi);
    return {Coin(G) ? -X : X, 0.0};
  }
  case Sampling::PosExponent:
    return {expUniform(G, D.Lo, D.Hi), 0.0};
  case Sampling::PowLog: {
    double X = expUniform(G, D.Lo, D.Hi);
    double L = std::log(X);
    return {X, L == 0 ? UY(G) : UY(G) / L};
  }
  case Sampling::PowNegInt:
    return {UX(G), std::nearbyint(UY(G))};
  case Sampling::Exponent2: {
    double Y = expUniform(G, D.Lo, D.Hi), X = expUniform(G, D.Lo, D.Hi);
    return {Coin(G) ? -Y : Y, Coin(G) ? -X : X};
  }
  }
  return {0, 0};
}

int evalReference(const char *Name, int Arity, mpfr_ptr R, mpfr_srcptr X,
                  mpfr_srcptr Y) {
  const RefEntry &E = refFor(Name);
  return Arity == 1 ? E.R1(R, X, MPFR_RNDN) : E.R2(R, X, Y, MPFR_RNDN);
}

void PrintTo(const FunctionSpec &F, std::ostream *OS) { *OS << F.Name; }

const std::vector<FunctionSpec> &allFunctions() {
  static const std::vector<FunctionSpec> Table = makeTable();
  return Table;
}

double ulpError(const FunctionSpec &F, double X, double Y, double Got,
                bool *Exact) {
  mpfr_t MX, MY, Ref, Diff;
  mpfr_inits2(Prec, MX, MY, Ref, Diff, (mpfr_ptr) nullptr);
  mpfr_set_d(MX, X, MPFR_RNDN);
  mpfr_set_d(MY, Y, MPFR_RNDN);
  int RefTernary = evalReference(F.Name, F.Arity, Ref, MX, MY);
  // Round the exact value to double, subnormals included.
  mpfr_t Rd;
  mpfr_init2(Rd, 53);
  mpfr_exp_t OldMin = mpfr_get_emin(), OldMax = mpfr_get_emax();
  mpfr_set_emin(-1073);
  mpfr_set_emax(1024);
  int Ternary = mpfr_set(Rd, Ref, MPFR_RNDN);
  Ternary = mpfr_check_range(Rd, Ternary, MPFR_RNDN);
  Ternary = mpfr_subnormalize(Rd, Ternary, MPFR_RNDN);
  double Want = mpfr_get_d(Rd, MPFR_RNDN);
  mpfr_set_emin(OldMin);
  mpfr_set_emax(OldMax);
  if (Exact)
    *Exact = RefTernary == 0 && Ternary == 0 && mpfr_cmp(Rd, Ref) == 0;
  mpfr_clear(Rd);

  // Infinite, NaN and zero results (and zeros of either sign) must match
  // exactly; everything else is measured, correctly rounded or not.
  double Err;
  bool SameBits = std::memcmp(&Want, &Got, sizeof Got) == 0;
  bool Special = std::isnan(Want) || std::isnan(Got) || std::isinf(Got) ||
                 mpfr_inf_p(Ref) || mpfr_zero_p(Ref) ||
                 (Got == 0 && Want == 0);
  if (Special)
    Err = (SameBits || (std::isnan(Want) && std::isnan(Got))) ? 0 : Inf;
  else {
    mpfr_sub_d(Diff, Ref, Got, MPFR_RNDN);
    mpfr_abs(Diff, Diff, MPFR_RNDN);
    // Ulp of the exact value's binade: |Ref| in [2^(E-1), 2^E).
    long E = mpfr_get_exp(Ref);
    long UlpExp = E - 53;
    if (UlpExp < -1074)
      UlpExp = -1074;
    if (UlpExp > 971)
      UlpExp = 971;
    mpfr_mul_2si(Diff, Diff, -UlpExp, MPFR_RNDN);
    Err = mpfr_get_d(Diff, MPFR_RNDU);
  }
  mpfr_clears(MX, MY, Ref, Diff, (mpfr_ptr) nullptr);
  return Err;
}

Measurement measure(const FunctionSpec &F, uint64_t PerDomain, uint64_t Seed) {
  Measurement M;
  auto Eval = [&](double X, double Y) {
    double Got = F.Arity == 1 ? F.F1(X) : F.F2(X, Y);
    bool Exact = false;
    double E = ulpError(F, X, Y, Got, &Exact);
    ++M.Count;
    if (Exact && E != 0 && M.ExactMisses++ == 0) {
      M.MissX = X;
      M.MissY = Y;
    }
    if (E > M.MaxUlp || std::isnan(E)) {
      M.MaxUlp = std::isnan(E) ? Inf : E;
      M.WorstX = X;
      M.WorstY = Y;
    }
  };
  std::mt19937_64 G(Seed);
  for (const Domain &D : F.Domains)
    for (uint64_t I = 0; I < PerDomain; ++I) {
      auto [X, Y] = drawInput(G, D);
      Eval(X, Y);
    }
  for (auto [X, Y] : F.Extra)
    Eval(X, Y);
  return M;
}

} // namespace vf::mathtest
