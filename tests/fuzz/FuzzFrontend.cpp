//===- tests/fuzz/FuzzFrontend.cpp - libFuzzer entry for the front end ----===//
//
// Feeds arbitrary bytes to the whole front end (lexer, parser, imports,
// Sema with its constant folding and index checks) and dumps the AST of
// what parsed. Diagnostics go to a null stream: the fuzzer looks for
// crashes, hangs, leaks and undefined behaviour, never for messages.
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  vf::Program P;
  vf::DiagEngine Diags(P.SM, llvm::nulls());
  llvm::StringRef Source(reinterpret_cast<const char *>(Data), Size);
  vf::loadProgramSource(P, "fuzz.vf", Source, Diags);
  for (const auto &M : P.Modules)
    vf::dumpModule(*M, llvm::nulls());
  Diags.finish();
  return 0;
}
