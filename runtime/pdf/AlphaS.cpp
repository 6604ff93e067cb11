//===- runtime/pdf/AlphaS.cpp - A set's alpha_s(Q), as LHAPDF 6.5 ---------===//
//
// AlphaS.h's two kinds. The beta-function coefficients are LHAPDF's
// decimals (AlphaS::_beta), kept rather than recomputed from the exact
// fractions so that the coupling has LHAPDF's bits.
//
//===----------------------------------------------------------------------===//
#include "pdf/AlphaS.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace vf::pdf {

namespace {

const char *const QuarkNames[6] = {"Down",  "Up",     "Strange",
                                   "Charm", "Bottom", "Top"};

double beta(int I, int Nf) {
  const double N = Nf;
  switch (I) {
  case 0:
    return 0.875352187 - 0.053051647 * N;
  case 1:
    return 0.6459225457 - 0.0802126037 * N;
  case 2:
    return 0.719864327 - 0.140904490 * N + 0.00303291339 * N * N;
  default:
    return 1.172686 - 0.2785458 * N + 0.01624467 * N * N +
           0.0000601247 * N * N * N;
  }
}

/// The six quark values named Prefix+Down ... Prefix+Top, if all are set.
Expected<bool> quarkValues(const InfoFile &Info, const std::string &Prefix,
                           std::array<double, 7> &Out) {
  for (const char *Q : QuarkNames)
    if (!Info.has(Prefix + Q))
      return false;
  for (int I = 0; I < 6; ++I) {
    Expected<double> V = Info.number(Prefix + QuarkNames[I]);
    if (!V)
      return V.error();
    Out[I + 1] = *V;
  }
  return true;
}

Status readIpol(const InfoFile &Info, AlphaS &A) {
  Expected<std::vector<double>> Qs = Info.numbers("AlphaS_Qs");
  if (!Qs)
    return Qs.error();
  Expected<std::vector<double>> Vals = Info.numbers("AlphaS_Vals");
  if (!Vals)
    return Vals.error();
  if (Qs->size() != Vals->size() || Qs->size() < 2)
    return Error(Info.where("AlphaS_Vals") + ": AlphaS_Vals has " +
                 std::to_string(Vals->size()) + " values for " +
                 std::to_string(Qs->size()) + " AlphaS_Qs (at least 2)");
  for (std::size_t I = 0; I < Qs->size(); ++I) {
    if ((*Qs)[I] <= 0 || (I > 0 && (*Qs)[I] < (*Qs)[I - 1]))
      return Error(Info.where("AlphaS_Qs") +
                   ": AlphaS_Qs must be positive and not decreasing");
    A.Q2.push_back((*Qs)[I] * (*Qs)[I]);
    A.LogQ2.push_back(std::log(A.Q2.back()));
  }
  A.Values = *Vals;
  return Status::ok();
}

Status readAnalytic(const InfoFile &Info, AlphaS &A) {
  for (int Nf = 3; Nf <= 5; ++Nf) {
    std::string Key = "AlphaS_Lambda" + std::to_string(Nf);
    if (!Info.has(Key))
      continue;
    Expected<double> L = Info.number(Key);
    if (!L)
      return L.error();
    A.Lambda[Nf] = *L;
    A.NfMax = Nf;
    if (A.NfMin == 0)
      A.NfMin = Nf;
  }
  if (A.NfMin == 0)
    return Error(Info.file() + ": analytic alpha_s needs AlphaS_Lambda3, "
                               "AlphaS_Lambda4 or AlphaS_Lambda5");
  std::array<double, 7> Masses{};
  Expected<bool> M = quarkValues(Info, "AlphaS_M", Masses);
  if (M && !*M)
    M = quarkValues(Info, "M", Masses);
  if (!M)
    return M.error();
  if (!*M)
    return Error(Info.file() + ": analytic alpha_s needs the six quark "
                               "masses (MDown ... MTop)");
  A.Threshold = Masses;
  Expected<bool> T = quarkValues(Info, "AlphaS_Threshold", A.Threshold);
  if (T && !*T)
    T = quarkValues(Info, "Threshold", A.Threshold);
  if (!T)
    return T.error();
  const std::string Scheme = Info.textOr(
      "AlphaS_FlavorScheme", Info.textOr("FlavorScheme", "variable"));
  std::string NfKey = Info.has("AlphaS_NumFlavors") ? "AlphaS_NumFlavors"
                      : Info.has("NumFlavors")      ? "NumFlavors"
                                                    : "";
  long Nf = 5;
  if (!NfKey.empty()) {
    Expected<long> N = Info.integer(NfKey);
    if (!N)
      return N.error();
    Nf = *N;
  }
  A.FixedScheme = Scheme == "fixed";
  A.FixedFlavours = Scheme == "fixed" || Scheme == "variable" ? int(Nf) : 5;
  if (A.FixedScheme && (Nf < 0 || Nf > 6 || A.Lambda[Nf] == 0))
    return Error(Info.file() + ": a fixed " + std::to_string(Nf) +
                 "-flavour scheme needs AlphaS_Lambda" + std::to_string(Nf));
  if (!A.FixedScheme && A.FixedFlavours < A.NfMin)
    return Error(Info.file() + ": no AlphaS_Lambda at or below " +
                 std::to_string(A.FixedFlavours) + " flavours");
  if (A.Order == 0) {
    Expected<double> MZ = Info.number("AlphaS_MZ");
    if (!MZ)
      return MZ.error();
    A.AlphaSMZ = *MZ;
  }
  return Status::ok();
}

} // namespace

