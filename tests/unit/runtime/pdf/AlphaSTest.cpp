//===- tests/unit/runtime/pdf/AlphaSTest.cpp - alpha_s of both types ------===//
//
// The shipped set's ipol table (one-loop running with a threshold at
// 4.5 GeV, make_set.py) and the same set switched to analytic, whose
// one-loop value is the formula itself.
//
//===----------------------------------------------------------------------===//
#include "PdfTestFiles.h"

#include "pdf/AlphaS.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

using namespace vf;
using namespace vf::pdf;
using namespace vf::pdf::test;

namespace {

double oneLoop(double Q, int Nf, double Lambda) {
  return 1 /
         ((33 - 2 * Nf) / (12 * M_PI) * std::log(Q * Q / (Lambda * Lambda)));
}

TEST(PdfAlphaS, IpolFollowsItsTable) {
  PdfMember M = loadShipped(0);
  ASSERT_EQ(M.Alpha.Type, AlphaS::Kind::Ipol);
  // Between knots, the cubic is within 1e-3 of the running it tabulates.
  for (double Q : {1.6, 2.5, 4.0})
    EXPECT_NEAR(M.alphasQ(Q), oneLoop(Q, 4, 0.3), 1e-3 * oneLoop(Q, 4, 0.3));
  for (double Q : {10.0, 91.1876, 1000.0})
    EXPECT_NEAR(M.alphasQ(Q), oneLoop(Q, 5, 0.22), 1e-3 * oneLoop(Q, 5, 0.22));
  // The repeated knot starts the upper subgrid.
  EXPECT_NEAR(M.alphasQ(4.5), oneLoop(4.5, 5, 0.22), 1e-8);
  EXPECT_NEAR(M.alphasQ(4.5 * (1 - 1e-12)), oneLoop(4.5, 4, 0.3), 1e-8);
}

TEST(PdfAlphaS, IpolContinuesOutsideItsTable) {
  PdfMember M = loadShipped(0);
  const double Q0 = M.Alpha.Q2[0], Q1 = M.Alpha.Q2[1];
  const double Grad =
      std::log10(M.Alpha.Values[1] / M.Alpha.Values[0]) / std::log10(Q1 / Q0);
  EXPECT_DOUBLE_EQ(M.Alpha.alphasQ2(1.0),
                   M.Alpha.Values[0] * std::pow(1.0 / Q0, Grad));
  EXPECT_EQ(M.alphasQ(1e5), M.Alpha.Values.back());
}

TEST(PdfAlphaS, AnalyticIsThePdgExpansion) {
  SetCopy Copy;
  Copy.replace("VFToyLO.info", "AlphaS_Type: ipol", "AlphaS_Type: analytic");
  Expected<PdfSet> Set = PdfSet::open(Copy.Folder, {});
  ASSERT_TRUE(Set) << Set.message();
  Expected<PdfMember> M = Set->loadMember(0);
  ASSERT_TRUE(M) << M.message();
  ASSERT_EQ(M->Alpha.Type, AlphaS::Kind::Analytic);
  // AlphaS_OrderQCD 1: one loop, 4 flavours up to MBottom = 4.5, then 5;
  // LHAPDF's beta_0 is (33 - 2 nf) / 12 pi to 9 or 10 digits.
  EXPECT_NEAR(M->alphasQ(3.0), oneLoop(3.0, 4, 0.3), 1e-8);
  EXPECT_NEAR(M->alphasQ(91.1876), oneLoop(91.1876, 5, 0.22), 1e-8);
  // Two loops lower it, as the second term of the expansion is negative.
  Copy.replace("VFToyLO.info", "AlphaS_OrderQCD: 1", "AlphaS_OrderQCD: 2");
  Expected<PdfMember> Two = PdfSet::open(Copy.Folder, {})->loadMember(0);
  ASSERT_TRUE(Two) << Two.message();
  EXPECT_LT(Two->alphasQ(91.1876), M->alphasQ(91.1876));
  EXPECT_EQ(Two->alphasQ(0.2), std::numeric_limits<double>::max());
}

TEST(PdfAlphaS, RefusesOtherTypes) {
  SetCopy Copy;
  Copy.replace("VFToyLO.info", "AlphaS_Type: ipol", "AlphaS_Type: ode");
  std::string E = Copy.loadError();
  EXPECT_NE(E.find("VFToyLO.info:"), std::string::npos) << E;
  EXPECT_NE(E.find("AlphaS_Type 'ode' is not supported"), std::string::npos)
      << E;
}

} // namespace
