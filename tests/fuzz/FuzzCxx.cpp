//===- tests/fuzz/FuzzCxx.cpp - libFuzzer entry for C/C++ integrands -----===//
//
// Feeds arbitrary bytes, as a C++ translation unit, to what vegasc does
// with a C/C++ file before compiling it: the preprocessor scan (the cache
// digest, the VF_INTEGRAND entries and the checked program built of them)
// and the portability checker over the parsed AST, with the GPU's rules
// as errors or as warnings (alternately). Clang reads the input from a file,
// as it reads a user's, through the same bounded file system. Diagnostics
// are dropped: the fuzzer looks for crashes, hangs, leaks and undefined
// behaviour in the scan's callbacks and the checker's matchers, never for
// messages.
//
//===----------------------------------------------------------------------===//

#include "frontend/Diagnostics.h"
#include "frontend/Program.h"
#include "clang/ClangFrontend.h"
#include "clang/CxxIntegrands.h"

#include "llvm/Support/raw_ostream.h"

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

/// A file of this process's own in the working directory (the build
/// tree's), written for each input and removed at exit.
static const std::string &inputPath() {
  static const std::string Path =
      "fuzz-cxx-input-" + std::to_string(::getpid()) + ".cpp";
  static const bool Registered = [] {
    return std::atexit([] { ::unlink(inputPath().c_str()); }) == 0;
  }();
  (void)Registered;
  return Path;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *Data, size_t Size) {
  const std::string &Path = inputPath();
  std::FILE *F = std::fopen(Path.c_str(), "wb");
  if (!F)
    std::abort();
  if (Size && std::fwrite(Data, 1, Size, F) != Size)
    std::abort();
  std::fclose(F);
  vf::Program P;
  vf::DiagEngine Diags(P.SM, llvm::nulls());
  (void)vf::loadIntegrandFile(P, Path, Diags, llvm::nulls());
  vf::ForeignSource S{Path, {}};
  (void)vf::checkForeignSource(S, /*Gpu=*/Size % 2 == 0);
  return 0;
}
