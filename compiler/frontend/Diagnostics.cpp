//===- frontend/Diagnostics.cpp - Located errors and warnings -------------===//
//
// Printing goes through SourceMgr::PrintMessage, which computes line and
// column lazily and draws the caret and ranges.
//
//===----------------------------------------------------------------------===//

#include "frontend/Diagnostics.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace vf {

DiagEngine::DiagEngine(SourceMgr &SM, raw_ostream &OS) : SM(SM), OS(OS) {}

void DiagEngine::emit(SMLoc Loc, SourceMgr::DiagKind Kind, const Twine &Msg,
                      ArrayRef<SMRange> Ranges) {
  if (Loc.isValid())
    SM.PrintMessage(OS, Loc, Kind, Msg, Ranges);
  else if (Tool.empty())
    OS << Msg << "\n";
  else
    SM.PrintMessage(OS, SMDiagnostic(Tool, Kind, Msg.str()));
}

void DiagEngine::error(SMLoc Loc, const Twine &Msg, ArrayRef<SMRange> Ranges) {
  ++Errors;
  LastPrinted = Errors <= ErrorLimit;
  if (LastPrinted) {
    emit(Loc, SourceMgr::DK_Error, Msg, Ranges);
    return;
  }
  if (!LimitReported) {
    LimitReported = true;
    OS << "vegasc: too many errors emitted, stopping now\n";
  }
}

void DiagEngine::warning(SMLoc Loc, const Twine &Msg,
                         ArrayRef<SMRange> Ranges) {
  LastPrinted = WarningsEnabled;
  if (!WarningsEnabled)
    return;
  ++Warnings;
  std::string Text = Msg.str();
  std::string Kind = Text.substr(0, Text.find('\''));
  auto It = llvm::find_if(WarningKinds,
                          [&](const auto &K) { return K.first == Kind; });
  if (It == WarningKinds.end())
    It = WarningKinds.insert(It, {Kind, 0});
  LastPrinted = ++It->second <= WarningsPerKind;
  if (LastPrinted)
    emit(Loc, SourceMgr::DK_Warning, Text, Ranges);
}

void DiagEngine::note(SMLoc Loc, const Twine &Msg, ArrayRef<SMRange> Ranges) {
  if (LastPrinted)
    emit(Loc, SourceMgr::DK_Note, Msg, Ranges);
}

void DiagEngine::errorNoLoc(const Twine &Msg) { error(SMLoc(), Msg); }

void DiagEngine::finish() {
  for (const auto &[Kind, N] : WarningKinds)
    if (N > WarningsPerKind)
      OS << "vegasc: " << N - WarningsPerKind << " more warning"
         << (N - WarningsPerKind == 1 ? "" : "s") << " like '"
         << StringRef(Kind).rtrim() << " ...' not shown\n";
  WarningKinds.clear();
  if (Errors > 1)
    OS << Errors << " errors generated.\n";
}

/// True when \p A becomes \p B by swapping two adjacent characters, the
/// commonest typo ("alpah"), which plain edit distance counts as two edits.
static bool isAdjacentSwap(StringRef A, StringRef B) {
  if (A.size() != B.size())
    return false;
  size_t K = 0;
  while (K < A.size() && A[K] == B[K])
    ++K;
  return K + 1 < A.size() && A[K] == B[K + 1] && A[K + 1] == B[K] &&
         A.substr(K + 2) == B.substr(K + 2);
}

StringRef closestName(StringRef Name, ArrayRef<StringRef> Candidates) {
  // A typo is at most a third of the name away (and at least one edit);
  // beyond that a suggestion is noise.
  unsigned Best = std::max<unsigned>(1, Name.size() / 3) + 1;
  StringRef BestName;
  for (StringRef C : Candidates) {
    if (C == Name)
      continue;
    unsigned D = isAdjacentSwap(Name, C)
                     ? 1
                     : Name.edit_distance(C, /*AllowReplacements=*/true, Best);
    if (D < Best) {
      Best = D;
      BestName = C;
    }
  }
  return BestName;
}

} // namespace vf
