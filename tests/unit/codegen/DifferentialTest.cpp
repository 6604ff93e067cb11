//===- tests/unit/codegen/DifferentialTest.cpp - JIT vs tree walk ---------===//
//
// The differential test of the issue: for every source of
// known_integrals.toml (and a few more that reach every built-in, every
// operator and NaN), the JIT-compiled batch entry point and the front end's
// reference evaluator agree at a few hundred random points of the domain
// (fixed seed) and at its corners: within 2 ulp per built-in call site (each
// side rounds each call at most about one ulp, in different ways), NaN
// exactly where the evaluator gives NaN, and bit for bit when the
// expression calls nothing (plain IEEE arithmetic, no fast-math, no
// contraction).
//
//===----------------------------------------------------------------------===//

#include "DifferentialTest.h"

#include <cmath>
#include <random>

using namespace vf;
using namespace vf::test;

Compiler *DifferentialTest::TheCompiler = nullptr;

/// Each output component's call sites in \p Bd (\p Outputs of them): a
/// literal's components count their own sites; any other array result
/// counts all of them for each component.
static std::vector<unsigned> bodySites(const Body &Bd, unsigned Outputs) {
  unsigned LetSites = 0;
  for (const auto &L : Bd.Lets)
    LetSites += countMathSites(*L->Value);
  std::vector<unsigned> Sites;
  const auto *V = dynCast<VectorExpr>(Bd.Result.get());
  if (V && V->Elements.size() == Outputs)
    for (const ExprPtr &E : V->Elements)
      Sites.push_back(LetSites + countMathSites(*E));
  else
    Sites.assign(Outputs, LetSites + countMathSites(*Bd.Result));
  return Sites;
}

/// \p I's call sites per component; a multi-channel integrand's are its
/// channels' together (its value is their sum, with no cancellation in the
/// sources below).
static std::vector<unsigned> toleranceSites(const IntegrandDecl &I) {
  if (I.Channels.empty())
    return bodySites(I.B, I.Outputs);
  std::vector<unsigned> Sites(I.Outputs, 0);
  for (const auto &C : I.Channels) {
    std::vector<unsigned> One = bodySites(C->B, I.Outputs);
    for (unsigned K = 0; K < I.Outputs; ++K)
      Sites[K] += One[K];
  }
  return Sites;
}

/// The corners lo and hi, the centre, then random points, one after another.
static std::vector<double> testPoints(const std::vector<double> &Lo,
                                      const std::vector<double> &Hi,
                                      std::mt19937_64 &Rng) {
  const size_t Dim = Lo.size();
  std::vector<double> Xs(Lo);
  Xs.insert(Xs.end(), Hi.begin(), Hi.end());
  for (size_t K = 0; K < Dim; ++K)
    Xs.push_back(0.5 * (Lo[K] + Hi[K]));
  for (unsigned N = 0; N < RandomPoints; ++N)
    for (size_t K = 0; K < Dim; ++K)
      Xs.push_back(uniform(Rng, Lo[K], Hi[K]));
  return Xs;
}

