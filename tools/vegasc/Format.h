//===- vegasc/Format.h - Numbers in vegasc's tables -------------*- C++ -*-===//
//
// The tables of a single run and of a batch print numbers with printf
// formats ("%-22.15g" for an estimate, "%.3g" for Q), one column at a time;
// cell() keeps the columns apart whatever the values' widths; csvField()
// quotes a field of the batch's CSV file.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_FORMAT_H
#define VF_TOOLS_VEGASC_FORMAT_H

#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>

namespace vf {

/// \p V printed with the printf \p Format (one double conversion).
inline std::string printfDouble(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

/// A table cell: \p V printed with \p Format, a printf conversion with a
/// width ("%-22.15g" left-aligned, "%9.3g" right-aligned). A value as wide
/// as its column or wider (-1.23456789012345e-300, a chi2/dof of 1e+300)
/// gets a space on its open side, so that neighbouring cells never run
/// together (a right-aligned cell is not followed by a left-aligned one in
/// vegasc's tables); a value that fits is printed as before.
inline std::string cell(const char *Format, double V) {
  std::string S = printfDouble(Format, V);
  const bool Left = Format[0] == '%' && Format[1] == '-';
  if (Left && S.back() != ' ')
    S += ' ';
  else if (!Left && S.front() != ' ')
    S.insert(S.begin(), ' ');
  return S;
}

/// The shortest text that reads back to the same double.
inline std::string shortest(double V) {
  char Buf[64];
  auto [End, Ec] = std::to_chars(Buf, Buf + sizeof(Buf), V);
  return Ec == std::errc() ? std::string(Buf, End) : printfDouble("%.17g", V);
}

/// S padded with spaces to at least W characters.
inline std::string padRight(std::string S, std::size_t W) {
  if (S.size() < W)
    S.append(W - S.size(), ' ');
  return S;
}

/// RFC 4180: quote fields holding a comma, a quote or a line break. A text
/// field that a spreadsheet would take for a formula (=, +, -, @, a tab or
/// a carriage return first: a run's error message, a name) gets a leading
/// ' as OWASP advises for CSV files, so that it stays text.
inline std::string csvField(std::string S) {
  if (!S.empty() &&
      std::string_view("=+-@\t\r").find(S[0]) != std::string_view::npos)
    S.insert(0, 1, '\'');
  if (S.find_first_of(",\"\r\n") == std::string::npos)
    return S;
  std::string Q = "\"";
  for (char Ch : S)
    Q += Ch == '"' ? std::string("\"\"") : std::string(1, Ch);
  return Q + "\"";
}

} // namespace vf

#endif // VF_TOOLS_VEGASC_FORMAT_H