Expected<AlphaS> AlphaS::fromInfo(const InfoFile &Info) {
  AlphaS A;
  Expected<std::string> Type = Info.text("AlphaS_Type");
  if (!Type)
    return Type.error();
  if (Info.has("AlphaS_OrderQCD")) {
    Expected<long> O = Info.integer("AlphaS_OrderQCD");
    if (!O)
      return O.error();
    if (*O < 0 || *O > 4)
      return Error(Info.where("AlphaS_OrderQCD") +
                   ": AlphaS_OrderQCD must be 0 to 4");
    A.Order = int(*O);
  }
  Status S = Status::ok();
  if (*Type == "ipol") {
    A.Type = Kind::Ipol;
    S = readIpol(Info, A);
  } else if (*Type == "analytic") {
    A.Type = Kind::Analytic;
    S = readAnalytic(Info, A);
  } else {
    return Error(Info.where("AlphaS_Type") + ": AlphaS_Type '" + *Type +
                 "' is not supported (only 'ipol' and 'analytic')");
  }
  if (!S)
    return S.error();
  return A;
}

double AlphaS::alphasQ2(double Q2Value) const {
  return Type == Kind::Ipol ? ipol(Q2Value) : analytic(Q2Value);
}

double AlphaS::ipol(double Q2Value) const {
  if (Q2Value < Q2.front()) {
    std::size_t Next = 1;
    while (Next + 1 < Q2.size() && Q2[0] == Q2[Next])
      ++Next;
    const double Grad =
        std::log10(Values[Next] / Values[0]) / std::log10(Q2[Next] / Q2[0]);
    return Values[0] * std::pow(Q2Value / Q2[0], Grad);
  }
  if (Q2Value > Q2.back())
    return Values.back();
  // The subgrid: from the last knot <= Q2Value that starts one (the first
  // knot, or a repeated one) to the knot before the next repeat.
  std::size_t Begin = 0;
  for (std::size_t I = 1; I < Q2.size() && Q2[I] <= Q2Value; ++I)
    if (Q2[I] == Q2[I - 1])
      Begin = I;
  std::size_t End = Begin + 1;
  while (End < Q2.size() && Q2[End] != Q2[End - 1])
    ++End;
  const std::size_t N = End - Begin;
  std::size_t I =
      std::upper_bound(Q2.begin() + Begin, Q2.begin() + End, Q2Value) -
      (Q2.begin() + Begin);
  if (I == N)
    --I;
  I = Begin + I - 1;
  auto Forward = [&](std::size_t K) {
    return (Values[K + 1] - Values[K]) / (LogQ2[K + 1] - LogQ2[K]);
  };
  auto Backward = [&](std::size_t K) {
    return (Values[K] - Values[K - 1]) / (LogQ2[K] - LogQ2[K - 1]);
  };
  auto Central = [&](std::size_t K) {
    return (Forward(K) + Backward(K)) * 0.5;
  };
  const bool First = I == Begin, Last = I + 2 == End;
  const double DL = First ? Forward(I) : Central(I);
  const double DH = Last ? Backward(I + 1) : Central(I + 1);
  const double DLogQ2 = LogQ2[I + 1] - LogQ2[I];
  const double T = (std::log(Q2Value) - LogQ2[I]) / DLogQ2;
  const double T2 = T * T, T3 = T2 * T;
  const double V =
      (2 * T3 - 3 * T2 + 1) * Values[I] + (T3 - 2 * T2 + T) * (DL * DLogQ2) +
      (-2 * T3 + 3 * T2) * Values[I + 1] + (T3 - T2) * (DH * DLogQ2);
  return std::abs(V) < 2. ? V : std::numeric_limits<double>::max();
}

int AlphaS::activeFlavours(double Q2Value) const {
  if (FixedScheme)
    return FixedFlavours;
  int Nf = NfMin;
  for (int I = NfMin; I <= NfMax; ++I)
    if (Threshold[I] * Threshold[I] < Q2Value)
      Nf = I;
  return FixedFlavours != -1 && Nf > FixedFlavours ? FixedFlavours : Nf;
}

double AlphaS::lambdaFor(int Nf) const {
  if (FixedScheme)
    return Lambda[FixedFlavours];
  while (Nf > 0 && Lambda[Nf] == 0)
    --Nf;
  return Lambda[Nf];
}

double AlphaS::analytic(double Q2Value) const {
  const int Nf = activeFlavours(Q2Value);
  const double L = lambdaFor(Nf);
  if (Q2Value <= L * L)
    return std::numeric_limits<double>::max();
  if (Order == 0)
    return AlphaSMZ;
  const double B0 = beta(0, Nf), B1 = beta(1, Nf), B2 = beta(2, Nf),
               B3 = beta(3, Nf);
  const double B02 = B0 * B0, B12 = B1 * B1;
  const double LnX = std::log(Q2Value / (L * L));
  const double LnLnX = std::log(LnX);
  const double LnLnX2 = LnLnX * LnLnX, LnLnX3 = LnLnX * LnLnX * LnLnX;
  const double Y = 1 / LnX;
  double Sum = 1;
  if (Order > 1)
    Sum -= B1 * LnLnX / B02 * Y;
  if (Order > 2)
    Sum += B12 / (B02 * B02) * Y * Y * ((LnLnX2 - LnLnX) + B2 * B0 / B12 - 1);
  if (Order > 3)
    Sum -= 1. / (B02 * B02 * B02) * Y * Y * Y *
           (B12 * B1 * (LnLnX3 - (5 / 2.) * LnLnX2 - 2 * LnLnX + 0.5) +
            3 * B0 * B1 * B2 * LnLnX - 0.5 * B02 * B3);
  return 1 / B0 * Y * Sum;
}

} // namespace vf::pdf