void DifferentialTest::checkSource(const std::string &Name,
                                   const std::string &Source,
                                   std::vector<double> Params) {
  SCOPED_TRACE("source " + Name);
  std::string Errors;
  std::unique_ptr<Program> P = loadProgram(Source, &Errors);
  ASSERT_TRUE(P) << Errors;
  if (Params.empty())
    Params = P->defaultParams();
  ASSERT_EQ(Params.size(), P->Params.size());

  CompileOptions O;
  O.UseCache = false;
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());

  std::mt19937_64 Rng(Seed);
  for (const IntegrandDecl *I : P->Integrands) {
    SCOPED_TRACE("integrand " + I->Name);
    const CompiledIntegrand *CI = (*CM)->find(I->Name);
    ASSERT_NE(CI, nullptr);
    ASSERT_NE(CI->Batch, nullptr);
    EXPECT_EQ(CI->Dim, I->Dim);
    EXPECT_EQ(CI->Outputs, I->Outputs);

    Evaluator Ev(Params);
    std::vector<double> Lo, Hi;
    Ev.evalDomain(*I, Lo, Hi);
    ASSERT_EQ(Lo.size(), I->Dim);

    std::vector<double> Xs = testPoints(Lo, Hi, Rng);
    size_t NPoints = Xs.size() / I->Dim;

    // One batch call over all points: the vectorized loop and its tail.
    std::vector<double> Out(NPoints * I->Outputs, -12345.0);
    CI->Batch(Xs.data(), static_cast<int64_t>(NPoints), Params.data(),
              Out.data());

    // The tolerance of each component.
    std::vector<unsigned> Sites = toleranceSites(*I);
    ASSERT_EQ(Sites.size(), I->Outputs);

    // Histogram cells: the same whole numbers on both sides, bit for bit.
    const size_t NH = I->Histograms.size();
    std::vector<double> Cells(NPoints * NH, -1.0);
    ASSERT_EQ(CI->Cells != nullptr, NH > 0);
    if (NH)
      CI->Cells(Xs.data(), static_cast<int64_t>(NPoints), Params.data(),
                Cells.data());
    unsigned CellFailures = 0;
    for (size_t N = 0; N < NPoints && NH && CellFailures < 10; ++N) {
      std::vector<double> Want;
      Ev.evalIntegrand(*I, llvm::ArrayRef<double>(&Xs[N * I->Dim], I->Dim),
                       &Want);
      ASSERT_EQ(Want.size(), NH);
      for (size_t H = 0; H < NH; ++H)
        if (Cells[N * NH + H] != Want[H]) {
          ++CellFailures;
          ADD_FAILURE() << "histogram '" << I->Histograms[H]->Name
                        << "' at point " << N << ": JIT cell "
                        << Cells[N * NH + H] << " vs evaluator " << Want[H];
        }
    }
    HistogramsSeen += NH;
    checkWeightEntries(*I, *CI, Ev, Xs, Params);

    unsigned Failures = 0, NaNs = 0;
    std::vector<uint64_t> MaxUlp(I->Outputs, 0);
    for (size_t N = 0; N < NPoints && Failures < 10; ++N) {
      llvm::ArrayRef<double> X(&Xs[N * I->Dim], I->Dim);
      std::vector<double> Want = Ev.evalIntegrand(*I, X);
      ASSERT_EQ(Want.size(), I->Outputs);
      for (unsigned K = 0; K < I->Outputs; ++K) {
        double Got = Out[N * I->Outputs + K];
        uint64_t Tol = 2ull * Sites[K];
        bool Ok;
        if (std::isnan(Want[K])) {
          Ok = std::isnan(Got);
          ++NaNs;
        } else {
          uint64_t D = ulpDistance(Got, Want[K]);
          Ok = D <= Tol;
          if (Ok)
            MaxUlp[K] = std::max(MaxUlp[K], D);
        }
        if (!Ok) {
          ++Failures;
          std::string Point;
          for (double V : X)
            Point += (Point.empty() ? "" : ", ") + std::to_string(V);
          ADD_FAILURE() << "component " << K << " at (" << Point
                        << "): JIT " << Got << " vs evaluator " << Want[K]
                        << " ("
                        << (std::isnan(Got) || std::isnan(Want[K])
                                ? std::string("NaN on one side only")
                                : std::to_string(ulpDistance(Got, Want[K])) +
                                      " ulp apart")
                        << ", allowed " << Tol << " ulp for " << Sites[K]
                        << " call sites)";
        }
      }
    }
    for (unsigned K = 0; K < I->Outputs; ++K)
      RecordProperty(Name + "." + I->Name + "[" + std::to_string(K) +
                         "].max_ulp",
                     std::to_string(MaxUlp[K]) + " of " +
                         std::to_string(2 * Sites[K]));
    NaNsSeen += NaNs;
  }
}

