//===- clang/ClangJob.cpp - One Clang run over a translation unit ---------===//

#include "clang/ClangJob.h"
#include "frontend/Frontend.h"
#include "clang/PortabilityChecker.h"
#include "clang/StandardHeaders.h"
#include "clang/SystemLibrary.h"

#include "PtxTargets.h"

#include "clang/Basic/DiagnosticOptions.h"
#include "clang/Basic/Version.h"
#include "clang/Frontend/CompilerInvocation.h"
#include "clang/Frontend/TextDiagnosticPrinter.h"

#include "llvm/Passes/PassPlugin.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/VirtualFileSystem.h"

#include <atomic>

extern "C" const unsigned char vf_text_integrand_h[];
extern "C" const unsigned long vf_text_integrand_h_len;

using namespace llvm;

/// Debian's Clang registers the statically linked pass plugins it was built
/// with (Polly) in its optimisation pipeline. vegasflow runs no Clang
/// pipeline (-disable-llvm-passes: the integrand module is optimised by
/// the backends), so it links no Polly; this is the plugin Clang asks for.
llvm::PassPluginLibraryInfo getPollyPluginInfo() {
  return {LLVM_PLUGIN_API_VERSION, "polly (not linked)", "0",
          [](llvm::PassBuilder &) {}};
}

namespace vf {

#define VF_STR2(X) #X
#define VF_STR(X) VF_STR2(X)

bool clangIntegrandsBuilt() { return true; }

StringRef integrandHeaderText() {
  return StringRef(reinterpret_cast<const char *>(vf_text_integrand_h),
                   vf_text_integrand_h_len);
}

std::string clangVersion() { return clang::getClangFullVersion(); }

/// Nanoseconds per ClangPhase; compiles may run on several threads.
static std::atomic<int64_t> PhaseNanos[4];

void PhaseClock::lap(ClangPhase P) {
  auto Now = std::chrono::steady_clock::now();
  PhaseNanos[unsigned(P)] +=
      std::chrono::duration_cast<std::chrono::nanoseconds>(Now - Last).count();
  Last = Now;
}

ClangPhaseTimes clangPhaseTimes() {
  auto Ms = [](ClangPhase P) { return PhaseNanos[unsigned(P)] * 1e-6; };
  return {Ms(ClangPhase::Scan), Ms(ClangPhase::Parse), Ms(ClangPhase::Check),
          Ms(ClangPhase::CodeGen)};
}

/// The headers a build sees: vegasflow's (none of the system's), or for a
/// CPU-only file the system's C++ library and Clang's built-in headers,
/// in a hosted build. vf/integrand.h takes libm's declarations there
/// (__VF_SYSTEM_LIBRARY__), whose calls ForeignCompile binds to the math
/// library.
static void addHeaderArguments(std::vector<std::string> &A,
                               const std::vector<std::string> *System) {
  if (!System) {
    A.insert(A.end(), {"-ffreestanding", "-nostdsysteminc", "-nobuiltininc"});
    return;
  }
  A.insert(A.end(), System->begin(), System->end());
  A.push_back("-D__VF_SYSTEM_LIBRARY__=1");
}

static std::vector<std::string>
cc1Arguments(StringRef Path, ForeignTarget T, ClangPurpose P,
             const std::vector<std::string> *System, bool Single) {
  const bool IsC = sys::path::extension(Path) == ".c";
  std::vector<std::string> A = {
      "-triple", T == ForeignTarget::Host ? "x86_64-unknown-linux-gnu"
                                          : "nvptx64-nvidia-cuda"};
  if (T == ForeignTarget::NVPTX)
    A.insert(A.end(), {"-target-cpu", VF_STR(VF_BITCODE_GPU_ARCH),
                       "-target-feature",
                       "+ptx" VF_STR(VF_BITCODE_PTX_ISA)});
  A.insert(A.end(),
           {"-x", IsC ? "c" : "c++", IsC ? "-std=c11" : "-std=c++17",
            // Optimised IR without LLVM's passes: the integrand
            // module is optimised once, with the sampler.
            "-O2", "-disable-llvm-passes", "-fno-builtin", "-ffp-contract=off",
            "-I", ForeignIncludeRoot.str(), "-D__VEGASFLOW__=1", "-fno-rtti",
            "-fno-threadsafe-statics",
            // Bounded compile time and memory for runaway
            // templates, constexpr evaluation and nesting (with
            // the scan's bounds on tokens and bytes and the
            // checker's on instantiations); no warning per NUL
            // byte, which on one huge line costs the square of
            // its length in column numbers.
            "-ftemplate-depth=128", "-fconstexpr-depth=128",
            "-fconstexpr-steps=1000000", "-fbracket-depth", "256",
            "-ferror-limit", "20", "-Wno-null-character",
            "-fmessage-length=0"});
  addHeaderArguments(A, System);
  if (P == ClangPurpose::Check && !IsC)
    A.insert(A.end(), {"-fcxx-exceptions", "-fexceptions"});
  if (T == ForeignTarget::NVPTX)
    A.push_back("-D__VF_GPU__=1");
  if (Single)
    A.push_back("-D__VF_SINGLE__=1");
  // The lines the check of single precision's arithmetic names, each
  // file's path as Clang's diagnostics give it (not made relative to a
  // working folder); the module drops them once checked.
  if (Single && P == ClangPurpose::Compile)
    A.insert(A.end(), {"-debug-info-kind=line-tables-only",
                       "-fdebug-compilation-dir=."});
  // Not -fstack-clash-protection, which would make a frame larger than
  // the stack fault on its guard page rather than possibly land in other
  // memory: inherited by the fused sampler (vf_sample_tile_NAME), whose
  // prologue shrink-wrapping places after code holding a live value in
  // %r11, LLVM 19's inline probe loop uses %r11 as its scratch register
  // and the results are wrong (examples/cpp/ee_mumu_extern.vf gives 5e22
  // for 1985).
  A.push_back(Path.str());
  return A;
}

namespace {
/// A file as read whole by readSourceFileOrCode.
class ReadFile : public vfs::File {
public:
  ReadFile(vfs::Status S, std::unique_ptr<MemoryBuffer> B)
      : S(std::move(S)), Buf(std::move(B)) {}
  ErrorOr<vfs::Status> status() override { return S; }
  ErrorOr<std::unique_ptr<MemoryBuffer>> getBuffer(const Twine &Name, int64_t,
                                                   bool, bool) override {
    return MemoryBuffer::getMemBufferCopy(Buf->getBuffer(), Name);
  }
  std::error_code close() override { return {}; }

private:
  vfs::Status S;
  std::unique_ptr<MemoryBuffer> Buf;
};

/// Every file Clang opens (the main file and each #include) is read by the
/// front end's bounded reader, with the checks of a .vf source: a FIFO is
/// opened without blocking and refused, as are a directory, a device
/// (/dev/zero) and a file over MaxSourceBytes. Clang then reports
/// "cannot open file 'x.h': it is a FIFO, not a regular file" at the
/// #include's file and line, having read none of it.
class BoundedFileSystem : public vfs::ProxyFileSystem {
public:
  using ProxyFileSystem::ProxyFileSystem;

