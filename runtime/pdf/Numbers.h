//===- runtime/pdf/Numbers.h - Numbers in LHAPDF's text files -*- C++ -*-===//
//
// The .info and .dat files of a set write numbers in C's notation; both
// readers parse them here, whole tokens only, so that "1.0x" or "nan" in a
// grid is an error at its line rather than a silently shortened value.
// std::from_chars rounds correctly, as strtod does, so a knot read here has
// the bits LHAPDF reads.
//
//===----------------------------------------------------------------------===//
#ifndef VF_RUNTIME_PDF_NUMBERS_H
#define VF_RUNTIME_PDF_NUMBERS_H

#include <charconv>
#include <cmath>
#include <string_view>

namespace vf::pdf {

/// A finite double spelled by the whole of \p Token.
inline bool parseDouble(std::string_view Token, double &Out) {
  if (!Token.empty() && Token.front() == '+')
    Token.remove_prefix(1);
  const char *End = Token.data() + Token.size();
  auto [Ptr, Ec] = std::from_chars(Token.data(), End, Out);
  return Ec == std::errc() && Ptr == End && std::isfinite(Out);
}

/// An integer spelled by the whole of \p Token.
inline bool parseInt(std::string_view Token, long &Out) {
  if (!Token.empty() && Token.front() == '+')
    Token.remove_prefix(1);
  const char *End = Token.data() + Token.size();
  auto [Ptr, Ec] = std::from_chars(Token.data(), End, Out);
  return Ec == std::errc() && Ptr == End;
}

/// Calls \p Fn on each run of non-blank characters of \p Line.
template <typename Fn> void forEachToken(std::string_view Line, Fn &&Each) {
  std::size_t I = 0;
  while (I < Line.size()) {
    while (I < Line.size() && (Line[I] == ' ' || Line[I] == '\t'))
      ++I;
    std::size_t Start = I;
    while (I < Line.size() && Line[I] != ' ' && Line[I] != '\t')
      ++I;
    if (I > Start)
      Each(Line.substr(Start, I - Start));
  }
}

/// \p Text without leading and trailing blanks and carriage returns.
inline std::string_view trimBlanks(std::string_view Text) {
  while (!Text.empty() &&
         (Text.front() == ' ' || Text.front() == '\t' || Text.front() == '\r'))
    Text.remove_prefix(1);
  while (!Text.empty() &&
         (Text.back() == ' ' || Text.back() == '\t' || Text.back() == '\r'))
    Text.remove_suffix(1);
  return Text;
}

} // namespace vf::pdf

#endif // VF_RUNTIME_PDF_NUMBERS_H
