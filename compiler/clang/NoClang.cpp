//===- clang/NoClang.cpp - The C/C++ front end, compiled out --------------===//
//
// A build without Clang (-DVF_CLANG_INTEGRANDS=OFF, as scripts/gpu-pack.sh
// makes for the GPU machine) keeps the front end's functions; each refuses
// a C/C++ file with a message saying why.
//
//===----------------------------------------------------------------------===//

#include "clang/ClangFrontend.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace vf {

static const char *const NotBuilt =
    "%s: error: this vegasflow was built without C and C++ integrands "
    "(-DVF_CLANG_INTEGRANDS=OFF); rebuild with them to compile it\n";

bool clangIntegrandsBuilt() { return false; }

Expected<ForeignScan> scanForeignSource(StringRef Path, ForeignTarget, bool) {
  return createStringError(inconvertibleErrorCode(), NotBuilt,
                           Path.str().c_str());
}

ForeignCheck checkForeignSource(const ForeignSource &S, bool, bool) {
  char Buf[512];
  std::snprintf(Buf, sizeof Buf, NotBuilt, S.Path.c_str());
  return {false, Buf};
}

Expected<std::unique_ptr<Module>>
compileForeignSource(const ForeignSource &S, ForeignTarget, LLVMContext &,
                     std::string &) {
  return createStringError(inconvertibleErrorCode(), NotBuilt,
                           S.Path.c_str());
}

StringRef integrandHeaderText() { return ""; }

ClangPhaseTimes clangPhaseTimes() { return {}; }

} // namespace vf
