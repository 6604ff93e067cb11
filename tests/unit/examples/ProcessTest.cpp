//===- ProcessTest.cpp - The class-based processes of examples/cpp/process ===//
//
// |M|^2 of EeMuMuProcess and QqbarLLProcess, from helicity amplitudes,
// against the closed formulas of examples/physics/ee_mumu.vf and
// examples/cpp/drell_yan.vf (ported below with the same constants) to
// 1e-12 relative at 500 points of (cos(theta), phi) on the Z peak and off
// it; |M|^2 unchanged by rotations; and a card with another MZ really
// changes the result.
//
//===----------------------------------------------------------------------===//

#include "Processes.h"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>

using vfexample::EeMuMuProcess;
using vfexample::NeutralCurrentProcess;
using vfexample::QqbarLLProcess;

namespace {

//===-- The closed formulas (R. K. Ellis, W. J. Stirling, B. R. Webber) ---===//

/// The constants of ee_mumu.vf and drell_yan.vf.
struct Constants {
  double Alpha = 1.0 / 128;
  double GF = 1.1663787e-5;
  double MZ = 91.1876;
  double GZ = 2.4952;
  double SW2 = 0.2312;
};
constexpr double GeV2pb = 0.3893794e9;

/// [chi1, chi2] at s (drell_yan.vf's chis, ee_mumu.vf's couplings).
std::array<double, 2> chis(double S, const Constants &K) {
  const double Kappa = std::sqrt(2) * K.GF * K.MZ * K.MZ / (4 * M_PI * K.Alpha);
  const double D = std::pow(S - K.MZ * K.MZ, 2) + K.GZ * K.GZ * K.MZ * K.MZ;
  return {Kappa * S * (S - K.MZ * K.MZ) / D, Kappa * Kappa * S * S / D};
}

/// ee_mumu.vf's dsigma(s, c) in pb.
double eeMuMuDsigma(double S, double C, const Constants &K) {
  const auto [Chi1, Chi2] = chis(S, K);
  const double V = -0.5 + 2 * K.SW2, A = -0.5;
  const double A0 = 1 + 2 * V * V * Chi1 + std::pow(V * V + A * A, 2) * Chi2;
  const double A1 = 2 * A * A * Chi1 + 4 * V * V * A * A * Chi2;
  return GeV2pb * M_PI * K.Alpha * K.Alpha / (2 * S) *
         ((1 + C * C) * A0 + 2 * C * A1);
}

/// drell_yan.vf's dsigma(s, c, qq, tq) in pb: a quark of charge Qq and
/// isospin Tq into muons, colour-averaged.
double drellYanDsigma(double S, double C, double Qq, double Tq,
                      const Constants &K) {
  const auto [Chi1, Chi2] = chis(S, K);
  const double Vq = Tq - 2 * Qq * K.SW2, Vl = -0.5 + 2 * K.SW2;
  const double Aq = Tq, Al = -0.5;
  const double A0 = Qq * Qq - 2 * Qq * Vq * Vl * Chi1 +
                    (Vq * Vq + Aq * Aq) * (Vl * Vl + Al * Al) * Chi2;
  const double A1 = -2 * Qq * Aq * Al * Chi1 + 4 * Vq * Vl * Aq * Al * Chi2;
  return GeV2pb * M_PI * K.Alpha * K.Alpha / (2 * S) / 3 *
         ((1 + C * C) * A0 + 2 * C * A1);
}

//===-- Kinematics --------------------------------------------------------===//

using Momentum = std::array<double, 4>;
using Event = std::array<Momentum, 4>;

/// The beams along +z (fermion) and -z (antifermion) at sqrt(s) = RootS,
/// the outgoing l- at (cos(theta), phi) = (C, Phi) and the l+ opposite.
Event collide(double RootS, double C, double Phi) {
  const double E = RootS / 2, SinT = std::sqrt(1 - C * C);
  const Momentum L = {E, E * SinT * std::cos(Phi), E * SinT * std::sin(Phi),
                      E * C};
  return {Momentum{E, 0, 0, E}, Momentum{E, 0, 0, -E}, L,
          Momentum{E, -L[1], -L[2], -L[3]}};
}

/// The event rotated by Euler angles (z, then y, then z).
Event rotated(const Event &In, double A, double B, double G) {
  const double Ca = std::cos(A), Sa = std::sin(A), Cb = std::cos(B),
               Sb = std::sin(B), Cg = std::cos(G), Sg = std::sin(G);
  const double R[3][3] = {
      {Ca * Cb * Cg - Sa * Sg, -Ca * Cb * Sg - Sa * Cg, Ca * Sb},
      {Sa * Cb * Cg + Ca * Sg, -Sa * Cb * Sg + Ca * Cg, Sa * Sb},
      {-Sb * Cg, Sb * Sg, Cb}};
  Event Out;
  for (int I = 0; I < 4; ++I) {
    Out[I][0] = In[I][0];
    for (int J = 0; J < 3; ++J)
      Out[I][J + 1] =
          R[J][0] * In[I][1] + R[J][1] * In[I][2] + R[J][2] * In[I][3];
  }
  return Out;
}

/// |M|^2 of Process at Event, through the generated-code interface.
double matrixElement(NeutralCurrentProcess &Process, Event Momenta) {
  std::vector<double *> P;
  for (Momentum &Q : Momenta)
    P.push_back(Q.data());
  Process.setMomenta(P);
  Process.sigmaKin();
  return Process.getMatrixElements()[0];
}

/// ee_ll.cpp's dsigma/dcos(theta) = |M|^2 / (32 pi s), in pb.
double dsigmaOf(double MatrixElement, double RootS) {
  return GeV2pb * MatrixElement / (32 * M_PI * RootS * RootS);
}

double relative(double A, double B) { return std::abs(A - B) / std::abs(B); }

/// 500 points of (cos(theta), phi), uniform, from a fixed seed.
std::vector<std::array<double, 2>> anglePoints() {
  std::mt19937_64 Engine(20261205);
  std::uniform_real_distribution<double> Unit(0, 1);
  std::vector<std::array<double, 2>> Points(500);
  for (auto &[C, Phi] : Points) {
    C = 2 * Unit(Engine) - 1;
    Phi = 2 * M_PI * Unit(Engine);
  }
  return Points;
}

const double RootSValues[] = {91.19, 60, 200};

template <typename Process> Process initialised(Process P) {
  P.initProc(VF_EXAMPLE_PARAM_CARD);
  return P;
}

} // namespace

