//===- tests/unit/frontend/PdfEvaluatorTest.cpp - xfx and alphas ----------===//
//
// The reference evaluator computes xfx and alphas with the host's
// interpolation (runtime/pdf's PdfMember), of the member each call names,
// so that it can be the oracle of the compiled code: its values must be
// PdfMember's, bit for bit, on and off the grid, for the default member, a
// pdf's own member and a member argument.
//
//===----------------------------------------------------------------------===//

#include "FrontendTestUtil.h"

#include "frontend/Evaluator.h"
#include "pdf/PdfSet.h"

#include "gtest/gtest.h"

using namespace vf;

namespace {

const std::string SetFolder = std::string(VF_PDF_TESTDATA) + "/VFToyLO";

std::string program() {
  std::string Set = "\"" + SetFolder + "\"";
  return "pdf p = " + Set + "\npdf q = " + Set + " member 1\n" +
         "param mu = 91.1876\n"
         "integrand up(x in [0, 1]) = xfx(p, 2, x, mu)\n"
         "integrand glue(x in [0, 1]) = xfx(q, 0, x, mu)\n"
         "integrand glue0(x in [0, 1]) = xfx(p, 21, x, mu, 1)\n"
         "integrand as(x in [0, 1]) = alphas(p, mu * x)\n"
         "integrand as1(x in [0, 1]) = alphas(p, mu * x, 1)\n";
}

TEST(PdfEvaluator, GivesTheHostInterpolationsBits) {
  auto L = test::load(program());
  ASSERT_TRUE(L->Ok) << L->Diags;
  auto Set = pdf::PdfSet::open(SetFolder);
  ASSERT_TRUE(Set) << Set.message();
  auto M0 = Set->loadMember(0), M1 = Set->loadMember(1);
  ASSERT_TRUE(M0 && M1);
  // On the grid, between knots, below XMin and above QMax (continuation).
  for (double Mu : {91.1876, 2.5, 2e4})
    for (double X : {1e-6, 1e-4, 0.0123, 0.5, 0.97}) {
      const std::vector<double> Params{Mu}; // the Evaluator keeps a view
      Evaluator Ev(Params);
      auto At = [&](const char *Name, double T) {
        return Ev.evalIntegrand(*L->P.findIntegrand(Name), {T})[0];
      };
      EXPECT_EQ(At("up", X), M0->xfx(2, X, Mu)) << X << ' ' << Mu;
      EXPECT_EQ(At("glue", X), M1->xfx(21, X, Mu)) << X << ' ' << Mu;
      EXPECT_EQ(At("glue0", X), M1->xfx(21, X, Mu)) << X << ' ' << Mu;
      EXPECT_EQ(At("as", X), M0->alphasQ(Mu * X)) << X << ' ' << Mu;
      EXPECT_EQ(At("as1", X), M1->alphasQ(Mu * X)) << X << ' ' << Mu;
    }
  // The two members differ, so the member each call names matters.
  EXPECT_NE(M0->xfx(21, 0.01, 100), M1->xfx(21, 0.01, 100));
}

} // namespace
