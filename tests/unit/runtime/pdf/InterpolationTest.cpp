//===- tests/unit/runtime/pdf/InterpolationTest.cpp - xf on and off grid --===//
//
// LHAPDF 6.5's interpolation and continuation on the shipped set, against
// the formula it was written from (ToyFormula.h).
//
// The bound: a cubic Hermite whose slopes are central differences is
// accurate to O(h^3) in the knot spacing h, h = 0.32 in log x below
// x = 0.1 and about 1.0 in log Q^2 above 5 GeV; at a subgrid's edge the
// slope is one-sided, O(h^2). Measured on this grid for x in [1e-5, 0.5]
// and Q in [1.5, 9000] GeV off the two-knot subgrid, the relative error is
// at most 2.8e-3 (just above the 5 GeV edge), except for bottom, whose
// ln(Q^2/m_b^2) rise starts at that edge: 2.6e-2. The tests assert 4e-3
// and 3.5e-2. Above x = 0.5 every x f falls like (1-x)^n to 0, and only
// the absolute error stays small: at most 3.1e-5 (at Q = 100 GeV),
// asserted below 1e-4.
//
//===----------------------------------------------------------------------===//
#include "PdfTestFiles.h"
#include "ToyFormula.h"

#include "pdf/Continuation.h"
#include "pdf/LogCubic.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace vf;
using namespace vf::pdf;
using namespace vf::pdf::test;

namespace {

const int Pids[] = {-5, -4, -3, -2, -1, 1, 2, 3, 4, 5, 21};

TEST(PdfLogCubic, MatchesTheFormulaWithinTheStatedBound) {
  PdfMember M = loadShipped(0);
  double WorstRel = 0, WorstBottom = 0, WorstAbs = 0;
  for (double LX = std::log(1e-5); LX <= std::log(0.5); LX += 0.137) {
    for (double LQ = std::log(1.5); LQ <= std::log(9000.); LQ += 0.173) {
      const double X = std::exp(LX), Q = std::exp(LQ);
      if (Q > 4.4 && Q < 5.1)
        continue;
      for (int Pid : Pids) {
        const double Want = toyXf(Pid, X, Q), Got = M.xfx(Pid, X, Q);
        double &Worst = std::abs(Pid) == 5 ? WorstBottom : WorstRel;
        if (Want != 0)
          Worst = std::max(Worst, std::abs(Got / Want - 1));
      }
    }
  }
  EXPECT_LT(WorstRel, 4e-3);
  EXPECT_LT(WorstBottom, 3.5e-2);
  for (double X = 0.5; X < 1; X += 0.01)
    for (int Pid : Pids)
      WorstAbs =
          std::max(WorstAbs, std::abs(M.xfx(Pid, X, 100) - toyXf(Pid, X, 100)));
  EXPECT_LT(WorstAbs, 1e-4);
}

TEST(PdfLogCubic, GivesTheKnotValuesAtTheKnots) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  for (std::uint32_t IX = 0; IX < G.NumX; IX += 7)
    for (std::uint32_t IQ = 0; IQ < G.NumQ2; IQ += 5) {
      // A Q shared by two subgrids has the upper one's value.
      std::uint32_t Row =
          IQ + 1 < G.NumQ2 && G.Q2[IQ + 1] == G.Q2[IQ] ? IQ + 1 : IQ;
      double Want = G.Values[(IX * G.NumQ2 + Row) * G.NumFlavours + 10];
      EXPECT_NEAR(M.xfxQ2(21, G.X[IX], G.Q2[IQ]), Want,
                  1e-14 * std::abs(Want) + 1e-15);
    }
}

TEST(PdfLogCubic, TakesTheUpperSubgridAtASharedKnot) {
  PdfMember M = loadShipped(0);
  // Bottom is 0 in the first subgrid and jumps at Q = 4.5, its last knot.
  const double X = 0.01;
  EXPECT_EQ(M.xfx(5, X, 4.4999), 0.0);
  EXPECT_NEAR(M.xfx(5, X, 4.5), toyXf(5, X, 4.5), 3e-3 * toyXf(5, X, 4.5));
  EXPECT_GT(M.xfx(-5, X, 4.5), 0.0);
}

TEST(PdfLogCubic, IsLinearInTheTwoKnotSubgrid) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  // At an x knot, linear in log Q^2 between the subgrid's two knots.
  const std::uint32_t IX = 20, IQ = 6; // Q knots 6 and 7: 4.5 and 5 GeV
  ASSERT_EQ(G.Q2[IQ], 4.5 * 4.5);
  ASSERT_EQ(G.Q2[IQ + 1], 5.0 * 5.0);
  const double Q = 4.75;
  const double Lo = G.Values[(IX * G.NumQ2 + IQ) * G.NumFlavours + 10];
  const double Hi = G.Values[(IX * G.NumQ2 + IQ + 1) * G.NumFlavours + 10];
  const double T =
      (std::log(Q * Q) - G.LogQ2[IQ]) / (G.LogQ2[IQ + 1] - G.LogQ2[IQ]);
  EXPECT_NEAR(M.xfx(21, G.X[IX], Q), Lo + T * (Hi - Lo), 1e-14 * Lo);
}

