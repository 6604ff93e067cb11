//===- runtime/pdf/SetIdentity.h - What a compiled program read -*- C++ -*-===//
//
// A program that names a set is checked against its files (members,
// flavours) when it is compiled, so a cached compilation is valid only
// while those files are unchanged. Their identity is each file's path,
// size and modification time (to the nanosecond where the file system
// keeps it): cheap to take on every run, unlike a hash of sets that may
// hold hundreds of megabytes, and changed by anything that rewrites a file
// (LHAPDF's own installer replaces whole files).
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_SETIDENTITY_H
#define VF_RUNTIME_PDF_SETIDENTITY_H

#include "pdf/SetPath.h"
#include "vf/Expected.h"

#include <string>

namespace vf::pdf {

/// One line per file, "path<TAB>size<TAB>mtime", for the .info file and
/// members 0 .. NumMembers - 1; an error names a file that is missing.
Expected<std::string> setIdentity(const SetLocation &Where,
                                  unsigned NumMembers);

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_SETIDENTITY_H