// Every source of the known-integrals file. Built as one test per source
// so that a failure names it.
TEST_F(DifferentialTest, KnownIntegrals) {
  std::vector<KnownIntegral> All = loadKnownIntegrals();
  ASSERT_EQ(All.size(), 16u) << "known_integrals.toml changed; update the "
                                "count here";
  for (const KnownIntegral &K : All)
    checkSource(K.Name, K.Source);
}

// Parameters are read at run time: the same compiled code agrees with the
// evaluator for values other than the defaults.
TEST_F(DifferentialTest, KnownIntegralsWithOtherParameters) {
  for (const KnownIntegral &K : loadKnownIntegrals()) {
    if (K.Name == "lepage4" || K.Name == "lepage8")
      checkSource(K.Name, K.Source, {0.37});
    if (K.Name == "breit_wigner")
      checkSource(K.Name, K.Source, {120.5, 17.25});
  }
}

// Every math built-in, over domains that reach NaN (log, sqrt, asin, acos
// and pow of negative numbers), infinities, overflow and signed zeros. Each
// call is its own output component, so no cancellation between calls
// widens a 1-ulp difference.
TEST_F(DifferentialTest, MathBuiltins) {
  checkSource("builtins", R"(
integrand ex(x in [-800, 800]) -> [3] { return [exp(x), expm1(x / 1000), exp(x / 100) * 2] }
integrand lg(x in [-1, 3]) -> [3] { return [log(x), log1p(x - 0.5), log10(x + 0.25)] }
integrand rt(x in [-1, 1000]) -> [3] { return [sqrt(x), cbrt(x - 500), x^0.5] }
integrand pw(x in [-2, 3]^2) -> [4] { return [pow(x[0], x[1]), x[0]^x[1], x[0]^1.5, pow(abs(x[0]), -x[1] * 100)] }
integrand trig(x in [-40, 40]) -> [3] { return [sin(x), cos(x), tan(x / 3)] }
integrand inv(x in [-1.5, 1.5]^2) -> [4] { return [asin(x[0]), acos(x[1]), atan(x[0] * 9), atan2(x[0], x[1])] }
integrand hyp(x in [-30, 30]) -> [3] { return [sinh(x), cosh(x / 2), tanh(x)] }
integrand er(x in [-6, 6]) -> [2] { return [erf(x), erfc(x)] }
integrand rnd(x in [-4.5, 4.5]) -> [3] { return [floor(x), ceil(x), abs(x)] }
integrand mm(x in [-1, 1]^3) -> [7] {
    return [min(x[0], x[1], x[2]), max(x[0], sqrt(x[1])), max(sqrt(x[1]), x[0]),
            min(log(x[0]), x[2], x[1]), clamp(x[2], -0.5, 0.25), clamp(sqrt(x[1]), -0.5, 0.25),
            max(j in 0..3: sqrt(x[j]))]
}
)");
  // log, sqrt, pow, asin, acos of negative numbers, and min/max/clamp with
  // a NaN operand in either place: the NaN cases were reached (the counts
  // are fixed by the seed).
  EXPECT_GT(NaNsSeen, 500u);
}