TEST(EeMuMuProcess, AgreesWithTheClosedFormula) {
  EeMuMuProcess Process = initialised(EeMuMuProcess());
  double Worst = 0;
  for (double RootS : RootSValues)
    for (const auto &[C, Phi] : anglePoints()) {
      const double Got =
          dsigmaOf(matrixElement(Process, collide(RootS, C, Phi)), RootS);
      const double Want = eeMuMuDsigma(RootS * RootS, C, Constants());
      Worst = std::max(Worst, relative(Got, Want));
      ASSERT_LT(relative(Got, Want), 1e-12)
          << "rs " << RootS << " c " << C << " phi " << Phi;
    }
  RecordProperty("worst_relative_difference",
                 (testing::Message() << Worst).GetString());
}

TEST(QqbarLLProcess, AgreesWithTheClosedFormula) {
  struct Case {
    QqbarLLProcess::Quark Quark;
    double Charge, T3;
  };
  for (const Case &Q : {Case{QqbarLLProcess::Quark::Up, 2.0 / 3, 0.5},
                        Case{QqbarLLProcess::Quark::Down, -1.0 / 3, -0.5}}) {
    QqbarLLProcess Process = initialised(QqbarLLProcess(Q.Quark));
    double Worst = 0;
    for (double RootS : RootSValues)
      for (const auto &[C, Phi] : anglePoints()) {
        const double Got =
            dsigmaOf(matrixElement(Process, collide(RootS, C, Phi)), RootS);
        const double Want =
            drellYanDsigma(RootS * RootS, C, Q.Charge, Q.T3, Constants());
        Worst = std::max(Worst, relative(Got, Want));
        ASSERT_LT(relative(Got, Want), 1e-12)
            << Process.name() << " rs " << RootS << " c " << C;
      }
    RecordProperty("worst_relative_difference " + Process.name(),
                   (testing::Message() << Worst).GetString());
  }
}

