//===- vegasc/LocatedErrors.h - Errors in the batch file --------*- C++ -*-===//
//
// A batch's TOML file is reported on as the compiler reports a source:
// "file:line:col: error: message", the line itself and a caret under the
// column, notes after their error, a cap on how many errors are printed
// and "N errors generated." at the end. The tool prints them itself (the
// front end's diagnostics are the library's internals), byte for byte as
// llvm::SourceMgr does without colours: tabs expanded to 8 columns, a line
// holding non-ASCII bytes printed without a caret, a location outside the
// text reported as "vegasc: error: message".
//
//===----------------------------------------------------------------------===//
#ifndef VF_TOOLS_VEGASC_LOCATEDERRORS_H
#define VF_TOOLS_VEGASC_LOCATEDERRORS_H

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace vf {

/// A place in the text: 1-based line and column (a byte offset in the
/// line, plus one); line 0 is no place.
struct TextLoc {
  unsigned Line = 0;
  unsigned Column = 0;
  bool isValid() const { return Line != 0; }
};

class LocatedErrors {
public:
  /// Errors beyond this many are counted but not printed.
  static constexpr unsigned DefaultErrorLimit = 20;

  explicit LocatedErrors(std::FILE *Out) : Out(Out) {}

  /// The text the locations point into, named \p FileName in messages.
  void setText(std::string FileName, std::string Text);
  /// The place at \p Line and \p Column, or no place when the text has no
  /// such line or the line is shorter than that.
  TextLoc locate(unsigned Line, unsigned Column) const;
  /// The text from \p L to its end ("" for no place).
  std::string_view textFrom(TextLoc L) const;

  void error(TextLoc L, const std::string &Msg);
  /// A note on the previous error; dropped if that one was not printed.
  void note(TextLoc L, const std::string &Msg);
  /// An error with no place in the text (a file that cannot be read).
  void errorNoLoc(const std::string &Msg) { error(TextLoc(), Msg); }

  unsigned errorCount() const { return Errors; }
  bool hasErrors() const { return Errors != 0; }
  void setErrorLimit(unsigned N) { ErrorLimit = N; }
  /// Prints "N errors generated." when there was more than one.
  void finish();

private:
  void print(TextLoc L, const char *Kind, const std::string &Msg);
  /// The byte offset of \p L in Text.
  std::size_t offsetOf(TextLoc L) const;

  std::FILE *Out;
  std::string FileName;
  std::string Text;
  /// Where each line starts in Text, from line 1.
  std::vector<std::size_t> LineStarts;
  unsigned Errors = 0;
  unsigned ErrorLimit = DefaultErrorLimit;
  bool LastPrinted = false;
  bool LimitReported = false;
};

} // namespace vf

#endif // VF_TOOLS_VEGASC_LOCATEDERRORS_H