  ErrorOr<std::unique_ptr<vfs::File>>
  openFileForRead(const Twine &Path) override {
    SmallString<256> P;
    Path.toVector(P);
    ErrorOr<std::unique_ptr<MemoryBuffer>> B = readSourceFileOrCode(P);
    if (!B)
      return B.getError();
    ErrorOr<vfs::Status> S = status(P);
    if (!S)
      return S.getError();
    vfs::Status Read = vfs::Status::copyWithNewSize(*S, (*B)->getBufferSize());
    return std::make_unique<ReadFile>(std::move(Read), std::move(*B));
  }
};
} // namespace

/// The real file system with vf/integrand.h and, unless the build takes
/// the system's C++ library, vegasflow's standard headers at
/// ForeignIncludeRoot.
static IntrusiveRefCntPtr<vfs::FileSystem> fileSystem(bool SystemLibrary) {
  auto Overlay = makeIntrusiveRefCnt<vfs::OverlayFileSystem>(
      makeIntrusiveRefCnt<BoundedFileSystem>(vfs::getRealFileSystem()));
  auto Mem = makeIntrusiveRefCnt<vfs::InMemoryFileSystem>();
  Mem->addFile(ForeignIncludeRoot.str() + "/vf/integrand.h", 0,
               MemoryBuffer::getMemBuffer(integrandHeaderText(),
                                          "vf/integrand.h", false));
  if (!SystemLibrary)
    addStandardHeaders(*Mem, ForeignIncludeRoot);
  Overlay->pushOverlay(Mem);
  return Overlay;
}

ClangJob::ClangJob(StringRef Path, ForeignTarget T, ClangPurpose P,
                   bool SystemLibrary, bool Single) {
  const std::vector<std::string> *System = nullptr;
  if (SystemLibrary) {
    Expected<const std::vector<std::string> &> Found = systemLibraryArguments();
    if (!Found) {
      OS << Path << ": error: " << toString(Found.takeError()) << "\n";
      return;
    }
    System = &*Found;
  }
  Args = cc1Arguments(Path, T, P, System, Single);
  std::vector<const char *> Argv;
  for (const std::string &S : Args)
    Argv.push_back(S.c_str());
  auto Opts = makeIntrusiveRefCnt<clang::DiagnosticOptions>();
  clang::DiagnosticsEngine ArgDiags(
      makeIntrusiveRefCnt<clang::DiagnosticIDs>(), Opts,
      new clang::TextDiagnosticPrinter(OS, Opts.get()), true);
  auto Inv = std::make_shared<clang::CompilerInvocation>();
  if (!clang::CompilerInvocation::CreateFromArgs(*Inv, Argv, ArgDiags))
    return;
  Inv->getDiagnosticOpts().ShowColors = false;
  Inv->getFrontendOpts().DisableFree = false;
  CI = std::make_unique<clang::CompilerInstance>();
  CI->setInvocation(std::move(Inv));
  CI->createDiagnostics(
      new clang::TextDiagnosticPrinter(OS, &CI->getDiagnosticOpts()), true);
  CI->createFileManager(fileSystem(SystemLibrary));
  // Not "N errors generated." on stderr: the diagnostics are the message.
  CI->setVerboseOutputStream(std::make_unique<raw_null_ostream>());
}

std::string ClangJob::diagnostics() {
  if (CI)
    CI->getDiagnosticClient().finish();
  return OS.str();
}

bool ClangJob::hasErrors() const {
  return !CI || CI->getDiagnostics().hasErrorOccurred();
}

} // namespace vf