TEST(EeMuMuProcess, RotationsLeaveTheMatrixElement) {
  EeMuMuProcess Ee = initialised(EeMuMuProcess());
  QqbarLLProcess Down =
      initialised(QqbarLLProcess(QqbarLLProcess::Quark::Down));
  std::mt19937_64 Engine(38);
  std::uniform_real_distribution<double> Angle(0, 2 * M_PI);
  for (const auto &[C, Phi] : anglePoints()) {
    const Event Beams = collide(91.19, C, Phi);
    const Event Turned =
        rotated(Beams, Angle(Engine), Angle(Engine) / 2, Angle(Engine));
    EXPECT_LT(relative(matrixElement(Ee, Turned), matrixElement(Ee, Beams)),
              1e-12);
    EXPECT_LT(relative(matrixElement(Down, Turned), matrixElement(Down, Beams)),
              1e-12);
  }
}

TEST(EeMuMuProcess, ReadsTheCard) {
  // The shipped card with MZ = 90 GeV: sin^2(theta_W) follows from MW.
  std::ifstream Shipped(VF_EXAMPLE_PARAM_CARD);
  std::stringstream Text;
  Text << Shipped.rdbuf();
  std::string Card = Text.str();
  const std::string MZ = "9.118760e+01";
  ASSERT_NE(Card.find(MZ), std::string::npos);
  Card.replace(Card.find(MZ), MZ.size(), "9.000000e+01");
  const std::string Path = ::testing::TempDir() + "vf_examples_mz90.dat";
  std::ofstream(Path) << Card;

  EeMuMuProcess Shifted;
  Shifted.initProc(Path);
  EeMuMuProcess Standard = initialised(EeMuMuProcess());
  Constants K;
  K.MZ = 90;
  const double MW = 79.954419196956763;
  K.SW2 = 1 - MW * MW / (K.MZ * K.MZ);
  for (const auto &[C, Phi] : anglePoints()) {
    const Event P = collide(91.19, C, Phi);
    const double Got = dsigmaOf(matrixElement(Shifted, P), 91.19);
    EXPECT_GT(relative(Got, dsigmaOf(matrixElement(Standard, P), 91.19)), 0.1);
    EXPECT_LT(relative(Got, eeMuMuDsigma(91.19 * 91.19, C, K)), 1e-12);
  }
}

TEST(EeMuMuProcess, DescribesItself) {
  EXPECT_EQ(EeMuMuProcess().name(), "e- e+ > mu- mu+");
  EXPECT_EQ(QqbarLLProcess(QqbarLLProcess::Quark::Up).name(), "u u~ > l- l+");
  EXPECT_EQ(QqbarLLProcess(QqbarLLProcess::Quark::Down).name(), "d d~ > l- l+");
  EXPECT_EQ(EeMuMuProcess::nexternal, 4);
  EXPECT_EQ(EeMuMuProcess::ninitial, 2);
}

TEST(EeMuMuProcess, MisuseIsAnError) {
  EeMuMuProcess Process;
  EXPECT_THROW(Process.sigmaKin(), std::logic_error);
  EXPECT_THROW(Process.initProc("/nonexistent/param_card.dat"),
               std::runtime_error);
  std::vector<double *> TooFew(3);
  EXPECT_THROW(Process.setMomenta(TooFew), std::invalid_argument);
}
