//===- frontend/Diagnostics.h - Located errors and warnings -----*- C++ -*-===//
//
// Every user-facing error goes through DiagEngine, which prints it with
// llvm::SourceMgr ("file:line:col: error: ...", the line and a caret), counts
// it, and stops printing after a cap so a garbage file gives a short answer.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_DIAGNOSTICS_H
#define VF_COMPILER_FRONTEND_DIAGNOSTICS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"

#include <string>
#include <utility>
#include <vector>

namespace llvm {
class raw_ostream;
}

namespace vf {

class DiagEngine {
public:
  /// Errors beyond this many are counted but not printed.
  static constexpr unsigned DefaultErrorLimit = 20;
  /// Warnings of one kind (the same text before the first quote: "unused
  /// let 'a'" and "unused let 'b'") beyond this many are counted, and
  /// finish() says how many more there were, in one line per kind.
  static constexpr unsigned WarningsPerKind = 20;

  DiagEngine(llvm::SourceMgr &SM, llvm::raw_ostream &OS);

  void error(llvm::SMLoc Loc, const llvm::Twine &Msg,
             llvm::ArrayRef<llvm::SMRange> Ranges = {});
  void warning(llvm::SMLoc Loc, const llvm::Twine &Msg,
               llvm::ArrayRef<llvm::SMRange> Ranges = {});
  /// A note attached to the previous error or warning; dropped if that one
  /// was not printed.
  void note(llvm::SMLoc Loc, const llvm::Twine &Msg,
            llvm::ArrayRef<llvm::SMRange> Ranges = {});
  /// An error with no source location (a missing file, say).
  void errorNoLoc(const llvm::Twine &Msg);

  unsigned errorCount() const { return Errors; }
  unsigned warningCount() const { return Warnings; }
  bool hasErrors() const { return Errors != 0; }
  void setErrorLimit(unsigned N) { ErrorLimit = N; }
  void setWarningsEnabled(bool On) { WarningsEnabled = On; }
  /// The name an error without a location is headed with ("vegasc: error:
  /// ..."); empty, as the library's messages are, for the bare message.
  void setTool(llvm::StringRef Name) { Tool = Name.str(); }
  /// Prints "N errors generated" and "N more warnings like ..." summary
  /// lines where useful.
  void finish();

  llvm::SourceMgr &sourceMgr() { return SM; }

private:
  void emit(llvm::SMLoc Loc, llvm::SourceMgr::DiagKind Kind,
            const llvm::Twine &Msg, llvm::ArrayRef<llvm::SMRange> Ranges);

  llvm::SourceMgr &SM;
  llvm::raw_ostream &OS;
  unsigned Errors = 0;
  unsigned Warnings = 0;
  unsigned ErrorLimit = DefaultErrorLimit;
  bool WarningsEnabled = true;
  std::string Tool = "vegasc";
  bool LastPrinted = false;
  bool LimitReported = false;
  /// Warnings by kind, in the order each kind first appeared.
  std::vector<std::pair<std::string, unsigned>> WarningKinds;
};

/// The candidate closest to \p Name by edit distance, or "" when none is
/// close enough to be a plausible typo.
llvm::StringRef closestName(llvm::StringRef Name,
                            llvm::ArrayRef<llvm::StringRef> Candidates);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_DIAGNOSTICS_H
