//===- runtime/pdf/InfoFile.h - LHAPDF metadata (a YAML subset) -*- C++ -*-===//
//
// A set's .info file, and the header block of each member's .dat file, are
// written in the part of YAML that LHAPDF 6 itself reads: one "Key: value"
// per line, values that are scalars (numbers, words, quoted strings) or
// flow lists "[a, b, c]" (which may run over several lines), and comments
// from '#'. A more deeply indented line continues the previous scalar
// (long SetDesc or Reference texts). Anything else is an error naming the
// file and line. Values keep their line, so a later error about a value
// (a flavour list that is not integers, an unknown AlphaS_Type) names
// where it was written.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_INFOFILE_H
#define VF_RUNTIME_PDF_INFOFILE_H

#include "vf/Expected.h"

#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace vf::pdf {

/// One key's value: a scalar (Text) or a flow list (Items), with its line.
struct InfoEntry {
  std::string Text;
  std::vector<std::string> Items;
  bool IsList = false;
  std::string File; ///< the file it was read from
  unsigned Line = 0;
};

class InfoFile {
public:
  /// Parses \p Text, whose first line is line \p FirstLine of \p File.
  static Expected<InfoFile> parse(std::string_view Text, std::string File,
                                  unsigned FirstLine = 1);

  const std::string &file() const { return File; }
  bool has(const std::string &Key) const { return Entries.count(Key) != 0; }

  /// Each lookup fails with "FILE:LINE: ..." when the value has the wrong
  /// kind, or "FILE: no 'Key' entry" when the key is absent.
  Expected<std::string> text(const std::string &Key) const;
  Expected<double> number(const std::string &Key) const;
  Expected<long> integer(const std::string &Key) const;
  Expected<std::vector<double>> numbers(const std::string &Key) const;
  Expected<std::vector<long>> integers(const std::string &Key) const;

  /// \p Key's scalar, or \p Default when the key is absent.
  std::string textOr(const std::string &Key, const std::string &Default) const;

  /// "FILE:LINE" of \p Key (the file alone if absent), for messages.
  std::string where(const std::string &Key) const;

  /// Keys of \p Member replace these, as a member's own metadata overrides
  /// its set's in LHAPDF.
  void overrideWith(const InfoFile &Member);

private:
  Error missing(const std::string &Key) const;
  /// \p Key's entry, if it is a list.
  Expected<const InfoEntry *> list(const std::string &Key) const;

  std::string File;
  std::map<std::string, InfoEntry> Entries;
};

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_INFOFILE_H
