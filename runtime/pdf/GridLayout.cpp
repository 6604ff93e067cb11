//===- runtime/pdf/GridLayout.cpp - A member's grid as flat arrays --------===//
//
// Builds the arrays of GridLayout.h. The x coefficients follow LHAPDF
// 6.5's GridPDF (_computePolynomialCoefficients): the slope at a knot is
// the mean of the one-sided difference quotients in log x on its two
// sides (one-sided at the first and last knots), scaled by the interval's
// width, and the cubic Hermite through the two knots is written as
// a t^3 + b t^2 + c t + d, in LHAPDF's arithmetic and order. The knots'
// logarithms are the project's (vfmath.h), as the interpolation's are on
// every device, so a point on a knot lies on it exactly everywhere; they
// may differ from LHAPDF's in the last bit.
//
//===----------------------------------------------------------------------===//
#include "pdf/GridLayout.h"

#include "vfmath.h"

namespace vf::pdf {

namespace {

/// d xf / d log x at knot IX: LHAPDF's _ddx in log space.
double slopeInLogX(const GridLayout &G, std::size_t IX, std::size_t IQ,
                   std::size_t F) {
  auto XF = [&](std::size_t I) {
    return G.Values[(I * G.NumQ2 + IQ) * G.NumFlavours + F];
  };
  if (IX == 0)
    return (XF(1) - XF(0)) / (G.LogX[1] - G.LogX[0]);
  if (IX == G.NumX - 1)
    return (XF(IX) - XF(IX - 1)) / (G.LogX[IX] - G.LogX[IX - 1]);
  const double Left = (XF(IX) - XF(IX - 1)) / (G.LogX[IX] - G.LogX[IX - 1]);
  const double Right = (XF(IX + 1) - XF(IX)) / (G.LogX[IX + 1] - G.LogX[IX]);
  return (Left + Right) / 2.0;
}

} // namespace

GridLayout GridLayout::fromGrid(const MemberGrid &Grid, int ForcePositive) {
  GridLayout G;
  G.ForcePositive = ForcePositive;
  G.NumX = static_cast<std::uint32_t>(Grid.X.size());
  G.NumQ2 = static_cast<std::uint32_t>(Grid.Q.size());
  G.NumFlavours = static_cast<std::uint32_t>(Grid.Flavours.size());
  G.X = Grid.X;
  for (double X : G.X)
    G.LogX.push_back(vf_log(X));
  for (double Q : Grid.Q) {
    G.Q2.push_back(Q * Q);
    G.LogQ2.push_back(vf_log(Q * Q));
  }
  G.Values = Grid.Values;
  G.Slot.fill(-1);
  for (std::uint32_t F = 0; F < G.NumFlavours; ++F)
    if (int S = pidSlot(Grid.Flavours[F]); S >= 0)
      G.Slot[S] = static_cast<std::int32_t>(F);

  G.XCoeffs.resize(std::size_t(G.NumX - 1) * G.NumQ2 * G.NumFlavours * 4);
  for (std::size_t IX = 0; IX + 1 < G.NumX; ++IX) {
    const double DLogX = G.LogX[IX + 1] - G.LogX[IX];
    for (std::size_t IQ = 0; IQ < G.NumQ2; ++IQ) {
      for (std::size_t F = 0; F < G.NumFlavours; ++F) {
        const double VL = G.Values[(IX * G.NumQ2 + IQ) * G.NumFlavours + F];
        const double VH =
            G.Values[((IX + 1) * G.NumQ2 + IQ) * G.NumFlavours + F];
        const double VDL = slopeInLogX(G, IX, IQ, F) * DLogX;
        const double VDH = slopeInLogX(G, IX + 1, IQ, F) * DLogX;
        double *C = &G.XCoeffs[((IX * G.NumQ2 + IQ) * G.NumFlavours + F) * 4];
        C[0] = VDH + VDL - 2 * VH + 2 * VL;
        C[1] = 3 * VH - 3 * VL - 2 * VDL - VDH;
        C[2] = VDL;
        C[3] = VL;
      }
    }
  }
  return G;
}

std::size_t GridLayout::bytes() const {
  return sizeof(double) * (X.size() + LogX.size() + Q2.size() + LogQ2.size() +
                           Values.size() + XCoeffs.size()) +
         sizeof(Slot);
}

GridView GridLayout::view() const {
  return {X.data(),      LogX.data(),    Q2.data(),    LogQ2.data(),
          Values.data(), XCoeffs.data(), Slot.data(),  NumX,
          NumQ2,         NumFlavours,    ForcePositive};
}

} // namespace vf::pdf
