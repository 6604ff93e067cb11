//===- vegasc/TomlReader.cpp - Located reading of TOML values -------------===//
//
// Type and range checks of single TOML values, each mistake reported at
// its place in the file (TomlReader.h).
//
//===----------------------------------------------------------------------===//

#include "vegasc/TomlReader.h"

#include "vegasc/ClosestName.h"

#include <algorithm>
#include <cmath>

namespace vf {

const char *tomlTypeName(const toml::node &N) {
  switch (N.type()) {
  case toml::node_type::table:
    return "a table";
  case toml::node_type::array:
    return "an array";
  case toml::node_type::string:
    return "a string";
  case toml::node_type::integer:
    return "an integer";
  case toml::node_type::floating_point:
    return "a floating-point number";
  case toml::node_type::boolean:
    return "a boolean";
  default:
    return "a date or time";
  }
}

TextLoc TomlReader::loc(const toml::source_region &R) const {
  return Diags.locate(R.begin.line, R.begin.column);
}

void TomlReader::error(TextLoc L, const std::string &Msg) {
  Diags.error(L, Msg);
}

std::vector<std::pair<const toml::key *, const toml::node *>>
TomlReader::ordered(const toml::table &T) {
  std::vector<std::pair<const toml::key *, const toml::node *>> Out;
  for (auto &&[K, N] : T)
    Out.emplace_back(&K, &N);
  std::sort(Out.begin(), Out.end(), [](const auto &A, const auto &B) {
    const auto &PA = A.first->source().begin, &PB = B.first->source().begin;
    return PA.line != PB.line ? PA.line < PB.line : PA.column < PB.column;
  });
  return Out;
}

void TomlReader::unknownKey(const toml::key &K, std::string_view Where,
                            std::span<const std::string_view> Known,
                            std::string_view Hint) {
  const std::string_view Best = closestName(K.str(), Known);
  std::string Msg =
      "unknown key '" + std::string(K.str()) + "' in " + std::string(Where);
  if (!Best.empty())
    Msg += "; did you mean '" + std::string(Best) + "'?";
  else if (!Hint.empty())
    Msg += "; " + std::string(Hint);
  error(loc(K), Msg);
}

bool TomlReader::number(const toml::key &K, const toml::node &N, double &V) {
  if (auto I = N.as_integer()) {
    V = double(I->get());
    return true;
  }
  if (auto F = N.as_floating_point()) {
    V = F->get();
    if (std::isfinite(V))
      return true;
    error(loc(N), "'" + std::string(K.str()) + "' must be a finite number");
    return false;
  }
  error(loc(N),
        "'" + std::string(K.str()) + "' must be a number, got " + tomlTypeName(N));
  return false;
}

bool TomlReader::integer(const toml::key &K, const toml::node &N, std::int64_t Lo,
                     std::int64_t Hi, std::int64_t &V, const char *What) {
  auto I = N.as_integer();
  if (!I || I->get() < Lo || I->get() > Hi) {
    std::string Got = I ? std::to_string(I->get()) : tomlTypeName(N);
    error(loc(N),
          "'" + std::string(K.str()) + "' must be " + What + ", got " + Got);
    return false;
  }
  V = I->get();
  return true;
}

bool TomlReader::string(const toml::key &K, const toml::node &N, std::string &S) {
  auto Str = N.as_string();
  if (!Str) {
    error(loc(N), "'" + std::string(K.str()) + "' must be a string, got " +
                      tomlTypeName(N));
    return false;
  }
  S = Str->get();
  return true;
}

} // namespace vf
