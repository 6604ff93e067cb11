//===- frontend/SemaPdf.cpp - pdf items, xfx and alphas -------------------===//
//
// A `pdf` item's set is opened and its default member read while checking,
// before any body is checked, and each member argument of `xfx`/`alphas`
// is read when its call is checked: a missing set, member or flavour, or a
// malformed file, is an error at its place in the source, before the run.
// A call keeps only its run-time arguments (AST.h, CallExpr::Pdf).
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/PdfUse.h"
#include "frontend/SemaInternal.h"
#include "pdf/PdfTable.h"
#include "pdf/SetIdentity.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/Path.h"

#include <climits>
#include <cmath>
#include <map>

using namespace llvm;

namespace vf {

/// A set written with a '/' is a folder, relative to the file that names
/// it (as an import is); anything else is a set name LHAPDF would search.
static std::string setArgument(const PdfDecl &D, const SourceModule &M) {
  if (D.Set.find('/') == std::string::npos || sys::path::is_absolute(D.Set) ||
      M.Path.rfind("std/", 0) == 0)
    return D.Set;
  SmallString<256> Full(M.Path);
  sys::path::remove_filename(Full);
  sys::path::append(Full, D.Set);
  return Full.str().str();
}

void SemaImpl::checkPdf(PdfDecl &D, const SourceModule &M) {
  auto Chosen = P.PdfSets.find(D.Name);
  vf::Expected<pdf::PdfSet> Set = pdf::PdfSet::open(
      Chosen != P.PdfSets.end() ? Chosen->second : setArgument(D, M));
  if (!Set) {
    Diags.error(D.SetRange.Start,
                Chosen == P.PdfSets.end()
                    ? Set.message()
                    : "the set chosen for pdf '" + D.Name + "' (" +
                          Chosen->second + "): " + Set.message(),
                D.SetRange);
    return;
  }
  auto Use = std::make_shared<PdfSetUse>(std::move(*Set));
  if (D.Member) {
    auto *N = dynCast<NameExpr>(D.Member.get());
    if (Item *G = N ? P.Globals.lookup(N->Name) : nullptr;
        G && G->Kind == ItemKind::Param) {
      checkExpr(*N, SemaContext{});
      if (memberArgument(*Use, *N))
        D.MemberParam = N->Param;
      D.Use = std::move(Use);
      return;
    }
    std::optional<long long> K =
        constantInteger(*D.Member, SemaContext{}, "a pdf's member");
    if (!K || !loadMember(*Use, *K, *D.Member))
      return;
    D.DefaultMember = static_cast<unsigned>(*K);
  } else if (vf::Expected<pdf::PdfMember> M0 = Use->Set.loadMember(0); !M0) {
    Diags.error(D.SetRange.Start, M0.message(), D.SetRange);
    return;
  } else {
    Use->Members.emplace(0, std::move(*M0));
  }
  D.Use = std::move(Use);
}

void SemaImpl::checkPdfChoices() {
  std::string Items;
  for (auto &M : P.Modules)
    for (auto &I : M->Items)
      if (I->Kind == ItemKind::Pdf)
        Items += (Items.empty() ? "" : ", ") + I->Name;
  for (const auto &[Name, Set] : P.PdfSets) {
    Item *G = P.Globals.lookup(Name);
    if (!G || G->Kind != ItemKind::Pdf)
      Diags.errorNoLoc("a PDF set was chosen for '" + Name + "' (" + Set +
                       "), which is no pdf item of the program (" +
                       (Items.empty() ? std::string("it has none")
                                      : "its pdf items: " + Items) +
                       ")");
  }
}

bool SemaImpl::loadMember(PdfSetUse &Use, long long K, const Expr &Where) {
  unsigned N = Use.Set.numMembers();
  if (K < 0 || K >= N) {
    Diags.error(Where.loc(),
                "PDF set '" + Use.Set.location().Name + "' has " + Twine(N) +
                    " members (0 to " + Twine(N - 1) + "), not member " +
                    Twine(K),
                {Where.Range});
    return false;
  }
  unsigned Index = static_cast<unsigned>(K);
  if (Use.member(Index))
    return true;
  vf::Expected<pdf::PdfMember> M = Use.Set.loadMember(Index);
  if (!M) {
    Diags.error(Where.loc(), M.message(), {Where.Range});
    return false;
  }
  Use.Members.emplace(Index, std::move(*M));
  return true;
}

/// The pdf that \p E, a call's first argument, names; null after an error.
const PdfDecl *SemaImpl::pdfArgument(const CallExpr &Call, Expr &E) {
  auto *N = dynCast<NameExpr>(&E);
  Item *G = N && !lookupLocal(N->Name) ? P.Globals.lookup(N->Name) : nullptr;
  if (!G || G->Kind != ItemKind::Pdf) {
    Diags.error(E.loc(),
                "the first argument of '" + Call.Callee +
                    "' must be a pdf (declared with 'pdf NAME = \"set\"')",
                {E.Range});
    return nullptr;
  }
  return static_cast<const PdfDecl *>(G);
}

bool SemaImpl::checkPdfHandle(CallExpr &E, size_t K) {
  Item *G = P.Globals.lookup(E.Callee);
  if (!G || G->Kind != ItemKind::Fn || lookupLocal(E.Callee))
    return false;
  const auto &F = static_cast<const FnDecl &>(*G);
  if (K >= F.Args.size() || !F.Args[K].IsPdf)
    return false;
  auto *N = dynCast<NameExpr>(E.Args[K].get());
  Item *Named =
      N && !lookupLocal(N->Name) ? P.Globals.lookup(N->Name) : nullptr;
  if (!Named || Named->Kind != ItemKind::Pdf) {
    Diags.error(E.Args[K]->loc(),
                "argument '" + F.Args[K].Name + "' of '" + F.Name +
                    "' is a pdf: pass a pdf item's name (declared with "
                    "'pdf NAME = \"set\"')",
                {E.Args[K]->Range});
    return true;
  }
  if (static_cast<const PdfDecl *>(Named)->MemberParam) {
    Diags.error(E.Args[K]->loc(),
                "pdf '" + N->Name +
                    "' takes its member from a param, which an extern fn's "
                    "pdf argument does not follow yet: pass a pdf item with "
                    "a constant member",
                {E.Args[K]->Range});
    return true;
  }
  N->PdfHandle = static_cast<const PdfDecl *>(Named);
  PdfHandles.push_back(N);
  return true;
}

bool SemaImpl::checkPdfFlavour(const PdfSetUse &Use, long long Id,
                               const Expr &Where) {
  int Pid = Id == 0 ? 21 : static_cast<int>(Id);
  if (llvm::is_contained(Use.Set.flavours(), Pid))
    return true;
  std::string Listed;
  for (int F : Use.Set.flavours())
    Listed += (Listed.empty() ? "" : ", ") + std::to_string(F);
  Diags.error(Where.loc(),
              "PDF set '" + Use.Set.location().Name + "' has no flavour " +
                  Twine(Id) + " (its flavours: " + Listed + ")",
              {Where.Range});
  return false;
}

bool SemaImpl::checkPdfCall(CallExpr &E, const SemaContext &Ctx) {
  if (E.Callee != "xfx" && E.Callee != "alphas")
    return false;
  if (Item *G = P.Globals.lookup(E.Callee); G && G->Kind == ItemKind::Fn)
    return false;
  E.Ty = ExprType::Real;
  checkPdfArguments(E, Ctx);
  return true;
}

/// A member argument whose values Sema cannot enumerate: a fn's argument,
/// or a param (checked before a run, but not before a direct evaluation
/// such as Python's m.f(x)). Every member is read, and the generated code
/// checks the value where the call runs (CallExpr::MemberCount).
static bool checkedWhereItRuns(const Expr &M) {
  const auto *N = dynCast<NameExpr>(&M);
  return N &&
         (N->Binding == BindingKind::FnArg || N->Binding == BindingKind::Param);
}

void SemaImpl::checkPdfArguments(CallExpr &E, const SemaContext &Ctx) {
  bool Xfx = E.Callee == "xfx";
  unsigned Values = Xfx ? 2 : 1; // (x, mu) or (mu)
  unsigned Fixed = Xfx ? 2 : 1;  // the pdf, and the flavour of xfx
  size_t N = E.Args.size();
  if (N < Fixed + Values || N > Fixed + Values + 1) {
    Diags.error(E.CalleeRange.Start,
                "'" + E.Callee + "' takes " + Twine(Fixed + Values) + " or " +
                    Twine(Fixed + Values + 1) + " arguments (" +
                    (Xfx ? "pdf, id, x, mu" : "pdf, mu") + "[, member]), but " +
                    Twine(N) + (N == 1 ? " was" : " were") + " given",
                {E.Range});
    return;
  }
  const PdfDecl *D = pdfArgument(E, *E.Args[0]);
  std::optional<long long> Id =
      Xfx ? constantInteger(*E.Args[1], Ctx, "a flavour (PDG id)") : 0;
  ExprPtr MemberArg =
      N == Fixed + Values + 1 ? std::move(E.Args.back()) : nullptr;
  if (MemberArg) {
    checkExpr(*MemberArg, Ctx);
    requireReal(*MemberArg, "a member argument");
  }
  std::vector<ExprPtr> Run;
  for (unsigned K = Fixed; K < Fixed + Values; ++K) {
    checkExpr(*E.Args[K], Ctx);
    requireReal(*E.Args[K], "an argument of '" + E.Callee + "'");
    Run.push_back(std::move(E.Args[K]));
  }
  if (!Ctx.ConstReason.empty())
    Diags.error(E.loc(),
                Ctx.ConstReason + " must be a compile-time constant; a "
                                  "parton density is evaluated at run time",
                {E.Range});
  if (!D || !D->Use || !Id)
    return;
  if (Xfx && !checkPdfFlavour(*D->Use, *Id, *E.Args[1]))
    return;
  if (!MemberArg && D->MemberParam) {
    auto *N = cast<NameExpr>(D->Member.get());
    auto Copy = std::make_unique<NameExpr>(N->Range, N->Name);
    Copy->Binding = BindingKind::Param;
    Copy->Param = N->Param;
    Copy->Ty = ExprType::Real;
    MemberArg = std::move(Copy);
  }
  std::optional<long long> First =
      MemberArg ? memberArgument(*D->Use, *MemberArg) : D->DefaultMember;
  if (!First)
    return;
  E.Pdf = D;
  E.Query = Xfx ? PdfQuery::Xfx : PdfQuery::AlphaS;
  E.Flavour = *Id == 0 ? 21 : static_cast<int>(*Id);
  E.Member = static_cast<unsigned>(*First);
  if (MemberArg && !MemberArg->ConstValue) {
    if (checkedWhereItRuns(*MemberArg))
      E.MemberCount = D->Use->Set.numMembers();
    E.MemberArg = std::move(MemberArg);
  }
  E.Args = std::move(Run);
  PdfCalls.push_back(&E);
}

std::optional<long long> SemaImpl::memberArgument(PdfSetUse &Use,
                                                  const Expr &M) {
  if (M.ConstValue) {
    double V = *M.ConstValue;
    if (V != std::floor(V) || !(std::fabs(V) < 1e15)) {
      Diags.error(M.loc(),
                  "a member argument must be an integer, but it is " +
                      formatNumber(V),
                  {M.Range});
      return std::nullopt;
    }
    long long K = static_cast<long long>(V);
    return loadMember(Use, K, M) ? std::optional(K) : std::nullopt;
  }
  if (checkedWhereItRuns(M)) {
    const auto &N = static_cast<const NameExpr &>(M);
    return N.Binding == BindingKind::Param ? memberParam(Use, N)
                                           : allMembers(Use, M);
  }
  SmallVector<const ReduceExpr *, 4> Deps;
  if (!collectIndexDeps(M, Deps)) {
    Diags.error(M.loc(),
                "a member argument must be a constant, a param, a fn's "
                "argument, or computed from the index of a weight list or "
                "reduction (as k in 'weights pdfvar(k in 1..59: f * xfx(p, "
                "2, x, mu, k) / xfx(p, 2, x, mu))')",
                {M.Range});
    return std::nullopt;
  }
  uint64_t Combos = 0;
  if (!indexBudget(M, Deps, "this member", Combos))
    return std::nullopt;
  long long Lo = Combos ? LLONG_MAX : 0, Hi = Combos ? LLONG_MIN : 0;
  bool Ok = true;
  visitIndexValues(M, Deps, Combos, [&](double V, const std::string &When) {
    unsigned NMembers = Use.Set.numMembers();
    if (V != std::floor(V) || V < 0 || V >= NMembers) {
      Diags.error(M.loc(),
                  "PDF set '" + Use.Set.location().Name + "' has " +
                      Twine(NMembers) + " members (0 to " +
                      Twine(NMembers - 1) + "), not member " + formatNumber(V) +
                      When,
                  {M.Range});
      return Ok = false;
    }
    Lo = std::min(Lo, static_cast<long long>(V));
    Hi = std::max(Hi, static_cast<long long>(V));
    return true;
  });
  // Every member between: the block then holds them side by side.
  for (long long K = Lo; Ok && K <= Hi; ++K)
    Ok = loadMember(Use, K, M);
  return Ok ? std::optional(Lo) : std::nullopt;
}

std::optional<long long> SemaImpl::allMembers(PdfSetUse &Use,
                                              const Expr &Where) {
  for (unsigned K = 0; K < Use.Set.numMembers(); ++K)
    if (!loadMember(Use, K, Where))
      return std::nullopt;
  return 0;
}

std::optional<long long> SemaImpl::memberParam(PdfSetUse &Use,
                                               const NameExpr &N) {
  if (!allMembers(Use, N))
    return std::nullopt;
  if (none_of(P.PdfMemberParams, [&](const Program::MemberParam &M) {
        return M.Param == N.Param && M.Set == Use.Set.location().Name;
      }))
    P.PdfMemberParams.push_back(
        {N.Param, Use.Set.numMembers(), Use.Set.location().Name, N.loc()});
  return 0;
}

pdf::ErrorMembers listBand(const WeightsStmt &W) {
  if (!W.BandPdf)
    return {};
  const pdf::PdfSet &Set = W.BandPdf->Use->Set;
  const std::string Name = "set '" + Set.location().Name + "'";
  pdf::ErrorMembers E;
  if (W.BandMixed) {
    E.Why = "its index is the member of several sets";
    return E;
  }
  E = pdf::errorMembers(Set);
  if (!E.Why.empty()) {
    E.Why = Name + " has no band: " + E.Why;
    return E;
  }
  const long long First = W.List->LoValue, Last = W.List->HiValue - 1;
  if (First > 1 || Last < E.Count) {
    E = pdf::ErrorMembers{};
    E.Why = "its members " + std::to_string(First) + " to " +
            std::to_string(Last) + " do not cover the error members 1 to " +
            std::to_string(pdf::errorMembers(Set).Count) + " of " + Name;
  }
  return E;
}

void SemaImpl::buildPdfTable() {
  std::vector<const pdf::PdfMember *> Members;
  std::map<std::pair<const PdfSetUse *, unsigned>, unsigned> Index;
  for (auto &M : P.Modules)
    for (auto &I : M->Items) {
      if (I->Kind != ItemKind::Pdf)
        continue;
      const auto &D = static_cast<const PdfDecl &>(*I);
      // Its members are read and held on every device all the same.
      if (M->IsMain &&
          llvm::none_of(PdfCalls,
                        [&](const CallExpr *E) { return E->Pdf == &D; }) &&
          llvm::none_of(PdfHandles,
                        [&](const NameExpr *N) { return N->PdfHandle == &D; }))
        Diags.warning(D.NameRange.Start,
                      "unused pdf '" + D.Name +
                          "' (its members are still "
                          "read and held on each device)",
                      D.NameRange);
      for (const auto &[K, Member] : D.Use->Members) {
        Index[{D.Use.get(), K}] = Members.size();
        Members.push_back(&Member);
      }
      const pdf::PdfSet &Set = D.Use->Set;
      vf::Expected<std::string> Id =
          pdf::setIdentity(Set.location(), Set.numMembers());
      if (!Id)
        Diags.error(D.SetRange.Start, Id.message(), D.SetRange);
      else
        P.PdfSetIdentities.push_back(*Id);
    }
  for (CallExpr *E : PdfCalls)
    E->TableIndex = Index[{E->Pdf->Use.get(), E->Member}];
  for (NameExpr *N : PdfHandles)
    N->PdfTableIndex =
        Index[{N->PdfHandle->Use.get(), N->PdfHandle->DefaultMember}];
  if (!Members.empty())
    P.PdfTable = std::make_shared<pdf::PdfTable>(pdf::PdfTable::build(Members));
}

} // namespace vf