// Operators, comparisons and logic, `if` as select and as branch, lets,
// inlined fns, reductions unrolled and as loops, vector outputs, a 1-D
// variable used unindexed, integer powers (binary exponentiation).
TEST_F(DifferentialTest, LanguageConstructs) {
  checkSource("constructs", R"(
param k = 3
param w = 0.25
fn g(u, v) {
    let d = u - v
    return d * d / w
}
integrand ops(x in [-2, 2]^3) -> [5] { return [x[0] + x[1], x[1] * x[2], x[0] / x[1], -x[2], x[0] - x[2]] }
integrand powers(x in [-3, 3]) -> [10] {
    return [x^2, x^3, x^-1, x^-2, x^13, x^0, x^-6, x^-0.5, x^k, x^64]
}
integrand logic(x in [0, 1]^2) =
    if x[0] < 0.5 and not (x[1] >= 0.7 or x[0] == x[1]) then x[0]
    else if x[1] != 0.2 then -x[1] else 7
integrand costly(x in [0, 1]^2) =
    if x[0] <= x[1] then exp(x[0]) * log(x[1]) * sin(x[1]) * cos(x[0])
    else tanh(x[0]) * erf(x[1]) * sqrt(x[1])
integrand fns(x in [0, 1]^2) = g(x[0], x[1]) + g(x[1], 0.5) * k
integrand small(x in [0, 1]^6) -> [3] {
    return [sum(i in 0..6: x[i] * (i + 1)) * prod(i in 0..3: 1 + x[i + 3]), min(i in 0..6: x[i]), max(i in 1..5: x[i] - i)]
}
integrand loops(x in [0, 1]^3) -> [4] {
    return [sum(j in 0..200: exp(-k * sum(i in 0..3: (x[i] - j / 199)^2))),
            prod(j in 0..40: 1 + x[0] / (j + 1)),
            max(j in 0..50: sin(j * x[1])),
            min(j in 3..40: cos(j * x[2]))]
}
integrand vec(x in [0, 2]^2) -> [4] {
    let s = x[0] * x[1]
    let t = exp(-s)
    return [t, t * x[0], s^2 / k, if s > 1 then log(s) else -s]
}
integrand one(t in [-1, 1]) -> [2] { return [t * exp(t), t^2 + w] }
)");
}

// Version 3: complex values, also as constants, fn arguments and results,
// arrays (with '+ - * /' of arrays, real ones mixed in, and slices), and
// sums and products. Arithmetic, conj, re, im, norm and integer
// powers are the same IEEE operations on both sides (ComplexOps.h and
// ComplexGen.cpp), so they agree bit for bit; abs and sqrt call only the
// correctly rounded square root, arg, exp and sqrt's parts the math
// library, within its ulp bounds (the parts of a rotation are shifted
// from 0, which they cross, where an ulp bound on the result means
// nothing). Operands near 1e300 reach the overflow
// that Smith's division and the scaled abs avoid.
TEST_F(DifferentialTest, ComplexValues) {
  checkSource("complex", R"(
const j = complex(0, 1)
const w0 = conj(exp(j * pi / 4)) * 2
fn rot(z: complex, t) -> complex = z * exp(j * t)
fn amps(p: [4], t) -> [3] complex = [complex(p[1], p[2]), exp(j * t), complex(p[0], 0) / (1 + j)]
fn total(c: [3] complex) -> complex = c[0] + c[1] * c[2]
fn mid(c: [4] complex) -> [2] complex = c[1..3] * j
fn neg(c: [2] complex) -> [2] complex = -(c - [1, 2]) * j
integrand arith(x in [-2, 2]^4) -> [8] {
    let z = complex(x[0], x[1])
    let w = complex(x[2], x[3])
    let q = (z * w - 3 * conj(z)) / (w + 0.5) - z / 2 + 2 * z - w * x[0]
    return [re(q), im(q), re(z / w), im(z / w), norm(-z), re(z^5), im(z^-3),
            if z == w or z != conj(z) then re(z^2 / (1 + z)) else 7]
}
integrand big(x in [-1, 1]^2) -> [4] {
    let z = complex(x[0] * 1e300, x[1] * 1e300)
    let w = complex(x[1] * 1e300, 3e299)
    return [abs(z), re(z / w), im(z / w), abs(complex(x[0] * 1e-300, x[1] * 1e-300))]
}
integrand fns(x in [-3, 3]^2) -> [7] {
    let z = complex(x[0], x[1])
    return [abs(z), arg(z), re(exp(z)), im(exp(z)), re(sqrt(z)), im(sqrt(z)),
            if x[0] < 0 then norm(sqrt(-z)) else re(sqrt(complex(x[0], 0)))]
}
integrand fnsum(x in [0, 2]^2) -> [6] {
    let z = rot(complex(x[0], x[1]), x[0])
    let w = sum(k in 1..7: exp(j * k * x[0]))
    let l = sum(k in 0..40: complex(x[1], k) / (k + 1 + j))
    let p = prod(k in 1..5: complex(1, x[0] / k))
    let q = prod(k in 1..30: complex(1, x[1] / k))
    return [re(z) + 4, im(z) + re(w0) + 4, norm(w), re(l), im(p), re(q)]
}
integrand arrays(x in [0, 1]^3) -> [5] {
    let a = amps([1, x[0], x[1], 0.5], x[2])
    let b = -a
    let pick = if x[0] < 0.5 then a else b
    return [re(total(a)) + 4, im(total(b)) + 4, re(sum(k in 0..3: a[k] * conj(b[k]))),
            norm(pick[1] + a[2]), im(sum(k in 0..3: [j, 2 * j, 3 * j][k] * k))]
}
integrand arrayops(x in [-2, 2]^4) -> [10] {
    let z = complex(x[0], x[1])
    let w = complex(x[2], x[3])
    let a = [z, w, z * w, conj(z)]
    let s = a + x - x * w
    let d = x - a / w + z * a / 3
    let m = 2 * a[1..4] / (1 + z) - a[0..3] * x[3] + x[1..4] / z
    let h = mid(d) + mid(-s)
    let pick = if x[0] < x[1] then m[0..2] else h
    return [re(s[0]), im(s[3]), re(d[2]), im(d[1]), re(m[0]), im(m[2]),
            norm(sum(k in 0..4: s[k] - d[k])), re(h[1]), im(pick[0]),
            re(prod(k in 0..3: m[k]))]
}
integrand arraynest(x in [-1, 1]^2) -> [6] {
    let a = [complex(x[0], 1), complex(2, x[1])]
    let b = [a + a, a[0..1], neg(a)[1..2]]
    let c = if x[0] < x[1] then a + x else a * j
    let d = sum(k in 0..4: b[k] * k)
    let f = sum(k in 0..20: (b[0..2] * k)[k - 2 * floor(k / 2)])
    return [re(b[3]), im(b[2]), re(c[1]), im(d), re(f), im((a / (x[0] + j))[1])]
}
integrand cut(x in [-4, 0]) -> [4] {
    let below = complex(x, -0.0)
    let above = complex(x, 0)
    return [re(sqrt(below)), im(sqrt(below)), im(sqrt(above)), arg(below)]
}
)");
}

