//===- runtime/pdf/AlphaS.cpp - A set's alpha_s(Q), as LHAPDF 6.5 ---------===//
//
// Reads AlphaS.h's two kinds from a set's metadata; AlphaSCoupling.c
// evaluates them.
//
//===----------------------------------------------------------------------===//
#include "pdf/AlphaS.h"

#include "vfmath.h"

#include <cstdint>

namespace vf::pdf {

namespace {

const char *const QuarkNames[6] = {"Down",  "Up",     "Strange",
                                   "Charm", "Bottom", "Top"};

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
    A.LogQ2.push_back(vf_log(A.Q2.back()));
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
  const vf_pdf_alphas V = view();
  return vf_pdf_alphasq2(&V, Q2Value);
}

vf_pdf_alphas AlphaS::view() const {
  vf_pdf_alphas V{};
  V.Q2 = Q2.data();
  V.LogQ2 = LogQ2.data();
  V.Values = Values.data();
  V.NumQ2 = static_cast<std::uint32_t>(Q2.size());
  V.Type = Type == Kind::Ipol ? 0 : 1;
  for (std::size_t I = 0; I < Lambda.size(); ++I) {
    V.Lambda[I] = Lambda[I];
    V.Threshold[I] = Threshold[I];
  }
  V.Order = Order;
  V.NfMin = NfMin;
  V.NfMax = NfMax;
  V.FixedFlavours = FixedFlavours;
  V.FixedScheme = FixedScheme;
  V.AlphaSMZ = AlphaSMZ;
  return V;
}

} // namespace vf::pdf
