//===- runtime/files/SafeFiles.h - Reading and writing files safely -*- C++ -*-===//
//
// Every file vegasflow reads (sources, checkpoints, grids, cache entries,
// TOML) and writes (results, checkpoints, grids, cache entries) goes
// through these, so that no input can hang or exhaust a run and no output
// can damage what it replaces:
//
//   - a file is read only if it is a regular file, checked on the opened
//     descriptor (opened non-blocking, so a FIFO never blocks), and only up
//     to a size limit: /dev/zero, a FIFO or a directory is an error that
//     names the path, never an endless read;
//   - a file is written atomically: a temporary beside it, written, synced,
//     renamed over it, the folder synced. Only a regular file (or a new
//     path) is ever replaced: a FIFO, a device or a directory named as an
//     output is refused, so `--checkpoint /dev/full` cannot turn a device
//     into a file. On any failure the old file is untouched;
//   - temporaries left by a writer that was killed (kill -9) are removed by
//     the next writer of the same path, once their process is gone.
//
// Reading a file whole, writing one and checking an output beforehand are
// public (vf/SafeFiles.h), for every door; this header adds the rest.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_FILES_SAFEFILES_H
#define VF_RUNTIME_FILES_SAFEFILES_H

#include "vf/Expected.h"
#include "vf/SafeFiles.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace vf {

/// A file written atomically in pieces, for outputs too large to hold as
/// one text (event files): the pieces go to the temporary at once, each
/// write is checked, and commit() syncs and renames it over the path. A
/// failed write, or an AtomicFile destroyed before commit(), removes the
/// temporary: the path keeps its old file or stays absent.
class AtomicFile {
public:
  static Expected<AtomicFile> create(const std::string &Path,
                                     const std::string &What);
  AtomicFile(AtomicFile &&Other) noexcept;
  AtomicFile &operator=(AtomicFile &&) = delete;
  ~AtomicFile();

  /// Appends \p Data; after the first failure every call fails again.
  Status write(std::string_view Data);
  Status commit();

private:
  AtomicFile(std::string Path, std::string What, int Fd);
  Status failed(const std::string &Verb);

  std::string Path, What, Tmp;
  int Fd = -1;
  bool Committed = false;
  std::string Failure;
};

/// The temporary writeFileAtomically uses for \p Path in this process.
std::string temporaryFor(const std::string &Path);

} // namespace vf

#endif // VF_RUNTIME_FILES_SAFEFILES_H
