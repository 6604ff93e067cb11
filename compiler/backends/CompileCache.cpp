//===- backends/CompileCache.cpp - On-disk cache of compiled code ---------===//
//
// Entry layout: "VFCACHE1" | payload length (8 bytes, little endian) |
// SHA-256 of the payload (32 bytes) | payload.
//
//===----------------------------------------------------------------------===//

#include "backends/CompileCache.h"

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

static constexpr char Magic[] = "VFCACHE1";
static constexpr size_t MagicLen = 8, HeaderLen = MagicLen + 8 + 32;

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
  auto BufOr = MemoryBuffer::getFile(Path, /*IsText=*/false,
                                     /*RequiresNullTerminator=*/false);
  if (!BufOr) {
    ++Misses;
    return std::nullopt;
  }
  StringRef Data = (*BufOr)->getBuffer();
  bool Valid = Data.size() >= HeaderLen && Data.starts_with(StringRef(Magic, MagicLen));
  StringRef Payload;
  if (Valid) {
    uint64_t Len = support::endian::read64le(Data.data() + MagicLen);
    Payload = Data.drop_front(HeaderLen);
    std::array<uint8_t, 32> Sum = SHA256::hash(
        ArrayRef<uint8_t>(Payload.bytes_begin(), Payload.bytes_end()));
    Valid = Len == Payload.size() &&
            std::memcmp(Sum.data(), Data.data() + MagicLen + 8, 32) == 0;
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
