//===- tests/unit/frontend/FrontendTestUtil.h - Shared helpers --*- C++ -*-===//
//
// Loads .vf source held in a string through the public front-end API and
// keeps the diagnostics text, so each test can assert on both the checked
// program and the exact messages.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H
#define VF_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H

#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Program.h"

#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <string>

namespace vf::test {

/// A program loaded from a string, with its diagnostics.
struct Loaded {
  Program P;
  std::string Diags;
  bool Ok = false;
  unsigned Errors = 0;

  const ConstDecl *constant(llvm::StringRef Name) const {
    Item *I = P.Globals.lookup(Name);
    return I && I->Kind == ItemKind::Const ? static_cast<const ConstDecl *>(I)
                                           : nullptr;
  }
};

/// Parses and checks \p Src (Sema included) as file "t.vf".
inline std::unique_ptr<Loaded> load(llvm::StringRef Src) {
  auto L = std::make_unique<Loaded>();
  llvm::raw_string_ostream OS(L->Diags);
  DiagEngine D(L->P.SM, OS);
  L->Ok = loadProgramSource(L->P, "t.vf", Src, D);
  L->Errors = D.errorCount();
  OS.flush();
  return L;
}

/// Parses \p Src without Sema.
inline std::unique_ptr<Loaded> parseOnly(llvm::StringRef Src) {
  auto L = std::make_unique<Loaded>();
  llvm::raw_string_ostream OS(L->Diags);
  DiagEngine D(L->P.SM, OS);
  L->Ok = parseProgramSource(L->P, "t.vf", Src, D);
  L->Errors = D.errorCount();
  OS.flush();
  return L;
}

} // namespace vf::test

#endif // VF_TESTS_UNIT_FRONTEND_FRONTENDTESTUTIL_H
