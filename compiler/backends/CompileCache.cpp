//===- backends/CompileCache.cpp - On-disk cache of compiled code ---------===//
//
// Entry layout: "VFCACHE2" | the entry's own key (64 hex digits) |
// payload length (8 bytes, little endian) | SHA-256 of the payload (32
// bytes) | payload. An entry is served only for the key it carries: a file
// copied over another key's name (or renamed by hand) is a miss, rebuilt,
// never code of another integrand. Entries are read as regular files only,
// bounded in size (files/SafeFiles.h): a FIFO or a link to /dev/zero in
// the cache is a miss, not a hang.
//
//===----------------------------------------------------------------------===//

#include "backends/CompileCache.h"

#include "files/SafeFiles.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Endian.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace vf {

static constexpr char Magic[] = "VFCACHE2";
static constexpr size_t MagicLen = 8, KeyLen = 64,
                        HeaderLen = MagicLen + KeyLen + 8 + 32;
/// Larger than any module's object code or PTX.
static constexpr uint64_t MaxEntryBytes = uint64_t(1) << 30;

void CompileCacheKey::add(StringRef Field) {
  uint8_t Len[8];
  support::endian::write64le(Len, Field.size());
  Hash.update(ArrayRef<uint8_t>(Len, 8));
  Hash.update(Field);
}

std::string CompileCacheKey::finish() {
  std::array<uint8_t, 32> D = Hash.final();
  return toHex(ArrayRef<uint8_t>(D.data(), D.size()), /*LowerCase=*/true);
}

std::string CompileCache::defaultDirectory() {
  if (std::optional<std::string> D = sys::Process::GetEnv("VF_CACHE_DIR"))
    return *D;
  SmallString<256> Path;
  if (std::optional<std::string> X = sys::Process::GetEnv("XDG_CACHE_HOME");
      X && !X->empty()) {
    Path = *X;
  } else if (std::optional<std::string> H = sys::Process::GetEnv("HOME")) {
    Path = *H;
    sys::path::append(Path, ".cache");
  } else {
    sys::path::system_temp_directory(/*ErasedOnReboot=*/false, Path);
  }
  sys::path::append(Path, "vegasflow");
  return Path.str().str();
}

CompileCache::CompileCache(std::string D)
    : Dir(D.empty() ? defaultDirectory() : std::move(D)) {}

std::string CompileCache::pathFor(StringRef Key, StringRef Ext) const {
  SmallString<256> P(Dir);
  sys::path::append(P, Key + "." + Ext);
  return P.str().str();
}

std::optional<std::string> CompileCache::load(StringRef Key, StringRef Ext) {
  std::string Path = pathFor(Key, Ext);
  if (!sys::fs::exists(Path)) {
    ++Misses;
    return std::nullopt;
  }
  vf::Expected<std::string> File =
      readRegularFile(Path, MaxEntryBytes, "the cache entry");
  StringRef Data = File ? StringRef(*File) : StringRef();
  bool Valid = Key.size() == KeyLen && Data.size() >= HeaderLen &&
               Data.starts_with(StringRef(Magic, MagicLen)) &&
               Data.substr(MagicLen, KeyLen) == Key;
  StringRef Payload;
  if (Valid) {
    const char *Len = Data.data() + MagicLen + KeyLen;
    Payload = Data.drop_front(HeaderLen);
    std::array<uint8_t, 32> Sum = SHA256::hash(
        ArrayRef<uint8_t>(Payload.bytes_begin(), Payload.bytes_end()));
    Valid = support::endian::read64le(Len) == Payload.size() &&
            std::memcmp(Sum.data(), Len + 8, 32) == 0;
  }
  if (!Valid) {
    ++Corrupt;
    ++Misses;
    sys::fs::remove(Path);
    return std::nullopt;
  }
  ++Hits;
  return Payload.str();
}

void CompileCache::store(StringRef Key, StringRef Ext, StringRef Data) {
  if (sys::fs::create_directories(Dir)) {
    ++WriteFailures;
    return;
  }
  std::string Final = pathFor(Key, Ext);
  SmallString<256> Temp;
  int FD;
  if (sys::fs::createUniqueFile(Final + ".tmp-%%%%%%", FD, Temp)) {
    ++WriteFailures;
    return;
  }
  {
    raw_fd_ostream OS(FD, /*shouldClose=*/true);
    char Len[8];
    support::endian::write64le(Len, Data.size());
    std::array<uint8_t, 32> Sum =
        SHA256::hash(ArrayRef<uint8_t>(Data.bytes_begin(), Data.bytes_end()));
    OS.write(Magic, MagicLen);
    OS << Key;
    OS.write(Len, 8);
    OS.write(reinterpret_cast<const char *>(Sum.data()), 32);
    OS << Data;
    OS.close();
    if (OS.has_error()) {
      OS.clear_error();
      sys::fs::remove(Temp);
      ++WriteFailures;
      return;
    }
  }
  if (sys::fs::rename(Temp, Final)) {
    sys::fs::remove(Temp);
    ++WriteFailures;
  }
}

CacheStats CompileCache::stats() const {
  return {Hits.load(), Misses.load(), Corrupt.load(), WriteFailures.load()};
}

} // namespace vf
