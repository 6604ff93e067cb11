//===- vegasc/TomlReader.h - Located reading of TOML values -----*- C++ -*-===//
//
// The batch file's reader (BatchConfig.cpp, BatchSettings.cpp) reads each
// value through TomlReader: it checks the value's type and range and, when
// they are wrong, reports the mistake at the value's line and column in
// the TOML text (toml++ keeps source regions) through LocatedErrors, then
// goes on, so one pass lists every mistake.
//
// toml++ is used header-only and without exceptions (parse() then returns a
// parse_result): Debian's package would otherwise add a shared library to
// vegasc, which depends only on libc, libstdc++, zlib and zstd.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_TOMLREADER_H
#define VF_TOOLS_VEGASC_TOMLREADER_H

#include "vegasc/BatchConfig.h"

#define TOML_HEADER_ONLY 1
#define TOML_EXCEPTIONS 0
#include <toml++/toml.h>

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace vf {

class TomlReader {
public:
  TomlReader(BatchConfig &C, LocatedErrors &D) : C(C), Diags(D) {}

protected:
  TextLoc loc(const toml::source_region &R) const;
  TextLoc loc(const toml::node &N) const { return loc(N.source()); }
  TextLoc loc(const toml::key &K) const { return loc(K.source()); }

  void error(TextLoc L, const std::string &Msg);
  void unknownKey(const toml::key &K, std::string_view Where,
                  std::span<const std::string_view> Known,
                  std::string_view Hint = "");
  /// Keys of \p T sorted by their position in the file.
  static std::vector<std::pair<const toml::key *, const toml::node *>>
  ordered(const toml::table &T);

  /// A finite number (integer or float).
  bool number(const toml::key &K, const toml::node &N, double &V);
  /// An integer from \p Lo to \p Hi; \p What says which ("a non-negative
  /// integer").
  bool integer(const toml::key &K, const toml::node &N, std::int64_t Lo,
               std::int64_t Hi, std::int64_t &V, const char *What);
  bool string(const toml::key &K, const toml::node &N, std::string &S);

  BatchConfig &C;
  LocatedErrors &Diags;
};

/// "a table", "an integer", ...: what a node is, for messages.
const char *tomlTypeName(const toml::node &N);

} // namespace vf

#endif // VF_TOOLS_VEGASC_TOMLREADER_H
