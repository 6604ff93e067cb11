//===- api/CommandLine.cpp - What a command line names in a module --------===//
//
// The words are vegasc's (its tests hold them): each door puts its own
// heading ("vegasc: error: ") in front.
//
//===----------------------------------------------------------------------===//

#include "vf/CommandLine.h"

#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"

#include <cmath>

using namespace llvm;

namespace vf {

Expected<std::string> chooseIntegrand(const std::vector<std::string> &Names,
                                      const std::string &Requested,
                                      const std::string &File) {
  std::string List;
  for (const std::string &N : Names)
    List += (List.empty() ? "" : ", ") + N;
  if (!Requested.empty()) {
    if (llvm::is_contained(Names, Requested))
      return Requested;
    return Error("no integrand named '" + Requested + "' in " + File +
                 (List.empty() ? std::string() : "; it has: " + List));
  }
  if (Names.size() == 1)
    return Names[0];
  if (Names.empty())
    return Error(File + " defines no integrand");
  return Error(File + " defines several integrands (" + List +
               "); choose one with --integrand NAME");
}

Expected<std::vector<double>>
applyParams(const std::vector<std::string> &Names,
            const std::vector<double> &Defaults,
            const std::vector<std::string> &Assignments) {
  std::vector<double> Values = Defaults;
  for (const std::string &S : Assignments) {
    auto [Name, Val] = StringRef(S).split('=');
    double V;
    if (Val.empty() || Val.trim().getAsDouble(V))
      return Error("--param '" + S + "': expected NAME=VALUE with a number");
    // As in a source or a batch file: 1e999 is not a value.
    if (!std::isfinite(V))
      return Error("--param '" + S + "': the value must be a finite number");
    auto It = llvm::find(Names, Name.trim());
    if (It != Names.end()) {
      Values[It - Names.begin()] = V;
      continue;
    }
    std::vector<StringRef> Candidates(Names.begin(), Names.end());
    StringRef Best = closestName(Name.trim(), Candidates);
    return Error("unknown parameter '" + Name.trim().str() + "'" +
                 (Best.empty() ? std::string()
                               : "; did you mean '" + Best.str() + "'?"));
  }
  return Values;
}

Expected<std::string> readSourceText(const std::string &Path) {
  auto Buf = readSourceFile(Path);
  if (!Buf)
    return Error(toString(Buf.takeError()));
  return (*Buf)->getBuffer().str();
}

} // namespace vf
