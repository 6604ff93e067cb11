//===- runtime/pdf/SetPath.h - Where LHAPDF sets are found -*- C++ -*-===//
//
// A set is a folder NAME holding NAME.info and NAME_0000.dat,
// NAME_0001.dat, ... LHAPDF 6.5 looks for it (Paths.cc, paths()) in:
//
//   1. the folders of LHAPDF_DATA_PATH, colon-separated, in order; if that
//      variable is unset, those of LHAPATH (the LHAPDF 5 name);
//   2. then, unless the variable ends in "::", the install prefixes'
//      share/LHAPDF: here /usr/local/share/LHAPDF, then /usr/share/LHAPDF
//      (LHAPDF itself knows only the prefix it was built with).
//
// A name with a '/' is a path to the set's folder and is not searched.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_SETPATH_H
#define VF_RUNTIME_PDF_SETPATH_H

#include "vf/Expected.h"

#include <string>
#include <vector>

namespace vf::pdf {

/// The folders to search, in order, given the two variables' values
/// (nullptr when unset).
std::vector<std::string> searchPath(const char *LhapdfDataPath,
                                    const char *LhaPath);

/// searchPath of this process's environment.
std::vector<std::string> searchPathFromEnvironment();

/// Where a set's files are.
struct SetLocation {
  std::string Folder; ///< the set's folder
  std::string Name;   ///< the set's name (the folder's last component)
  std::string infoFile() const;
  std::string memberFile(unsigned Member) const;
};

/// Finds set \p NameOrPath in \p Path (or at that path); the error lists
/// the folders searched.
Expected<SetLocation> locateSet(const std::string &NameOrPath,
                                const std::vector<std::string> &Path);

/// The whole of file \p File (a regular file, at most 1 GiB).
Expected<std::string> readSetFile(const std::string &File);

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_SETPATH_H
