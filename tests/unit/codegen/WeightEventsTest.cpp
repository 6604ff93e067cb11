//===- tests/unit/codegen/WeightEventsTest.cpp - Weight lists at events ---===//
//
// A compiled integrand's weight lists at its events (vf::EventBatch::
// EntryWeights, through IntegrandInfo::EvaluateWeights of a module
// compiled for integrating, which has no batch entry points): a weighted
// event's entry k weighs Jac e_k, an unweighted one's Weight e_k / f, so
// with e_k = (1 + k/10) f each is (1 + k/10) times the event's weight to
// 1e-12; a non-finite entry weighs 0; an integrand without lists has no
// entries; lists without EvaluateWeights are refused, naming the list.
//
//===----------------------------------------------------------------------===//

#include "CodegenTestUtil.h"

#include "vf/Integrator.h"
#include "vf/Module.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vf;
using namespace vf::test;

namespace {

// Ten entries of the same shape in two lists (index from 0 and from 1),
// and a list whose first entry is NaN where x[0] < 0.5.
const char *const Source = R"(
integrand f(x in [0, 1]^2) {
    let v = 1 + x[0] * x[1]
    weights scales(k in 0..7: v * (1 + k / 10))
    weights pdf(k in 1..4: v * (1 + k / 10))
    weights bad(k in 0..2: sqrt(x[0] - 0.5) + k)
    return v
}
integrand plain(x in [0, 1]^2) = 1 + x[0] * x[1]
)";

/// The factor (1 + k/10) of entry J: scales' k = J, pdf's k = J - 6.
double factor(unsigned J) { return 1 + (J < 7 ? J : J - 6) / 10.0; }

class WeightEventsTest : public ::testing::Test {
protected:
  void SetUp() override {
    CompileSettings S;
    S.CacheDir = Dir.path();
    auto M = Module::compileString(Source, "lists.vf", S);
    ASSERT_TRUE(static_cast<bool>(M)) << M.error().Message;
    Mod = *M;
  }

  /// A trained, frozen integrator of \p I.
  std::unique_ptr<Integrator> trained(IntegrandInfo I) {
    IntegratorOptions O;
    O.Seed = 5;
    O.Threads = 2;
    auto Int = Integrator::create(std::move(I), O);
    EXPECT_TRUE(static_cast<bool>(Int)) << Int.message();
    if (!Int)
      return nullptr;
    auto R = (*Int)->run(3, 5000);
    EXPECT_TRUE(static_cast<bool>(R)) << R.message();
    (*Int)->freeze();
    return std::move(*Int);
  }

  /// Checks \p B's entries against each event's weight w (Jac f for a
  /// weighted event, whose e_k weighs Jac e_k; for an unweighted one,
  /// whose e_k weighs w e_k / f, the same multiple of w): scales' and
  /// pdf's are (1 + k/10) w, bad's are 0 where x[0] < 0.5 (NaN there).
  static void checkEntries(const EventBatch &B) {
    ASSERT_EQ(B.Entries, 12u);
    ASSERT_EQ(B.EntryWeights.size(), B.N * 12);
    for (std::size_t E = 0; E < B.N; ++E) {
      const double *W = &B.EntryWeights[E * 12];
      const double Weight = B.Weight[E];
      for (unsigned J = 0; J < 10; ++J)
        EXPECT_NEAR(W[J], factor(J) * Weight, 1e-12 * std::abs(Weight));
      if (B.X[2 * E] < 0.5) {
        EXPECT_EQ(W[10], 0.0) << "x0 = " << B.X[2 * E];
        EXPECT_EQ(W[11], 0.0) << "x0 = " << B.X[2 * E];
      } else {
        EXPECT_GE(W[10], 0.0);
        EXPECT_NEAR(W[11], W[10] + Weight / B.F[E], 1e-12 * std::abs(W[11]));
      }
    }
  }

  TempDir Dir;
  std::shared_ptr<Module> Mod;
};

TEST_F(WeightEventsTest, WeightedEventsWeighJacTimesEachEntry) {
  auto I = Mod->integrand("f");
  ASSERT_TRUE(static_cast<bool>(I)) << I.message();
  ASSERT_TRUE(static_cast<bool>(I->EvaluateWeights));
  ASSERT_EQ(I->WeightLists.size(), 3u);
  EXPECT_EQ(I->WeightLists[0].First, 0);
  EXPECT_EQ(I->WeightLists[1].First, 1);
  auto Int = trained(*I);
  ASSERT_TRUE(Int);
  std::uint64_t Seen = 0;
  Status S = Int->sample(5000, [&](const EventBatch &B) {
    Seen += B.N;
    checkEntries(B);
  });
  ASSERT_TRUE(static_cast<bool>(S)) << S.message();
  EXPECT_EQ(Seen, 5000u);
}

TEST_F(WeightEventsTest, UnweightedEventsScaleEntriesToTheirWeight) {
  auto I = Mod->integrand("f");
  ASSERT_TRUE(static_cast<bool>(I)) << I.message();
  auto Int = trained(*I);
  ASSERT_TRUE(Int);
  std::uint64_t Seen = 0;
  auto U = Int->unweight(2000, [&](const EventBatch &B) {
    Seen += B.N;
    checkEntries(B);
  });
  ASSERT_TRUE(static_cast<bool>(U)) << U.message();
  EXPECT_EQ(Seen, 2000u);
}

TEST_F(WeightEventsTest, AnIntegrandWithoutListsHasNoEntries) {
  auto I = Mod->integrand("plain");
  ASSERT_TRUE(static_cast<bool>(I)) << I.message();
  EXPECT_FALSE(static_cast<bool>(I->EvaluateWeights));
  auto Int = trained(*I);
  ASSERT_TRUE(Int);
  Status S = Int->sample(100, [&](const EventBatch &B) {
    EXPECT_EQ(B.Entries, 0u);
    EXPECT_TRUE(B.EntryWeights.empty());
  });
  ASSERT_TRUE(static_cast<bool>(S)) << S.message();
}

TEST_F(WeightEventsTest, ListsWithoutTheirEntryPointAreRefused) {
  auto I = Mod->integrand("f");
  ASSERT_TRUE(static_cast<bool>(I)) << I.message();
  IntegrandInfo Bare = *I;
  Bare.EvaluateWeights = nullptr;
  auto Int = trained(Bare);
  ASSERT_TRUE(Int);
  Status S = Int->sample(10, [](const EventBatch &) {});
  ASSERT_FALSE(static_cast<bool>(S));
  EXPECT_NE(S.message().find("integrand 'f' has the weight list 'scales' but "
                             "no entry point to evaluate its entries"),
            std::string::npos)
      << S.message();
}

} // namespace
