//===- clang/CxxIntegrands.cpp - C/C++ files in a .vf program -------------===//

#include "clang/CxxIntegrands.h"

#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Program.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <cstdio>

using namespace llvm;

namespace vf {

std::vector<ForeignSource> foreignSources(const Program &P) {
  std::vector<ForeignSource> Out;
  StringMap<size_t> Index;
  for (const auto &M : P.Modules)
    for (const auto &I : M->Items) {
      if (I->Kind != ItemKind::Fn)
        continue;
      const auto &F = static_cast<const FnDecl &>(*I);
      if (!F.Extern || F.ExternFile.empty())
        continue;
      auto [It, New] = Index.try_emplace(F.ExternFile, Out.size());
      if (New)
        Out.push_back({F.ExternFile, {}});
      ForeignFunction FF;
      FF.Name = F.Name;
      for (const FnArg &A : F.Args)
        FF.ArgSizes.push_back(A.Size);
      FF.ResultSize = F.ResultSize;
      auto [Line, Col] = P.SM.getLineAndColumn(F.NameRange.Start);
      FF.DeclaredAt = M->Path + ":" + std::to_string(Line) + ":" +
                      std::to_string(Col);
      Out[It->second].Functions.push_back(std::move(FF));
    }
  return Out;
}

static std::string number(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

/// One VF_INTEGRAND entry as .vf items (see the header).
static std::string entryItems(const ForeignEntry &E, StringRef File) {
  const std::string Sym = "vf_cxx_" + E.Name, D = std::to_string(E.Dim);
  const std::string Out = std::to_string(E.Outputs);
  std::string Args;
  for (const ForeignParam &Prm : E.Params)
    Args += (Args.empty() ? "" : ", ") + Prm.Name;
  std::string S = "extern \"" + File.str() + "\" fn " + Sym + "(x: [" + D +
                  "], params: [" +
                  std::to_string(std::max<size_t>(1, E.Params.size())) +
                  "]) -> [" + Out + "]\n";
  S += "integrand " + E.Name + "(x in [0, 1]^" + D + ")" +
       (E.Outputs > 1 ? " -> [" + Out + "]" : std::string()) + " {\n";
  S += "    let r = " + Sym + "(" + (E.Dim == 1 ? "[x]" : "x") + ", [" +
       (Args.empty() ? "0" : Args) + "])\n";
  S += E.Outputs > 1 ? "    return r\n}\n" : "    return r[0]\n}\n";
  return S;
}

Expected<std::string> entryProgram(StringRef Path) {
  Expected<ForeignScan> Scan = scanForeignSource(Path, ForeignTarget::Host);
  if (!Scan)
    return Scan.takeError();
  if (Scan->Entries.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "%s: error: the file defines no integrand: mark one with "
        "VF_INTEGRAND(name, dim, outputs, \"params\") from vf/integrand.h\n",
        Path.str().c_str());
  const std::string File = sys::path::filename(Path).str();
  std::string Text = "# The integrands of " + File + " (VF_INTEGRAND).\n";
  StringMap<double> Params;
  for (const ForeignEntry &E : Scan->Entries)
    for (const ForeignParam &Prm : E.Params) {
      auto [It, New] = Params.try_emplace(Prm.Name, Prm.Default);
      if (New)
        Text += "param " + Prm.Name + " = " + number(Prm.Default) + "\n";
      else if (It->second != Prm.Default)
        return createStringError(
            inconvertibleErrorCode(),
            "%s: error: parameter '%s' has two defaults (%s and %s); the "
            "file's integrands share their parameters\n",
            Path.str().c_str(), Prm.Name.c_str(), number(It->second).c_str(),
            number(Prm.Default).c_str());
    }
  for (const ForeignEntry &E : Scan->Entries)
    Text += entryItems(E, File);
  return Text;
}

bool loadIntegrandFile(Program &P, StringRef Path, DiagEngine &Diags,
                       raw_ostream &ClangOut) {
  if (!isForeignSourcePath(Path))
    return loadProgramFile(P, Path, Diags);
  Expected<std::string> Text = entryProgram(Path);
  if (!Text) {
    ClangOut << toString(Text.takeError());
    return false;
  }
  return loadProgramSource(P, (Path + ".vf").str(), *Text, Diags);
}

bool checkForeignSources(const Program &P, bool Gpu, raw_ostream &OS,
                         bool Warnings) {
  bool Ok = true;
  for (const ForeignSource &S : foreignSources(P)) {
    ForeignCheck C = checkForeignSource(S, Gpu, Warnings);
    OS << C.Diagnostics;
    Ok &= C.Ok;
  }
  return Ok;
}

} // namespace vf