TEST(PdfLogCubic, ReadsBothGluonIds) {
  PdfMember Zero = loadShipped(0), One = loadShipped(1);
  EXPECT_EQ(Zero.xfx(0, 0.1, 10), Zero.xfx(21, 0.1, 10));
  EXPECT_EQ(One.xfx(0, 0.1, 10), One.xfx(21, 0.1, 10));
  // Member 1 (written with id 0) is member 0's gluon times 1.05.
  EXPECT_NEAR(One.xfx(21, 0.1, 10) / Zero.xfx(21, 0.1, 10), 1.05, 1e-8);
  EXPECT_EQ(One.xfx(2, 0.1, 10), Zero.xfx(2, 0.1, 10));
}

TEST(PdfLogCubic, GivesZeroForAFlavourTheSetLacks) {
  PdfMember M = loadShipped(0);
  EXPECT_EQ(M.xfx(6, 0.1, 100), 0.0);
  EXPECT_EQ(M.xfx(22, 0.1, 100), 0.0);
  EXPECT_EQ(M.xfx(11, 0.1, 100), 0.0);
  EXPECT_TRUE(std::isnan(M.xfx(2, 1.5, 100)));
  EXPECT_TRUE(std::isnan(M.xfxQ2(2, 0.1, -1)));
}

TEST(PdfLayout, StatesItsMemoryPerMember) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  EXPECT_EQ(G.NumX, 50u);
  EXPECT_EQ(G.NumQ2, 24u);
  EXPECT_EQ(G.NumFlavours, 11u);
  const std::size_t Doubles = 2 * 50 + 2 * 24 + 50 * 24 * 11 + 49 * 24 * 11 * 4;
  EXPECT_EQ(G.bytes(), Doubles * sizeof(double) + NumSlots * 4);
  EXPECT_GT(M.bytes(), G.bytes());
}

TEST(PdfContinuation, IsLogLinearBelowTheFirstXKnot) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  const double Q = 20, X = 1e-7;
  const double F0 = M.xfx(21, G.X[0], Q), F1 = M.xfx(21, G.X[1], Q);
  const double Want = std::exp(
      std::log(F0) + (std::log(X) - G.LogX[0]) / (G.LogX[1] - G.LogX[0]) *
                         (std::log(F1) - std::log(F0)));
  EXPECT_DOUBLE_EQ(M.xfx(21, X, Q), Want);
  // The toy gluon is nearly a power of x there, so the continuation
  // follows it.
  EXPECT_NEAR(M.xfx(21, X, Q) / toyXf(21, X, Q), 1, 0.05);
}

TEST(PdfContinuation, IsLogLinearAboveTheLastQKnot) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  const double X = 0.05, Q2 = 1e9;
  const double F1 = M.xfxQ2(2, X, G.Q2[G.NumQ2 - 1]),
               F0 = M.xfxQ2(2, X, G.Q2[G.NumQ2 - 2]);
  const double Want = std::exp(
      std::log(F1) + (std::log(Q2) - G.LogQ2[G.NumQ2 - 1]) /
                         (G.LogQ2[G.NumQ2 - 2] - G.LogQ2[G.NumQ2 - 1]) *
                         (std::log(F0) - std::log(F1)));
  EXPECT_DOUBLE_EQ(M.xfxQ2(2, X, Q2), Want);
  EXPECT_GT(M.xfxQ2(2, 1e-7, Q2), 0.0); // both x and Q^2 off the grid
}

TEST(PdfContinuation, VanishesBelowTheFirstQKnot) {
  PdfMember M = loadShipped(0);
  const GridLayout &G = M.Grid;
  const double X = 0.1, Q2Min = G.Q2[0];
  const double F = M.xfxQ2(21, X, Q2Min), F1 = M.xfxQ2(21, X, 1.01 * Q2Min);
  const double Anom = std::max(-2.5, (F1 - F) / F / 0.01);
  const double Q2 = 0.5 * Q2Min;
  EXPECT_DOUBLE_EQ(
      M.xfxQ2(21, X, Q2),
      F * std::pow(Q2 / Q2Min, Anom * Q2 / Q2Min + 1 - Q2 / Q2Min));
  EXPECT_NEAR(M.xfxQ2(21, X, Q2Min * (1 - 1e-9)), F, 1e-6 * F);
  EXPECT_LT(M.xfxQ2(21, X, 1e-6), 1e-5 * F);
  EXPECT_EQ(M.xfxQ2(21, X, 0), 0.0);
}

} // namespace
