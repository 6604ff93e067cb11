//===- clang/SystemLibrary.cpp - The host's C++ standard library ----------===//
//
// Clang's driver builds (but does not run) the job of `clang++
// -fsyntax-only` for the host, as if it were the clang beside the LLVM
// vegasflow was built with (VF_LLVM_TOOLS_DIR, from CMake): its cc1
// arguments hold the resource folder (stddef.h, ...) and the system
// include folders in search order, libstdc++'s first. Nothing is hard
// coded: a machine without g++'s headers (libstdc++-12-dev on Debian 12)
// or without Clang's (libclang-common-19-dev) gets an error naming the
// folders searched and the package.
//
//===----------------------------------------------------------------------===//

#include "clang/SystemLibrary.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Driver/Compilation.h"
#include "clang/Driver/Driver.h"
#include "clang/Driver/Job.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"
#include "llvm/TargetParser/Host.h"

using namespace llvm;

namespace vf {

namespace {

/// The arguments, or what is missing.
struct Found {
  std::vector<std::string> Args;
  std::string Missing;
};

bool hasFile(StringRef Dir, StringRef Name) {
  SmallString<256> P(Dir);
  sys::path::append(P, Name);
  return sys::fs::is_regular_file(P);
}

Found find() {
  const std::string Clang = VF_LLVM_TOOLS_DIR "/clang++";
  clang::DiagnosticsEngine Diags(
      makeIntrusiveRefCnt<clang::DiagnosticIDs>(),
      makeIntrusiveRefCnt<clang::DiagnosticOptions>(),
      new clang::IgnoringDiagConsumer(), true);
  clang::driver::Driver D(Clang, sys::getDefaultTargetTriple(), Diags);
  D.setCheckInputsExist(false);
  std::unique_ptr<clang::driver::Compilation> C(D.BuildCompilation(
      {Clang.c_str(), "-fsyntax-only", "-x", "c++", "integrand.cpp"}));
  Found F;
  if (!C || C->getJobs().empty())
    return {{}, "Clang's driver found no compile job for the host"};
  const opt::ArgStringList &Cc1 = C->getJobs().begin()->getArguments();
  std::string Resource, Library;
  std::vector<std::string> Searched;
  for (size_t K = 0; K + 1 < Cc1.size(); ++K) {
    StringRef A = Cc1[K], V = Cc1[K + 1];
    if (A != "-resource-dir" && A != "-internal-isystem" &&
        A != "-internal-externc-isystem")
      continue;
    F.Args.insert(F.Args.end(), {A.str(), V.str()});
    if (A == "-resource-dir")
      Resource = V.str();
    else
      Searched.push_back(V.str());
    if (A == "-internal-isystem" && Library.empty() && hasFile(V, "vector"))
      Library = V.str();
  }
  if (Resource.empty() || !hasFile(Resource + "/include", "stddef.h"))
    return {{},
            "Clang's built-in headers (stddef.h) are not in '" + Resource +
                "/include': install libclang-common-19-dev "
                "(scripts/install-deps.sh)"};
  if (Library.empty())
    return {{},
            "the C++ standard library's headers (<vector>) are in none "
            "of '" +
                join(Searched, "', '") +
                "': install libstdc++-12-dev (Debian 12, the g++-12 "
                "headers; scripts/install-deps.sh)"};
  return F;
}

} // namespace

Expected<const std::vector<std::string> &> systemLibraryArguments() {
  static const Found F = find();
  if (!F.Missing.empty())
    return createStringError(
        inconvertibleErrorCode(),
        "a header of this file needs the C++ run-time library, and " +
            F.Missing);
  return F.Args;
}

} // namespace vf
