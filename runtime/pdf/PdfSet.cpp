//===- runtime/pdf/PdfSet.cpp - An LHAPDF 6 set and its members -----------===//
//
// Opening a set and reading its members (PdfSet.h). The checks of what
// this reader supports are made once, on the set's metadata and again on
// each member's (a member may name its own Format or interpolator).
//
//===----------------------------------------------------------------------===//
#include "pdf/PdfSet.h"

#include "pdf/Continuation.h"
#include "pdf/GridFile.h"

namespace vf::pdf {

namespace {

/// Key \p Key of \p Info, when present, must be \p Want.
Status requireValue(const InfoFile &Info, const std::string &Key,
                    const std::string &Want, const std::string &What) {
  if (!Info.has(Key))
    return Status::ok();
  Expected<std::string> V = Info.text(Key);
  if (!V)
    return V.error();
  if (*V != Want)
    return Error(Info.where(Key) + ": " + What + " '" + *V +
                 "' is not supported (only '" + Want + "')");
  return Status::ok();
}

Status checkSupported(const InfoFile &Info) {
  if (Status S = requireValue(Info, "Format", "lhagrid1", "format"); !S)
    return S;
  if (Status S = requireValue(Info, "Interpolator", "logcubic", "interpolator");
      !S)
    return S;
  return requireValue(Info, "Extrapolator", "continuation", "extrapolator");
}

} // namespace

Expected<PdfSet> PdfSet::open(const std::string &NameOrPath,
                              const std::vector<std::string> &Path) {
  Expected<SetLocation> Where = locateSet(NameOrPath, Path);
  if (!Where)
    return Where.error();
  Expected<std::string> Text = readSetFile(Where->infoFile());
  if (!Text)
    return Text.error();
  Expected<InfoFile> Info = InfoFile::parse(*Text, Where->infoFile());
  if (!Info)
    return Info.error();
  if (Status S = checkSupported(*Info); !S)
    return S.error();
  Expected<long> Members = Info->integer("NumMembers");
  if (!Members)
    return Members.error();
  if (*Members < 1)
    return Error(Info->where("NumMembers") + ": NumMembers must be >= 1");
  Expected<std::vector<long>> Ids = Info->integers("Flavors");
  if (!Ids)
    return Ids.error();
  PdfSet Set;
  Set.Where = *Where;
  Set.NumMembers = unsigned(*Members);
  for (long Id : *Ids) {
    if (pidSlot(int(Id)) < 0)
      return Error(Info->where("Flavors") + ": flavour " + std::to_string(Id) +
                   " is not a quark, gluon (21 or 0) or photon (22)");
    Set.Flavours.push_back(Id == 0 ? 21 : int(Id));
  }
  Set.Info = std::move(*Info);
  return Set;
}

Expected<PdfMember> PdfSet::loadMember(unsigned Index) const {
  if (Index >= NumMembers)
    return Error(Info.where("NumMembers") + ": set '" + Where.Name +
                 "' has members 0 to " + std::to_string(NumMembers - 1) +
                 ", not " + std::to_string(Index));
  const std::string File = Where.memberFile(Index);
  Expected<std::string> Text = readSetFile(File);
  if (!Text)
    return Error("member " + std::to_string(Index) + " of set '" + Where.Name +
                 "' is missing: " + Text.message());
  Expected<MemberGrid> Grid = parseMemberGrid(*Text, File, Flavours);
  if (!Grid)
    return Grid.error();
  InfoFile Merged = Info;
  Merged.overrideWith(Grid->Header);
  if (Status S = checkSupported(Merged); !S)
    return S.error();
  long ForcePositive = 0;
  if (Merged.has("ForcePositive")) {
    Expected<long> F = Merged.integer("ForcePositive");
    if (!F)
      return F.error();
    if (*F < 0 || *F > 2)
      return Error(Merged.where("ForcePositive") +
                   ": ForcePositive must be 0, 1 or 2");
    ForcePositive = *F;
  }
  Expected<AlphaS> Alpha = AlphaS::fromInfo(Merged);
  if (!Alpha)
    return Alpha.error();
  PdfMember M;
  M.Index = Index;
  M.Grid = GridLayout::fromGrid(*Grid, int(ForcePositive));
  M.Alpha = std::move(*Alpha);
  return M;
}

double PdfMember::xfxQ2(int Pid, double X, double Q2) const {
  const GridView G = Grid.view();
  return vf_pdf_xfxq2(&G, Pid, X, Q2);
}

double PdfMember::xfx(int Pid, double X, double Q) const {
  return xfxQ2(Pid, X, Q * Q);
}

std::size_t PdfMember::bytes() const {
  return Grid.bytes() +
         sizeof(double) *
             (Alpha.Q2.size() + Alpha.LogQ2.size() + Alpha.Values.size()) +
         sizeof(double) * (Alpha.Lambda.size() + Alpha.Threshold.size());
}

} // namespace vf::pdf
