//===- clang/ForeignScan.cpp - Preprocess: cache digest and entries -------===//
//
// The preprocessor alone runs over the translation unit (a millisecond or
// two for a thousand lines), which is all a warm compile needs: the digest
// of every file entered (the main file and its includes, by name and
// content) with the flags and Clang's version is the compile cache's key
// for the C/C++ part, and the VF_INTEGRAND expansions of the main file are
// the integrands it defines.
//
//===----------------------------------------------------------------------===//

#include "clang/ClangJob.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/SHA256.h"

using namespace llvm;

namespace vf {

namespace {

/// The largest dimension and output count an entry may declare (the .vf
/// limit on array sizes).
constexpr unsigned MaxEntrySize = 4096;

class ScanCallbacks : public clang::PPCallbacks {
public:
  ScanCallbacks(clang::Preprocessor &PP, ForeignScan &Out, SHA256 &Hash)
      : PP(PP), SM(PP.getSourceManager()), Out(Out), Hash(Hash) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile)
      return;
    clang::FileID FID = SM.getFileID(Loc);
    auto Entry = SM.getFileEntryRefForID(FID);
    if (!Entry)
      return;
    StringRef Name = Entry->getName();
    StringRef Text = SM.getBufferData(FID);
    for (StringRef Field : {Name, Text}) {
      uint64_t N = Field.size();
      Hash.update(ArrayRef(reinterpret_cast<const uint8_t *>(&N), sizeof N));
      Hash.update(Field);
    }
    if (FID != SM.getMainFileID())
      Out.Includes.push_back(Name.str());
  }

  void MacroExpands(const clang::Token &NameTok, const clang::MacroDefinition &,
                    clang::SourceRange, const clang::MacroArgs *Args) override {
    if (!Args || NameTok.getIdentifierInfo()->getName() != "VF_INTEGRAND" ||
        !SM.isWrittenInMainFile(NameTok.getLocation()))
      return;
    std::vector<std::vector<clang::Token>> A;
    for (unsigned K = 0; K < Args->getNumMacroArguments(); ++K) {
      A.emplace_back();
      for (const clang::Token *T = Args->getUnexpArgument(K);
           T->isNot(clang::tok::eof); ++T)
        A.back().push_back(*T);
    }
    if (A.size() != 4)
      return; // the preprocessor has said the arguments are wrong
    ForeignEntry E;
    if (!name(A[0], NameTok, E.Name) || !count(A[1], NameTok, "DIM", E.Dim) ||
        !count(A[2], NameTok, "OUTPUTS", E.Outputs) ||
        !params(A[3], NameTok, E.Params))
      return;
    Out.Entries.push_back(std::move(E));
  }

private:
  void error(clang::SourceLocation L, const Twine &Msg) {
    clang::DiagnosticsEngine &D = PP.getDiagnostics();
    D.Report(L, D.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << Msg.str();
  }

  bool name(ArrayRef<clang::Token> T, const clang::Token &At,
            std::string &Out) {
    if (T.size() == 1 && T[0].is(clang::tok::identifier)) {
      Out = T[0].getIdentifierInfo()->getName().str();
      return true;
    }
    error(T.empty() ? At.getLocation() : T[0].getLocation(),
          "VF_INTEGRAND's first argument is the integrand's name");
    return false;
  }

  bool count(ArrayRef<clang::Token> T, const clang::Token &At, StringRef What,
             unsigned &Out) {
    unsigned long long V = 0;
    if (T.size() == 1 && T[0].is(clang::tok::numeric_constant) &&
        !StringRef(PP.getSpelling(T[0])).getAsInteger(10, V) && V >= 1 &&
        V <= MaxEntrySize) {
      Out = unsigned(V);
      return true;
    }
    error(T.empty() ? At.getLocation() : T[0].getLocation(),
          "VF_INTEGRAND's " + What + " must be an integer literal from 1 to " +
              Twine(MaxEntrySize));
    return false;
  }

  /// "name = default, ..." in one string literal (or several, joined).
  bool params(ArrayRef<clang::Token> T, const clang::Token &At,
              std::vector<std::pair<std::string, double>> &Out) {
    clang::SourceLocation L = T.empty() ? At.getLocation() : T[0].getLocation();
    for (const clang::Token &Tok : T)
      if (Tok.isNot(clang::tok::string_literal)) {
        error(Tok.getLocation(), "VF_INTEGRAND's parameters are a string "
                                 "literal: \"a = 1.0, b = 2\", or \"\"");
        return false;
      }
    clang::StringLiteralParser S(T, PP);
    if (S.hadError || T.empty()) {
      error(L, "VF_INTEGRAND's parameters are a string literal");
      return false;
    }
    SmallVector<StringRef, 8> Items;
    StringRef(S.GetString()).split(Items, ',', -1, false);
    for (StringRef Item : Items) {
      auto [Name, Value] = Item.split('=');
      Name = Name.trim();
      double V;
      bool Ident = !Name.empty() && !isDigit(Name[0]) &&
                   all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
      if (!Ident || Value.trim().getAsDouble(V)) {
        error(L, "VF_INTEGRAND parameter '" + Item.trim() +
                     "' is not NAME = NUMBER");
        return false;
      }
      Out.push_back({Name.str(), V});
    }
    return true;
  }

  clang::Preprocessor &PP;
  clang::SourceManager &SM;
  ForeignScan &Out;
  SHA256 &Hash;
};

class ScanAction : public clang::PreprocessorFrontendAction {
public:
  ScanAction(ForeignScan &Out, SHA256 &Hash) : Out(Out), Hash(Hash) {}

  void ExecuteAction() override {
    clang::Preprocessor &PP = getCompilerInstance().getPreprocessor();
    PP.addPPCallbacks(std::make_unique<ScanCallbacks>(PP, Out, Hash));
    PP.EnterMainSourceFile();
    clang::Token Tok;
    do
      PP.Lex(Tok);
    while (Tok.isNot(clang::tok::eof));
  }

private:
  ForeignScan &Out;
  SHA256 &Hash;
};

} // namespace

Expected<ForeignScan> scanForeignSource(StringRef Path, ForeignTarget T) {
  PhaseClock Clock;
  ClangJob Job(Path, T, ClangPurpose::Scan);
  ForeignScan Out;
  SHA256 Hash;
  for (const std::string &A : Job.arguments())
    Hash.update(A + '\0');
  Hash.update(clangVersion() + '\0');
  Hash.update(integrandHeaderText());
  ScanAction Act(Out, Hash);
  if (!Job.instance() || !Job.instance()->ExecuteAction(Act) ||
      Job.hasErrors())
    return createStringError(inconvertibleErrorCode(), Job.diagnostics());
  auto Digest = Hash.final();
  Clock.lap(ClangPhase::Scan);
  Out.Digest = toHex(ArrayRef(Digest.data(), Digest.size()), true);
  return Out;
}

} // namespace vf