// Version 3: multi-channel integrands. --eval and the batch entry point
// give the sum of the channels at alpha = 1/m and identity maps (density()
// is 1), as the evaluator does, bit for bit where no built-in is called; a
// histogram's cells are the first channel's.
TEST_F(DifferentialTest, Channels) {
  checkSource("channels", R"(
import "std/channels"
param mz = 91.1876
param gz = 2.4952
integrand plain(x in [0, 1]^2) -> [2] {
    channel a { return [x[0] * alpha(a), x[1] + alpha(b)] }
    channel b { return [x[1] / alpha(b), x[0] * x[1]] }
}
integrand line(x in [0, 1]) {
    channel z {
        let m = bw_map(x, mz, gz, 50^2, 150^2)
        hist s(m[0], 50^2, 150^2, 10)
        return m[1] / m[0] * alpha(z) * bw_density(m[0], mz, gz, 50^2, 150^2)
    }
    channel photon {
        let m = power_map(x, 1, 50^2, 150^2)
        hist s(m[0] + 1, 50^2, 150^2, 10)
        return m[1] / m[0] * alpha(photon)
    }
    channel third {
        hist s(exp(x), 50^2, 150^2, 10)
        return exp(x) * alpha(z)
    }
}
integrand tail(x in [0, inf] * [0, 1]) {
    channel near { return exp(-x[0]) * x[1] }
    channel far { return exp(-2 * x[0]) * alpha(near) }
}
integrand vamp(x in [0, 1]^2) {
    channel a {
        let g = alpha(a) * density(a, x) + alpha(b) * density(b, [x[1], x[0]])
        return exp(x[0]) * alpha(a) * density(a, x) / g
    }
    channel b {
        let g = alpha(a) * density(a, [x[1], x[0]]) + alpha(b) * density(b, x)
        return x[1] * alpha(b) * density(b, x) / g
    }
}
)");
  EXPECT_GT(HistogramsSeen, 0u);
}

