//===- clang/CxxIntegrands.cpp - C/C++ files in a .vf program -------------===//

#include "clang/CxxIntegrands.h"

#include "frontend/Program.h"

#include "llvm/ADT/StringMap.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

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
      for (const FnArg &A : F.Args) {
        FF.ArgSizes.push_back(A.Size);
        FF.PdfArgs.push_back(A.IsPdf);
      }
      FF.ResultSize = F.ResultSize;
      auto [Line, Col] = P.SM.getLineAndColumn(F.NameRange.Start);
      FF.DeclaredAt = M->Path + ":" + std::to_string(Line) + ":" +
                      std::to_string(Col);
      Out[It->second].Functions.push_back(std::move(FF));
    }
  return Out;
}

/// Whether \p S compiles for single precision (its signatures in float,
/// no double arithmetic left); the errors go to \p OS.
static bool compilesInSingle(ForeignSource S, raw_ostream &OS) {
  S.Single = true;
  LLVMContext Ctx;
  std::string Warnings; // the checker has reported them
  Expected<std::unique_ptr<llvm::Module>> M =
      compileForeignSource(S, ForeignTarget::Host, Ctx, Warnings);
  if (M)
    return true;
  OS << toString(M.takeError());
  return false;
}

bool checkForeignSources(const Program &P, bool Gpu, raw_ostream &OS,
                         bool Warnings, bool Single) {
  bool Ok = true;
  for (const ForeignSource &S : foreignSources(P)) {
    ForeignCheck C = checkForeignSource(S, Gpu, Warnings);
    OS << C.Diagnostics;
    Ok &= C.Ok && (!Single || compilesInSingle(S, OS));
  }
  return Ok;
}

} // namespace vf
