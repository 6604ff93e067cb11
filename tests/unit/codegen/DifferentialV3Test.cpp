//===- tests/unit/codegen/DifferentialV3Test.cpp - JIT vs tree walk, v3 ---===//
//
// The differential test (DifferentialTest.cpp) for version 3's parton
// densities and weight lists.
//
//===----------------------------------------------------------------------===//

#include "DifferentialTest.h"

#include <cmath>
#include <random>

using namespace vf;
using namespace vf::test;

// xfx and alphas look members up in the program's block (the default
// member, a pdf's own member, a member argument) with runtime/pdf's
// evaluation linked as bitcode, and the evaluator calls the host's native
// build of the same C: within the harness's bounds in larger expressions,
// and to the bit for the calls alone, on and off the grid (x below XMin,
// mu below QMin and above QMax).
TEST_F(DifferentialTest, PartonDensities) {
  const std::string Set = std::string(VF_PDF_TESTDATA) + "/VFToyLO";
  std::unique_ptr<Program> P =
      loadProgram("pdf p = \"" + Set + "\"\n" +
                  "integrand f(x in [1e-7, 1] * [0.5, 2e4]) -> [2] = "
                  "[xfx(p, 2, x[0], x[1], 1), alphas(p, x[1])]\n");
  ASSERT_TRUE(P);
  CompileOptions O;
  O.UseCache = false;
  auto CM = TheCompiler->compile(*P, O);
  ASSERT_TRUE(static_cast<bool>(CM)) << llvm::toString(CM.takeError());
  std::mt19937_64 Rng(Seed);
  std::vector<double> Xs;
  for (unsigned N = 0; N < RandomPoints; ++N)
    Xs.insert(Xs.end(), {std::exp(uniform(Rng, std::log(1e-7), 0.0)),
                         uniform(Rng, 0.5, 2e4)});
  std::vector<double> Out(Xs.size());
  (*CM)->find("f")->Batch(Xs.data(), RandomPoints, nullptr, Out.data());
  Evaluator Ev;
  for (unsigned N = 0; N < RandomPoints; ++N) {
    std::vector<double> Want =
        Ev.evalIntegrand(*P->Integrands[0], {Xs[2 * N], Xs[2 * N + 1]});
    ASSERT_EQ(Out[2 * N], Want[0]) << Xs[2 * N] << ' ' << Xs[2 * N + 1];
    ASSERT_EQ(Out[2 * N + 1], Want[1]) << Xs[2 * N + 1];
  }

  checkSource("pdf", "pdf p = \"" + Set + "\"\n" + "pdf q = \"" + Set +
                         "\" member 1\n" + R"(
param mu = 91.1876
integrand quarks(x in [1e-6, 1]) = xfx(p, 2, x, mu) - xfx(q, -1, x, mu, 0)
integrand scales(x in [1e-3, 1] * [0.5, 2e4]) {
    let f = xfx(p, 21, x[0], x[1]) + xfx(p, 0, x[0], x[1], 1)
    return f * alphas(q, x[1]) + alphas(p, x[1], 1)
}
)");
  checkSource("pdf-other-mu",
              "pdf p = \"" + Set + "\"\nparam mu = 91.1876\n" +
                  "integrand f(x in [1e-4, 1]) = "
                  "xfx(p, 5, x, mu) * alphas(p, mu)\n",
              {1.0});
  // Members chosen by reduction indices at run time, and by index
  // arithmetic (1 - k: members 1 then 0).
  checkSource("pdf-member-index",
              "pdf p = \"" + Set + "\"\n" +
                  "integrand f(x in [1e-4, 1]) = "
                  "sum(k in 0..2: xfx(p, 2, x, 50, k) * (k + 1)) + "
                  "sum(k in 0..2: alphas(p, 50 * x + 1, 1 - k))\n");
  // A fn's argument as the member, checked where the call runs.
  checkSource("pdf-member-fn-arg",
              "pdf p = \"" + Set + "\"\nfn up(x, m) = xfx(p, 2, x, 50, m)\n" +
                  "integrand f(x in [1e-4, 1]) = up(x, floor(2 * x)) + "
                  "sum(k in 0..2: up(x, 1 - k))\n");
  // A param as the member of a pdf item and of a call.
  checkSource("pdf-member-param",
              "pdf q = \"" + Set + "\" member m\nparam m = 0\n" +
                  "integrand f(x in [1e-4, 1]) = "
                  "xfx(q, 2, x, 50) + xfx(q, 1, x, 50, m) * alphas(q, 60)\n",
              {1.0});
}

void DifferentialTest::checkWeightEntries(const IntegrandDecl &I,
                                          const CompiledIntegrand &CI,
                                          Evaluator &Ev,
                                          const std::vector<double> &Xs,
                                          const std::vector<double> &Params) {
  ASSERT_EQ(CI.WeightEntries, I.WeightEntries);
  ASSERT_EQ(CI.Weights != nullptr, I.WeightEntries > 0);
  if (!CI.Weights)
    return;
  std::vector<double> Want;
  unsigned Failures = 0;
  for (size_t N = 0; N * I.Dim < Xs.size() && Failures < 10; ++N) {
    const double *X = &Xs[N * I.Dim];
    Ev.evalIntegrand(I, llvm::ArrayRef<double>(X, I.Dim), nullptr, &Want);
    std::vector<double> Got(I.WeightEntries, -12345.0);
    CI.Weights(X, Params.data(), Got.data());
    ASSERT_EQ(Want.size(), Got.size());
    for (const WeightsStmt *W : I.WeightLists) {
      const uint64_t Tol =
          2ull * (countBodySites(I.B) + countMathSites(*W->List->Body));
      for (unsigned K = W->Base; K < W->Base + W->Length;
           ++K, ++WeightEntriesSeen) {
        const bool Ok = std::isnan(Want[K])
                            ? std::isnan(Got[K])
                            : ulpDistance(Got[K], Want[K]) <= Tol;
        if (Ok)
          continue;
        ++Failures;
        ADD_FAILURE() << "list '" << W->Name << "' entry " << K - W->Base
                      << " at point " << N << ": JIT " << Got[K]
                      << " vs evaluator " << Want[K] << ", allowed " << Tol
                      << " ulp";
      }
    }
  }
}

// Weight lists: every entry of vf_weights_NAME agrees with the evaluator's
// within the ulps of its call sites (none: bit for bit). Entries that read
// lets, parameters and the index; several lists (each at its base); a
// list longer than the unroll limit whose range starts below 0; a
// reduction inside an entry; an infinite domain, where each entry is
// times the Jacobian (infinite at the ends, 0 where the entry is 0).
TEST_F(DifferentialTest, WeightLists) {
  checkSource("weights", R"(
param mu = 91.2
integrand scales(x in [0, 1]^2) {
    let f = x[0] * x[1] + 0.25
    weights sc(k in 0..7: f * (1 + k / 10))
    weights logs(i in -3..40: f * log(mu * 2^(i / 8)) + sum(j in 0..5: x[0] * j * i))
    return f
}
integrand tail(x in [0, inf]) {
    weights w(k in 0..4: k * exp(-x))
    return exp(-x)
}
integrand plain(x in [0, 1]) = x
)");
  EXPECT_EQ(WeightEntriesSeen, (7u + 43u + 4u) * (3u + RandomPoints));
}
