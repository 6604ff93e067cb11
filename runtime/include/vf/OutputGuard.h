//===- vf/OutputGuard.h - Outputs that never clobber inputs ----*- C++ -*-===//
//
// One command may read several files (a source, its imports and extern
// files, a checkpoint, a grid, a batch file, parts) and write several
// (results, checkpoints, grids, reports, events, parts). An output named
// like an input would destroy it (`--json lep.vf`), and two outputs named
// alike would leave only the last (`--json s1 --checkpoint s1`). Every
// door lists what its command reads and writes in an OutputGuard and
// checks it before any work, as `gcc -o x.c x.c` refuses: the same file
// is the same device and inode where it exists, or the same path once
// made absolute and normalised (the folder's real path, then the name)
// where it does not. Only the documented pairs may coincide: an output
// that replaces the input it was read from (`--checkpoint F --resume F`).
// Public, so that an embedding program's door checks its files as
// vegasc's do (runtime/files/OutputGuard.cpp).
//
//===----------------------------------------------------------------------===//
#ifndef VF_OUTPUTGUARD_H
#define VF_OUTPUTGUARD_H

#include "vf/Expected.h"

#include <string>
#include <vector>

namespace vf {

class OutputGuard {
public:
  /// A file the command reads; \p What names it in errors ("the source",
  /// "--resume"). Empty paths and "-" (standard input) are left out.
  void input(const std::string &Path, const std::string &What);
  /// A file the command writes; \p MayReplace: the \p What of the one
  /// input it may be (read first, then replaced atomically), or empty.
  void output(const std::string &Path, const std::string &What,
              const std::string &MayReplace = "");
  /// An error naming the first output that is an input (other than the
  /// one it may replace) or another output.
  Status check() const;

private:
  struct Entry {
    std::string Path, What, MayReplace;
    bool Exists = false;
    unsigned long long Dev = 0, Ino = 0;
    std::string Normal;
  };
  static Entry entry(const std::string &Path, const std::string &What,
                     const std::string &MayReplace);
  static bool same(const Entry &A, const Entry &B);

  std::vector<Entry> Inputs, Outputs;
};

/// One output against a list of inputs (an integrand's source files): an
/// OutputGuard of those.
Status checkNotAnInput(const std::string &Output, const std::string &What,
                       const std::vector<std::string> &Inputs,
                       const std::string &InputsWhat);

/// Whether \p Name, put into an output path in place of a placeholder
/// ("{run}"), keeps the path in its folder: no '/', not "." or "..", no
/// control character. An error naming \p What otherwise.
Status checkPathPart(const std::string &Name, const std::string &What);

} // namespace vf

#endif // VF_OUTPUTGUARD_H
