//===- backends/CompileCache.h - On-disk cache of compiled code -*- C++ -*-===//
//
// Compiled host objects and PTX text are stored under
// $VF_CACHE_DIR, else $XDG_CACHE_HOME/vegasflow, else ~/.cache/vegasflow,
// one file per key. The key is a SHA-256 over everything that changes the
// generated code (see CompileCacheKey). Entries are written to a temporary
// file and renamed into place, so readers never see half a file; each
// carries its payload's length and hash, so a corrupt or truncated entry is
// detected, removed and rebuilt, never trusted.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_COMPILECACHE_H
#define VF_COMPILER_BACKENDS_COMPILECACHE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SHA256.h"

#include <atomic>
#include <optional>
#include <string>

namespace vf {

/// Accumulates the key's inputs; each is length-prefixed so that no two
/// different input lists hash alike.
class CompileCacheKey {
public:
  void add(llvm::StringRef Field);
  /// The hex digest; the key is final after this.
  std::string finish();

private:
  llvm::SHA256 Hash;
};

struct CacheStats {
  unsigned Hits = 0, Misses = 0, Corrupt = 0, WriteFailures = 0;
};

class CompileCache {
public:
  /// \p Dir empty: the default location described above.
  explicit CompileCache(std::string Dir = "");

  const std::string &directory() const { return Dir; }
  /// The payload stored for \p Key with \p Ext ("obj", "ptx"), if valid.
  std::optional<std::string> load(llvm::StringRef Key, llvm::StringRef Ext);
  /// Stores atomically; a failure only counts (the cache is an optimisation).
  void store(llvm::StringRef Key, llvm::StringRef Ext, llvm::StringRef Data);

  CacheStats stats() const;

  static std::string defaultDirectory();

private:
  std::string pathFor(llvm::StringRef Key, llvm::StringRef Ext) const;

  std::string Dir;
  std::atomic<unsigned> Hits{0}, Misses{0}, Corrupt{0}, WriteFailures{0};
};

} // namespace vf

#endif // VF_COMPILER_BACKENDS_COMPILECACHE_H
