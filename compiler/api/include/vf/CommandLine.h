//===- vf/CommandLine.h - What a command line names in a module -*- C++ -*-===//
//
// A front door that takes text (vegasc's --integrand and --param, a
// developer mode's) names an integrand of a file and sets parameters as
// NAME=VALUE. Both are read here, once, so that every door refuses the
// same mistakes with the same words (the closest name offered for a
// misspelt one). A file the command line names besides (a batch's TOML
// file) is read as the compiler reads a source.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMMANDLINE_H
#define VF_COMMANDLINE_H

#include "vf/Expected.h"

#include <string>
#include <vector>

namespace vf {

/// The integrand \p Requested among \p Names (those of the file \p File,
/// in source order) or, with none requested, the file's only one; an
/// error lists the file's integrands.
Expected<std::string> chooseIntegrand(const std::vector<std::string> &Names,
                                      const std::string &Requested,
                                      const std::string &File);

/// \p Defaults (one per name of \p Names) with the assignments
/// \p Assignments ("NAME=VALUE", as --param takes them) applied in order;
/// an error names the malformed or unknown one.
Expected<std::vector<double>>
applyParams(const std::vector<std::string> &Names,
            const std::vector<double> &Defaults,
            const std::vector<std::string> &Assignments);

/// The file \p Path whole, read as the compiler reads a source: a regular
/// file (a FIFO or a directory is refused unread), at most 64 MiB; the
/// error is the compiler's ("cannot read 'P': it is a directory, not a
/// regular file").
Expected<std::string> readSourceText(const std::string &Path);

} // namespace vf

#endif // VF_COMMANDLINE_H