// Version 2: arrays (literals, slices, element-wise operators, array
// arguments and results, an `if` between arrays, indices inside unrolled
// reductions, the std/phasespace generators) and infinite domains (each
// map, a scale, a bound that is a parameter, mixed with finite axes). The
// corners include t = 0 and t = 1, the ends of the maps: a decaying
// integrand weighs 0 there, a growing one is infinite, on both sides.
TEST_F(DifferentialTest, ArraysAndInfiniteDomains) {
  checkSource("v2", R"(
import "std/phasespace"
param m = 0.3
fn rot(p: [4], c) -> [4] = [p[0], c * p[1] - p[2], p[1] + c * p[2], -p[3]]
integrand arr(x in [-1, 1]^5) -> [4] {
    let p = [2 + x[0], x[1], x[2], x[3]]
    let q = rot(p, x[4]) * 0.5 - p / 3
    return q + [m, 0, 0, 0]
}
integrand slices(x in [0, 1]^6) -> [3] {
    let a = x[0..3]
    let b = x[3..6]
    return [sum(i in 0..3: a[i] * b[2 - i]), (if x[0] < 0.5 then a else -b)[1],
            max(i in 0..3: [a, b][2 * i])]
}
integrand decays(x in [0, 1]^5) -> [3] {
    let e = phasespace3([10, 1, 0, 2], 0.5, 1, 0, x)
    return [mass2(e[0..4] + e[4..8]), e[12], costheta(boost(e[8..12], [0.2, 0, 0.1]))]
}
integrand rambo(x in [0, 1]^12) {
    let e = rambo3(10, x)
    return e[12] * dot(e[0..4], e[4..8])
}
integrand up(x in [m, inf; 2]) = exp(-x) * x^2
integrand down(x in [-inf, m]) = 1 / (1 + x^2)
integrand both(x in [-inf, inf] * [0, 1]) -> [2] = [exp(-x[0]^2) * x[1], x[0]]
integrand maps(x in [0, 1]) -> [2] = bw_map(x, 91, 2.5, 8000, 8500) + power_map(x, 0.5, 0.1, 2)
)");
  checkSource("v2-params", "param m = 0.3\n"
                           "integrand up(x in [m, inf]) = exp(-x)\n",
              {1.75});
}

// Histograms: every point's cell from the JIT's vf_cells_NAME equals the
// evaluator's, for 1-D and 2-D histograms, several per integrand, ranges
// that are parameters, ranges equal to the domain (the corners land on lo,
// which is in, and on hi, which is overflow), observables that are NaN
// (overflow, or outside) and infinite domains (the observable is the
// mapped coordinate, infinite at the end).
TEST_F(DifferentialTest, Histograms) {
  checkSource("hists", R"(
param top = 0.75
integrand h(x in [-1, 1] * [0, 2]) {
    let c = x[0]
    hist whole(c, -1, 1, 7)
    hist part(c, -0.5, top, 5)
    hist plane(c, -1, 1, 3, x[1], 0.5, 2, 4)
    hist nan(sqrt(c), 0, 1, 4)
    hist nan2(c, -1, 1, 2, log(c), -3, 0, 3)
    hist fine(c * x[1], -2, 2, 1000)
    return c * x[1]
}
integrand tail(x in [0, inf] * [-inf, inf]) {
    hist r(x[0], 0, 5, 10)
    hist rz(x[0], 0, 5, 5, x[1], -2, 2, 4)
    return exp(-x[0] - x[1]^2)
}
)");
  checkSource("hists-other-params", R"(
param top = 0.75
integrand h(x in [-1, 1]) {
    hist part(x, -0.5, top, 5)
    return x
}
)",
              {-0.25});
  EXPECT_EQ(HistogramsSeen, 9u);
}
