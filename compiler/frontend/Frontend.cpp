//===- frontend/Frontend.cpp - Load, parse and check a .vf program --------===//
//
// Imports are loaded depth-first. A stack of the modules being loaded finds
// cycles (reported with the chain); a map by resolved path loads a module
// imported twice only once.
//
//===----------------------------------------------------------------------===//

#include "frontend/Frontend.h"
#include "frontend/Diagnostics.h"
#include "frontend/Lexer.h"
#include "frontend/Parser.h"
#include "frontend/Sema.h"

#include "llvm/ADT/ScopeExit.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <unistd.h>

using namespace llvm;

namespace vf {

namespace {

/// Why readSourceFileOrCode refused a file it opened.
enum class Refusal { Directory = 1, Fifo, Device, Socket, Other, TooLarge };

class RefusalCategory : public std::error_category {
public:
  const char *name() const noexcept override { return "vegasflow source"; }
  std::string message(int C) const override {
    switch (Refusal(C)) {
    case Refusal::Directory:
      return "it is a directory, not a regular file";
    case Refusal::Fifo:
      return "it is a FIFO, not a regular file";
    case Refusal::Device:
      return "it is a device, not a regular file";
    case Refusal::Socket:
      return "it is a socket, not a regular file";
    case Refusal::Other:
      return "it is not a regular file";
    case Refusal::TooLarge:
      break;
    }
    return "it is larger than " + std::to_string(MaxSourceBytes >> 20) +
           " MiB, more than any source should be";
  }
};

const RefusalCategory &refusals() {
  static const RefusalCategory C;
  return C;
}

std::error_code refusal(Refusal R) { return {int(R), refusals()}; }

Refusal refusalOf(sys::fs::file_type T) {
  switch (T) {
  case sys::fs::file_type::directory_file:
    return Refusal::Directory;
  case sys::fs::file_type::fifo_file:
    return Refusal::Fifo;
  case sys::fs::file_type::character_file:
  case sys::fs::file_type::block_file:
    return Refusal::Device;
  case sys::fs::file_type::socket_file:
    return Refusal::Socket;
  default:
    return Refusal::Other;
  }
}

} // namespace

ErrorOr<std::unique_ptr<MemoryBuffer>> readSourceFileOrCode(StringRef Path) {
  if (Path.empty())
    return std::make_error_code(std::errc::no_such_file_or_directory);
  SmallString<256> P(Path);
  const int FD = ::open(P.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (FD < 0)
    return std::error_code(errno, std::generic_category());
  auto Close = make_scope_exit([FD] { ::close(FD); });
  sys::fs::file_status St;
  if (std::error_code EC = sys::fs::status(FD, St))
    return EC;
  if (St.type() != sys::fs::file_type::regular_file)
    return refusal(refusalOf(St.type()));
  if (St.getSize() > MaxSourceBytes) // refused unread
    return refusal(Refusal::TooLarge);
  // Read to the end rather than trusting the size: a /proc file says 0
  // and may still hold text, or fail on reading (/proc/self/mem).
  std::string Text;
  std::vector<char> Chunk(1 << 16);
  for (;;) {
    Expected<size_t> N = sys::fs::readNativeFile(FD, Chunk);
    if (!N)
      return errorToErrorCode(N.takeError());
    if (*N == 0)
      break;
    Text.append(Chunk.data(), *N);
    if (Text.size() > MaxSourceBytes)
      return refusal(Refusal::TooLarge);
  }
  return MemoryBuffer::getMemBufferCopy(Text, Path);
}

Expected<std::unique_ptr<MemoryBuffer>> readSourceFile(StringRef Path) {
  if (Path.empty())
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '': the file name is empty");
  auto B = readSourceFileOrCode(Path);
  if (!B)
    return createStringError(inconvertibleErrorCode(),
                             "cannot read '" + Path +
                                 "': " + B.getError().message());
  return std::move(*B);
}

namespace {

/// Imports nested deeper than this are certainly a mistake (or an attack).
constexpr unsigned MaxImportDepth = 64;

class Loader {
public:
  Loader(Program &P, DiagEngine &Diags) : P(P), Diags(Diags) {}

  bool loadMain(std::unique_ptr<MemoryBuffer> Buf) {
    // Keyed like imports (by real path) so that a module importing the main
    // file back is seen as a cycle, not loaded a second time.
    std::string Key = Buf->getBufferIdentifier().str();
    SmallString<256> Real;
    if (!sys::fs::real_path(Key, Real))
      Key = Real.str().str();
    return load(std::move(Buf), Key, /*IsMain=*/true) != nullptr;
  }

private:
  SourceModule *load(std::unique_ptr<MemoryBuffer> Buf, const std::string &Key,
                     bool IsMain) {
    auto M = std::make_unique<SourceModule>();
    M->Path = Buf->getBufferIdentifier().str();
    M->IsMain = IsMain;
    StringRef Text = Buf->getBuffer();
    M->BufferID = P.SM.AddNewSourceBuffer(std::move(Buf), SMLoc());
    std::vector<Token> Toks = lexBuffer(Text, Diags);
    parseModule(Toks, *M, Diags);
    SourceModule *Raw = M.get();
    P.Modules.push_back(std::move(M));
    Loaded[Key] = Raw;
    Stack.push_back(Key);
    for (auto &I : Raw->Items) {
      if (I->Kind == ItemKind::Import)
        loadImport(static_cast<ImportDecl &>(*I), *Raw);
      if (I->Kind == ItemKind::Fn && static_cast<FnDecl &>(*I).Extern)
        resolveExtern(static_cast<FnDecl &>(*I), *Raw);
    }
    Stack.pop_back();
    return Raw;
  }

  void loadImport(const ImportDecl &Imp, const SourceModule &From) {
    if (Stack.size() > MaxImportDepth) {
      Diags.error(Imp.PathRange.Start, "imports nested too deeply",
                  Imp.PathRange);
      return;
    }
    std::string Key;
    std::unique_ptr<MemoryBuffer> Buf;
    if (!resolve(Imp, From, Key, Buf))
      return;
    if (is_contained(Stack, Key)) {
      std::string Chain;
      for (auto It = find(Stack, Key); It != Stack.end(); ++It)
        Chain += *It + " -> ";
      Diags.error(Imp.PathRange.Start,
                  "import cycle: " + Chain + Key, Imp.PathRange);
      return;
    }
    if (Loaded.count(Key))
      return;
    load(std::move(Buf), Key, /*IsMain=*/false);
  }

  /// An extern fn's file, relative to the file that declares it; compiled
  /// by the C/C++ front end (compiler/clang) with the module.
  void resolveExtern(FnDecl &F, const SourceModule &From) {
    if (!isForeignSourcePath(F.ExternPath)) {
      Diags.error(F.ExternRange.Start,
                  "an extern function is defined in a C or C++ file (.c, "
                  ".cc, .cpp, .cxx), not '" + F.ExternPath + "'",
                  F.ExternRange);
      return;
    }
    SmallString<256> Full(F.ExternPath);
    if (!sys::path::is_absolute(Full)) {
      Full = From.Path;
      sys::path::remove_filename(Full);
      sys::path::append(Full, F.ExternPath);
    }
    SmallString<256> Real;
    if (std::error_code EC = sys::fs::real_path(Full, Real)) {
      Diags.error(F.ExternRange.Start,
                  "cannot find '" + F.ExternPath + "' (looked for '" + Full +
                      "': " + EC.message() + ")",
                  F.ExternRange);
      return;
    }
    if (!sys::fs::is_regular_file(Real)) {
      Diags.error(F.ExternRange.Start,
                  "'" + Real + "' is not a regular file", F.ExternRange);
      return;
    }
    F.ExternFile = Full.str().str();
  }

  bool resolve(const ImportDecl &Imp, const SourceModule &From,
               std::string &Key, std::unique_ptr<MemoryBuffer> &Buf) {
    StringRef Path = Imp.Path;
    if (Path.consume_front("std/")) {
      const char *Text;
      unsigned long Len;
      if (!lookupStdModule(Path.str().c_str(), &Text, &Len)) {
        Diags.error(Imp.PathRange.Start,
                    "unknown standard module '" + Imp.Path +
                        "'; available: " + stdModuleNames(),
                    Imp.PathRange);
        return false;
      }
      Key = "std/" + Path.str() + ".vf";
      if (!Loaded.count(Key))
        Buf = MemoryBuffer::getMemBuffer(StringRef(Text, Len), Key,
                                         /*RequiresNullTerminator=*/false);
      return true;
    }
    SmallString<256> Full;
    if (sys::path::is_absolute(Path)) {
      Full = Path;
    } else {
      Full = From.Path.rfind("std/", 0) == 0 ? "" : From.Path;
      sys::path::remove_filename(Full);
      sys::path::append(Full, Path);
    }
    if (!sys::path::has_extension(Full))
      Full += ".vf";
    SmallString<256> Real;
    if (std::error_code EC = sys::fs::real_path(Full, Real)) {
      Diags.error(Imp.PathRange.Start,
                  "cannot find module '" + Imp.Path + "' (looked for '" +
                      Full + "': " + EC.message() + ")",
                  Imp.PathRange);
      return false;
    }
    Key = Real.str().str();
    if (Loaded.count(Key) || is_contained(Stack, Key))
      return true;
    // Devices and pipes (`import "/dev/zero"`) would never finish reading.
    auto BufOr = readSourceFile(Full);
    if (!BufOr) {
      Diags.error(Imp.PathRange.Start,
                  "cannot import '" + Imp.Path +
                      "': " + toString(BufOr.takeError()),
                  Imp.PathRange);
      return false;
    }
    Buf = std::move(*BufOr);
    return true;
  }

  Program &P;
  DiagEngine &Diags;
  StringMap<SourceModule *> Loaded;
  std::vector<std::string> Stack;
};

} // namespace

bool isForeignSourcePath(StringRef Path) {
  StringRef Ext = sys::path::extension(Path);
  return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx";
}

bool parseProgramFile(Program &P, StringRef Path, DiagEngine &Diags) {
  auto BufOr = readSourceFile(Path);
  if (!BufOr) {
    Diags.errorNoLoc(toString(BufOr.takeError()));
    return false;
  }
  unsigned Before = Diags.errorCount();
  Loader(P, Diags).loadMain(std::move(*BufOr));
  return Diags.errorCount() == Before;
}

bool parseProgramSource(Program &P, StringRef Name, StringRef Source,
                        DiagEngine &Diags) {
  unsigned Before = Diags.errorCount();
  Loader(P, Diags).loadMain(MemoryBuffer::getMemBufferCopy(Source, Name));
  return Diags.errorCount() == Before;
}

bool loadProgramFile(Program &P, StringRef Path, DiagEngine &Diags) {
  unsigned Before = Diags.errorCount();
  if (!parseProgramFile(P, Path, Diags) && P.Modules.empty())
    return false;
  checkProgram(P, Diags);
  return Diags.errorCount() == Before;
}

bool loadProgramSource(Program &P, StringRef Name, StringRef Source,
                       DiagEngine &Diags) {
  unsigned Before = Diags.errorCount();
  parseProgramSource(P, Name, Source, Diags);
  checkProgram(P, Diags);
  return Diags.errorCount() == Before;
}

} // namespace vf
