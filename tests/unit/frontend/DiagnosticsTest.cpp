//===- tests/unit/frontend/DiagnosticsTest.cpp - "Did you mean" and caps --===//
//
// closestName proposes a plausible correction (edit distance at most a
// third of the name) or nothing; DiagEngine counts every error but prints
// only up to its limit, and drops the notes of errors it did not print.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include "gtest/gtest.h"

using namespace vf;

namespace {

TEST(ClosestName, PicksTheNearestPlausibleCandidate) {
  std::vector<llvm::StringRef> Builtins = {"exp", "expm1", "sqrt", "sin",
                                           "cos"};
  EXPECT_EQ(closestName("exq", Builtins), "exp");
  EXPECT_EQ(closestName("sqr", Builtins), "sqrt");
  EXPECT_EQ(closestName("sinn", Builtins), "sin");
  // An adjacent swap counts as one edit.
  EXPECT_EQ(closestName("cso", Builtins), "cos");
  EXPECT_EQ(closestName("sqtr", Builtins), "sqrt");
  EXPECT_EQ(closestName("expm2", Builtins), "expm1");
}

TEST(ClosestName, NothingWhenTooFar) {
  std::vector<llvm::StringRef> C = {"alpha", "beta"};
  EXPECT_EQ(closestName("zzzzzz", C), "");
  EXPECT_EQ(closestName("q", C), "");
  EXPECT_EQ(closestName("alpha", {}), "");
}

TEST(ClosestName, ExactMatchIsNotASuggestion) {
  std::vector<llvm::StringRef> C = {"x", "y"};
  EXPECT_EQ(closestName("x", C), "y");
}

TEST(ClosestName, UsedForUnknownNamesAndFunctions) {
  auto L = test::load("param alpha = 1\n"
                      "integrand f(x in [0, 1]) = alpah * exq(x)");
  EXPECT_FALSE(L->Ok);
  EXPECT_NE(L->Diags.find("t.vf:2:28: error: unknown name 'alpah'; did you "
                          "mean 'alpha'?"),
            std::string::npos)
      << L->Diags;
  EXPECT_NE(L->Diags.find("t.vf:2:36: error: unknown function 'exq'; did you "
                          "mean 'exp'?"),
            std::string::npos)
      << L->Diags;
}

TEST(DiagEngine, ErrorLimitCountsEverythingPrintsSome) {
  llvm::SourceMgr SM;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  DiagEngine D(SM, OS);
  D.setErrorLimit(2);
  for (int K = 0; K < 5; ++K) {
    D.errorNoLoc("boom " + llvm::Twine(K));
    D.note(llvm::SMLoc(), "note " + llvm::Twine(K));
  }
  D.finish();
  OS.flush();
  EXPECT_EQ(D.errorCount(), 5u);
  EXPECT_NE(Out.find("boom 1"), std::string::npos);
  EXPECT_EQ(Out.find("boom 2"), std::string::npos);
  EXPECT_NE(Out.find("note 1"), std::string::npos);
  EXPECT_EQ(Out.find("note 2"), std::string::npos);
  EXPECT_NE(Out.find("too many errors emitted, stopping now"),
            std::string::npos);
  EXPECT_NE(Out.find("5 errors generated."), std::string::npos);
}

TEST(DiagEngine, WarningsCanBeDisabled) {
  llvm::SourceMgr SM;
  std::string Out;
  llvm::raw_string_ostream OS(Out);
  DiagEngine D(SM, OS);
  D.setWarningsEnabled(false);
  D.warning(llvm::SMLoc(), "quiet");
  OS.flush();
  EXPECT_EQ(D.warningCount(), 0u);
  EXPECT_EQ(Out, "");
}

} // namespace
