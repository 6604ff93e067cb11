//===- vegasc/LocatedErrors.cpp - Errors in the batch file ----------------===//
//
// The layout is llvm::SMDiagnostic::print's (LocatedErrors.h): the tests
// of batch errors pin it byte for byte.
//
//===----------------------------------------------------------------------===//

#include "vegasc/LocatedErrors.h"

#include <algorithm>

namespace vf {

namespace {

constexpr unsigned TabStop = 8;

/// \p Line with each tab widened to the next tab stop.
void printSourceLine(std::FILE *Out, std::string_view Line) {
  std::string Wide;
  for (char C : Line) {
    if (C != '\t') {
      Wide += C;
      continue;
    }
    do
      Wide += ' ';
    while (Wide.size() % TabStop != 0);
  }
  Wide += '\n';
  std::fwrite(Wide.data(), 1, Wide.size(), Out);
}

/// The caret under column \p Col (0-based) of \p Line, each tab of the
/// line widened as printSourceLine widens it.
void printCaretLine(std::FILE *Out, std::string_view Line, std::size_t Col) {
  std::string Caret(std::max(Line.size(), Col) + 1, ' ');
  Caret[Col] = '^';
  Caret.erase(Caret.find_last_not_of(' ') + 1);
  std::string Wide;
  for (std::size_t I = 0; I < Caret.size(); ++I) {
    if (I >= Line.size() || Line[I] != '\t') {
      Wide += Caret[I];
      continue;
    }
    do
      Wide += Caret[I];
    while (Wide.size() % TabStop != 0);
  }
  Wide += '\n';
  std::fwrite(Wide.data(), 1, Wide.size(), Out);
}

} // namespace

void LocatedErrors::setText(std::string Name, std::string Contents) {
  FileName = std::move(Name);
  Text = std::move(Contents);
  LineStarts.assign(1, 0);
  for (std::size_t I = 0; I < Text.size(); ++I)
    if (Text[I] == '\n')
      LineStarts.push_back(I + 1);
}

TextLoc LocatedErrors::locate(unsigned Line, unsigned Column) const {
  if (Line == 0 || Line > LineStarts.size())
    return TextLoc();
  const std::size_t Start = LineStarts[Line - 1];
  const std::size_t Skip = Column ? Column - 1 : 0;
  // The column must lie on its line: no line break before it.
  if (Start + Skip > Text.size() ||
      Text.substr(Start, Skip).find_first_of("\n\r") != std::string::npos)
    return TextLoc();
  return TextLoc{Line, unsigned(Skip + 1)};
}

std::size_t LocatedErrors::offsetOf(TextLoc L) const {
  return LineStarts[L.Line - 1] + L.Column - 1;
}

std::string_view LocatedErrors::textFrom(TextLoc L) const {
  if (!L.isValid())
    return {};
  return std::string_view(Text).substr(offsetOf(L));
}

void LocatedErrors::print(TextLoc L, const char *Kind, const std::string &Msg) {
  // Written whole, as the message may hold any byte the TOML file did.
  std::string Head = "vegasc";
  if (L.isValid())
    Head = (FileName == "-" ? std::string("<stdin>") : FileName) + ":" +
           std::to_string(L.Line) + ":" + std::to_string(L.Column);
  const std::string Line1 = Head + ": " + Kind + ": " + Msg + "\n";
  std::fwrite(Line1.data(), 1, Line1.size(), Out);
  if (!L.isValid())
    return;
  // The line runs to the first line break (\n or \r) after its start.
  const std::string_view All(Text);
  const std::size_t Start = LineStarts[L.Line - 1];
  const std::size_t End =
      std::min(All.find_first_of("\n\r", offsetOf(L)), All.size());
  const std::string_view Line = All.substr(Start, End - Start);
  printSourceLine(Out, Line);
  // A caret under multi-byte characters would point at the wrong column.
  if (std::none_of(Line.begin(), Line.end(),
                   [](char C) { return (C & 0x80) != 0; }))
    printCaretLine(Out, Line, L.Column - 1);
}

void LocatedErrors::error(TextLoc L, const std::string &Msg) {
  ++Errors;
  LastPrinted = Errors <= ErrorLimit;
  if (LastPrinted) {
    print(L, "error", Msg);
    return;
  }
  if (!LimitReported) {
    LimitReported = true;
    std::fputs("vegasc: too many errors emitted, stopping now\n", Out);
  }
}

void LocatedErrors::note(TextLoc L, const std::string &Msg) {
  if (LastPrinted)
    print(L, "note", Msg);
}

void LocatedErrors::finish() {
  if (Errors > 1)
    std::fprintf(Out, "%u errors generated.\n", Errors);
}

} // namespace vf
