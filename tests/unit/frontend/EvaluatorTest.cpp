//===- tests/unit/frontend/EvaluatorTest.cpp - The reference evaluator ----===//
//
// The tree-walking evaluator is the oracle of the differential tests, so it
// is checked here against values computed by hand: arithmetic, parameters
// (defaults and overrides), inlined fns, lets, `if`, reductions over the
// coordinates, vector results, domains with parameter bounds,
// multi-channel integrands before any run (equal alphas, identity maps),
// and the entries of weight lists.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include "frontend/Evaluator.h"

#include "gtest/gtest.h"

#include <cmath>

using namespace vf;

namespace {

/// Checks \p Src and evaluates integrand \p Name at \p X.
std::vector<double> evalAt(llvm::StringRef Src, std::vector<double> X,
                           std::vector<double> Params = {},
                           llvm::StringRef Name = "f") {
  auto L = test::load(Src);
  EXPECT_TRUE(L->Ok) << L->Diags;
  const IntegrandDecl *I = L->P.findIntegrand(Name);
  EXPECT_NE(I, nullptr);
  if (!I)
    return {};
  if (Params.empty())
    Params = L->P.defaultParams();
  Evaluator Ev(Params);
  return Ev.evalIntegrand(*I, X);
}

TEST(Evaluator, Arithmetic) {
  auto V = evalAt("integrand f(x in [0, 1]^2) = x[0] * x[1] + 1 - x[0]^2",
                  {0.5, 0.25});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_DOUBLE_EQ(V[0], 0.5 * 0.25 + 1 - 0.25);
}

TEST(Evaluator, OneDimensionalVariableUnindexed) {
  auto V = evalAt("integrand f(x in [0, 2]) = 3 * x + x[0]", {0.5});
  ASSERT_EQ(V.size(), 1u);
  EXPECT_DOUBLE_EQ(V[0], 2.0);
}

TEST(Evaluator, ParametersDefaultAndOverride) {
  const char *Src = "param a = 2\nparam b = 10\n"
                    "integrand f(x in [0, 1]) = a * x + b";
  EXPECT_DOUBLE_EQ(evalAt(Src, {0.5})[0], 11.0);
  EXPECT_DOUBLE_EQ(evalAt(Src, {0.5}, {4.0, -1.0})[0], 1.0);
}

TEST(Evaluator, FunctionsLetsAndIf) {
  const char *Src = "fn sq(t) = t * t\n"
                    "fn hyp(a, b) {\n"
                    "  let s = sq(a) + sq(b)\n"
                    "  return sqrt(s)\n"
                    "}\n"
                    "integrand f(x in [0, 1]^2) {\n"
                    "  let r = hyp(x[0], x[1])\n"
                    "  return if r < 1 and not r == 0 then r else -1\n"
                    "}";
  EXPECT_DOUBLE_EQ(evalAt(Src, {0.3, 0.4})[0], 0.5);
  EXPECT_DOUBLE_EQ(evalAt(Src, {0.9, 0.8})[0], -1.0);
  EXPECT_DOUBLE_EQ(evalAt(Src, {0.0, 0.0})[0], -1.0);
}

TEST(Evaluator, Reductions) {
  const char *Src = "integrand f(x in [0, 1]^3) = "
                    "sum(i in 0..3: x[i]) + prod(i in 0..3: x[i] + 1) + "
                    "min(i in 0..3: x[i]) * 100 + max(i in 0..3: x[i]) * 1000";
  // 0.6 + 1.1*1.2*1.3 + 0.1*100 + 0.3*1000
  EXPECT_NEAR(evalAt(Src, {0.1, 0.2, 0.3})[0], 0.6 + 1.1 * 1.2 * 1.3 + 10 + 300,
              1e-12);
  // Nested, with the index used as a number.
  const char *Nested = "integrand f(x in [0, 1]^2) = "
                       "sum(i in 0..2: sum(j in 0..3: (i + 1) * j * x[i]))";
  // sum_j j = 3; (1 * 3 * x0) + (2 * 3 * x1)
  EXPECT_DOUBLE_EQ(evalAt(Nested, {0.5, 0.25})[0], 1.5 + 1.5);
}

TEST(Evaluator, MinMaxPropagateNaN) {
  auto V = evalAt("integrand f(x in [0, 1]) = max(x, sqrt(-1), 2)", {0.5});
  EXPECT_TRUE(std::isnan(V[0]));
}

TEST(Evaluator, VectorResult) {
  const char *Src = "integrand m(x in [0, 1]^3) -> [3] {\n"
                    "  let w = exp(-10 * sum(i in 0..3: (x[i] - 0.5)^2))\n"
                    "  return [w, w * x[0], w * x[0]^2]\n"
                    "}";
  auto V = evalAt(Src, {0.5, 0.5, 0.5}, {}, "m");
  ASSERT_EQ(V.size(), 3u);
  EXPECT_DOUBLE_EQ(V[0], 1.0);
  EXPECT_DOUBLE_EQ(V[1], 0.5);
  EXPECT_DOUBLE_EQ(V[2], 0.25);
}

TEST(Evaluator, DomainWithParameterBounds) {
  auto L = test::load("param L = 3\nconst n = 2\n"
                      "integrand f(x in [0, 1]^n * [-L, 2 * L]) = x[2]");
  ASSERT_TRUE(L->Ok) << L->Diags;
  const IntegrandDecl *I = L->P.findIntegrand("f");
  ASSERT_NE(I, nullptr);
  std::vector<double> Lo, Hi, P = L->P.defaultParams();
  Evaluator Ev(P);
  Ev.evalDomain(*I, Lo, Hi);
  EXPECT_EQ(Lo, (std::vector<double>{0, 0, -3}));
  EXPECT_EQ(Hi, (std::vector<double>{1, 1, 6}));
}

/// Without a run's state, alpha(NAME) is 1/m and density(NAME, u) is 1
/// (LANGUAGE.md v3): the integrand is the sum of its channels there.
TEST(Evaluator, ChannelsAddUpWithEqualAlphas) {
  const char *Src = "integrand f(x in [0, 1]^2) -> [2] {\n"
                    "  channel a { return [x[0], alpha(a)] }\n"
                    "  channel b { return [x[1] * density(a, x), alpha(c)] }\n"
                    "  channel c { return [1, alpha(b)] }\n"
                    "}";
  auto V = evalAt(Src, {0.25, 0.5});
  ASSERT_EQ(V.size(), 2u);
  EXPECT_DOUBLE_EQ(V[0], 0.25 + 0.5 + 1);
  EXPECT_DOUBLE_EQ(V[1], 1.0);
}

/// Each entry of a weight list is its expression at the list's index,
/// seeing the lets before it; the lists follow one another in source
/// order, and an infinite axis's Jacobian multiplies them as the value.
TEST(Evaluator, WeightListEntries) {
  const char *Src = "fn scale_factor(k) = if k == 0 then 1 else 1 + k / 10\n"
                    "integrand f(x in [0, 1]^2) {\n"
                    "  let w = x[0] * x[1]\n"
                    "  weights scales(k in 0..3: w * scale_factor(k))\n"
                    "  weights shifted(j in 2..4: j * x[j - 2])\n"
                    "  return w\n"
                    "}\n"
                    "integrand g(t in [0, inf]) {\n"
                    "  weights twice(k in 0..2: (k + 1) * exp(-t))\n"
                    "  return exp(-t)\n"
                    "}";
  auto L = test::load(Src);
  ASSERT_TRUE(L->Ok) << L->Diags;
  const IntegrandDecl *F = L->P.findIntegrand("f");
  ASSERT_NE(F, nullptr);
  ASSERT_EQ(F->WeightLists.size(), 2u);
  EXPECT_EQ(F->WeightLists[1]->Base, 3u);
  EXPECT_EQ(F->WeightEntries, 5u);
  Evaluator Ev;
  std::vector<double> Weights;
  auto V = Ev.evalIntegrand(*F, {0.5, 0.25}, nullptr, &Weights);
  EXPECT_DOUBLE_EQ(V[0], 0.125);
  EXPECT_EQ(Weights, (std::vector<double>{0.125, 0.125 * 1.1, 0.125 * 1.2,
                                          2 * 0.5, 3 * 0.25}));
  const IntegrandDecl *G = L->P.findIntegrand("g");
  ASSERT_NE(G, nullptr);
  auto W = Ev.evalIntegrand(*G, {0.5}, nullptr, &Weights);
  ASSERT_EQ(Weights.size(), 2u);
  EXPECT_DOUBLE_EQ(Weights[0], W[0]);
  EXPECT_DOUBLE_EQ(Weights[1], 2 * W[0]);
}

} // namespace
