//===- vf/SafeFiles.h - A door's files, read and written safely -*- C++ -*-===//
//
// How every door (vegasc's, an embedding program's) reads a file it is
// given and writes a whole output, as the library does its own: a file is
// read only if it is a regular file, and only up to a size limit (a FIFO
// or /dev/zero is an error, never an endless read); an output is written
// atomically, a temporary beside the file, written, synced, renamed over
// it, the folder synced, so that a full disk or a kill leaves the old file
// as it was, and only a regular file (or a new path) is ever replaced. The
// rest (outputs written in pieces, the temporaries' names) is internal:
// runtime/files/SafeFiles.h.
//
//===----------------------------------------------------------------------===//
#ifndef VF_SAFEFILES_H
#define VF_SAFEFILES_H

#include "vf/Expected.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace vf {

/// Reads the regular file \p Path whole. \p What names it in errors ("the
/// checkpoint", "the grid"); more than \p MaxBytes is an error.
Expected<std::string> readRegularFile(const std::string &Path,
                                      std::uint64_t MaxBytes,
                                      const std::string &What);

/// Writes \p Data to \p Path atomically (see above); \p What names it in
/// errors.
Status writeFileAtomically(const std::string &Path, std::string_view Data,
                           const std::string &What);

/// Whether \p Path may be written by writeFileAtomically: a new path in a
/// writable folder, or a regular file. For checking outputs before a long
/// run rather than after it; the error says why not.
Status checkWritable(const std::string &Path, const std::string &What);

/// Removes the temporaries of \p Path that writers killed mid-write left
/// (another process's, that process gone). writeFileAtomically does it
/// too; a door that checks \p Path before long work (checkWritable) does
/// it then as well, as Integrator::checkpointTo does.
void removeStaleTemporaries(const std::string &Path);

} // namespace vf

#endif // VF_SAFEFILES_H
