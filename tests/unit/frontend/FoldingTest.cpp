//===- tests/unit/frontend/FoldingTest.cpp - Constant folding in Sema -----===//
//
// A `const` must fold to a number: arithmetic, built-in constants and
// functions, other consts (in any order) and reductions fold; a division by
// a constant zero is an error; a reduction too long to evaluate at compile
// time is not folded, so Sema stays fast on any input.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include "gtest/gtest.h"

#include <chrono>
#include <cmath>

using namespace vf;

namespace {

/// The folded value of const \p Name in \p Src, which must check cleanly.
double folded(llvm::StringRef Src, llvm::StringRef Name = "c") {
  auto L = test::load(Src);
  EXPECT_TRUE(L->Ok) << L->Diags;
  const ConstDecl *C = L->constant(Name);
  EXPECT_NE(C, nullptr);
  if (!C || !C->Folded)
    return NAN;
  return *C->Folded;
}

TEST(ConstantFolding, Arithmetic) {
  EXPECT_EQ(folded("const c = 1 + 2 * 3 - 4 / 8"), 6.5);
  EXPECT_EQ(folded("const c = -2^2"), -4.0);
  EXPECT_EQ(folded("const c = 2^3^2"), 512.0);
  EXPECT_EQ(folded("const c = 4^-1"), 0.25);
  EXPECT_EQ(folded("const c = 1e-3 * 6.02e23"), 6.02e20);
}

TEST(ConstantFolding, BuiltinsAndConstants) {
  EXPECT_DOUBLE_EQ(folded("const c = 2 * pi"), 2 * M_PI);
  EXPECT_DOUBLE_EQ(folded("const c = log(e)"), 1.0);
  EXPECT_EQ(folded("const c = sqrt(16) + max(1, 5, 3) - min(2, -1)"), 10.0);
  EXPECT_EQ(folded("const c = clamp(7, 0, 5) + abs(-2) + floor(1.5)"), 8.0);
  EXPECT_DOUBLE_EQ(folded("const c = atan2(1, 1)"), M_PI / 4);
}

TEST(ConstantFolding, OtherConstsInAnyOrder) {
  EXPECT_EQ(folded("const c = a * b\nconst a = 3\nconst b = a + 1"), 12.0);
}

TEST(ConstantFolding, Conditionals) {
  EXPECT_EQ(folded("const c = if 1 < 2 and not 3 == 4 then 10 else 20"), 10.0);
  EXPECT_EQ(folded("const c = if 2 <= 1 or 1 != 1 then 10 else 20"), 20.0);
}

TEST(ConstantFolding, Reductions) {
  EXPECT_EQ(folded("const c = sum(i in 0..4: i^2)"), 14.0);
  EXPECT_EQ(folded("const c = prod(i in 1..6: i)"), 120.0); // 1*2*3*4*5
  EXPECT_EQ(folded("const c = min(i in 0..5: (i - 3)^2)"), 0.0);
  EXPECT_EQ(folded("const c = max(i in -2..2: i^2)"), 4.0);
  // Nested: sum over i of sum over j of i*j = (0+1+2) * (0+1).
  EXPECT_EQ(folded("const c = sum(i in 0..3: sum(j in 0..2: i * j))"), 3.0);
  // Empty ranges: the sum is 0, the product 1.
  EXPECT_EQ(folded("const c = sum(i in 3..3: i) + prod(i in 0..0: 5)"), 1.0);
}

TEST(ConstantFolding, ConstAsDimensionAndBound) {
  auto L = test::load("const n = 2 + 1\n"
                      "integrand f(x in [0, 1]^n * [0, 2]) = "
                      "sum(i in 0..n + 1: x[i])");
  EXPECT_TRUE(L->Ok) << L->Diags;
  ASSERT_EQ(L->P.Integrands.size(), 1u);
  EXPECT_EQ(L->P.Integrands[0]->Dim, 4u);
}

TEST(ConstantFolding, LetValuesFoldInsideBodies) {
  // `a` is a let with a constant value: the index folds to 5, which is out
  // of range for a 1-dimensional x.
  auto L = test::load("integrand f(x in [0, 1]) {\n"
                      "  let a = 5\n"
                      "  return x[sum(i in 0..1: a)]\n"
                      "}");
  EXPECT_FALSE(L->Ok);
  EXPECT_NE(L->Diags.find("t.vf:3:12: error: index 5 is out of range for "
                          "'x', which has 1 dimension (indices 0 to 0)"),
            std::string::npos)
      << L->Diags;
}

TEST(ConstantFolding, DivisionByConstantZero) {
  auto L = test::load("const c = 1 / (2 - 2)");
  EXPECT_FALSE(L->Ok);
  EXPECT_EQ(L->Errors, 1u);
  EXPECT_NE(L->Diags.find("t.vf:1:13: error: division by a constant zero"),
            std::string::npos)
      << L->Diags;
  // A run-time divisor is not checked.
  EXPECT_TRUE(test::load("integrand f(x in [0, 1]) = 1 / (x - 0.5)")->Ok);
}

TEST(ConstantFolding, NonConstantValues) {
  auto L = test::load("param p = 1\nconst c = p + 1");
  EXPECT_FALSE(L->Ok);
  EXPECT_NE(L->Diags.find("error: the value of a constant must be a "
                          "compile-time constant; 'p' is a run-time "
                          "parameter (use 'const' for a compile-time value)"),
            std::string::npos)
      << L->Diags;
  auto F = test::load("fn g(t) = t\nconst c = g(1)");
  EXPECT_FALSE(F->Ok);
  EXPECT_NE(F->Diags.find("'g' is a user function (only built-in functions "
                          "fold)"),
            std::string::npos)
      << F->Diags;
}

TEST(ConstantFolding, HugeReductionsAreNotFoldedAndStayFast) {
  auto Start = std::chrono::steady_clock::now();
  auto L = test::load("const c = sum(i in 0..1e12: i)\n"
                      "const d = sum(i in 0..1000: sum(j in 0..1000: "
                      "sum(k in 0..1000: i * j * k)))\n"
                      "integrand f(x in [0, 1]^4) = sum(i in 0..1e12: x[0])");
  double Seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count();
  EXPECT_LT(Seconds, 2.0);
  EXPECT_EQ(L->Errors, 2u) << L->Diags;
  EXPECT_NE(L->Diags.find("t.vf:1:11: error: the value of a constant must be "
                          "a compile-time constant; this reduction is not "
                          "folded: it takes more than 4194304 steps to "
                          "evaluate at compile time"),
            std::string::npos)
      << L->Diags;
  EXPECT_NE(L->Diags.find("t.vf:2:11: error: the value of a constant"),
            std::string::npos);
  // A large but reasonable reduction still folds, and folded inner
  // reductions are not evaluated again by the outer ones.
  EXPECT_EQ(folded("const c = sum(i in 0..1000000: i)"), 499999500000.0);
  EXPECT_EQ(folded("const c = sum(i in 0..1000: sum(j in 0..1000: "
                   "sum(k in 0..1000: 1)))"),
            1e9);
}

TEST(ConstantFolding, IndexChecksAreBounded) {
  // Every combination of i and j is checked: 1024 * 1024 is still fine...
  auto Ok = test::load("integrand f(x in [0, 1]^1024) = "
                       "sum(i in 0..1024: sum(j in 0..1024: x[min(i, j)]))");
  EXPECT_TRUE(Ok->Ok) << Ok->Diags;
  // ...but an index whose check would take forever is rejected, not
  // silently left unchecked.
  auto Start = std::chrono::steady_clock::now();
  auto L = test::load("integrand f(x in [0, 1]^8) = "
                      "sum(i in 0..1e6: sum(j in 0..1e6: x[i * 0 + j * 0]))");
  EXPECT_LT(
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start)
          .count(),
      2.0);
  EXPECT_FALSE(L->Ok);
  EXPECT_NE(L->Diags.find("t.vf:1:66: error: cannot check that this index is "
                          "in range for every value of its reduction "
                          "indices: it takes more than 4194304 steps to "
                          "evaluate at compile time"),
            std::string::npos)
      << L->Diags;
}

TEST(ConstantFolding, ProgramEvaluationBudget) {
  // Each check takes about 3 million steps; the program may take 2^23 in
  // all, so the third is refused.
  std::string Src;
  for (int K = 0; K < 3; ++K)
    Src += "integrand f" + std::to_string(K) +
           "(x in [0, 1]^1024) = "
           "sum(i in 0..1024: sum(j in 0..1024: x[max(i, j)]))\n";
  auto L = test::load(Src);
  EXPECT_EQ(L->Errors, 1u) << L->Diags;
  EXPECT_NE(L->Diags.find("t.vf:3:72: error: cannot check that this index is "
                          "in range for every value of its reduction "
                          "indices: the program has used up its 8388608 "
                          "steps of compile-time evaluation"),
            std::string::npos)
      << L->Diags;
}

} // namespace
