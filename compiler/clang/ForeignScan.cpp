//===- clang/ForeignScan.cpp - Preprocess: cache digest and entries -------===//
//
// The preprocessor alone runs over the translation unit (a millisecond or
// two for a thousand lines), which is all a warm compile needs: the digest
// of every file entered (the main file and its includes, by name and
// content) with the flags and Clang's version is the compile cache's key
// for the C/C++ part, and the VF_INTEGRAND expansions of the main file are
// the integrands it defines. A file that takes the system's C++ library
// is keyed the same way: every system header it includes by name and text.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "clang/ClangJob.h"
#include "clang/PortabilityChecker.h"
#include "clang/StandardHeaders.h"

#include "clang/Basic/SourceManager.h"
#include "clang/Frontend/FrontendActions.h"
#include "clang/Lex/LiteralSupport.h"
#include "clang/Lex/MacroArgs.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Lex/Preprocessor.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/SHA256.h"

#include <cmath>

using namespace llvm;

namespace vf {

namespace {

/// A bound on what the preprocessor hands the parser, so that a runaway
/// macro (ten nested macros of ten uses each are 10^10 tokens) ends with
/// an error in bounded time and memory instead of a parse that grows
/// without end; with MaxSourceBytes (ClangJob.h) for many files or one
/// included many times. A generated matrix element of 100,000 lines is
/// about 2 million tokens; the scan runs before every parse
/// (compileForeignSource, checkForeignSource).
constexpr uint64_t MaxTokens = uint64_t(1) << 24;

class ScanCallbacks : public clang::PPCallbacks {
public:
  ScanCallbacks(clang::Preprocessor &PP, ForeignScan &Out, SHA256 &Hash)
      : PP(PP), SM(PP.getSourceManager()), Out(Out), Hash(Hash) {}

  void FileChanged(clang::SourceLocation Loc, FileChangeReason Reason,
                   clang::SrcMgr::CharacteristicKind, clang::FileID) override {
    if (Reason != EnterFile || TooLarge)
      return;
    clang::FileID FID = SM.getFileID(Loc);
    auto Entry = SM.getFileEntryRefForID(FID);
    if (!Entry)
      return;
    StringRef Name = Entry->getName();
    Bytes += Entry->getSize();
    if (Bytes > MaxSourceBytes) {
      TooLarge = true;
      clang::SourceLocation At = SM.getIncludeLoc(FID);
      error(At.isValid() ? At : Loc,
            "the translation unit's files are more than " +
                Twine(MaxSourceBytes >> 20) +
                " MiB together; vegasflow compiles up to this much C/C++");
      return;
    }
    StringRef Text = SM.getBufferData(FID);
    for (StringRef Field : {Name, Text}) {
      uint64_t N = Field.size();
      Hash.update(ArrayRef(reinterpret_cast<const uint8_t *>(&N), sizeof N));
      Hash.update(Field);
    }
    if (FID != SM.getMainFileID())
      Out.Includes.push_back(Name.str());
    else
      Out.Text = Text.str();
  }

  void MacroExpands(const clang::Token &NameTok, const clang::MacroDefinition &,
                    clang::SourceRange, const clang::MacroArgs *Args) override {
    clockMacro(NameTok);
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
    // The .vf limits, which the entry's program is checked against.
    if (!name(A[0], NameTok, E.Name) ||
        !count(A[1], NameTok, "DIM", MaxDimension, E.Dim) ||
        !count(A[2], NameTok, "OUTPUTS", MaxOutputs, E.Outputs))
      return;
    E.NameAt = span(A[0]);
    E.DimAt = span(A[1]);
    E.OutputsAt = span(A[2]);
    E.ParamsAt = span(A[3]);
    if (!params(A[3], NameTok, E.ParamsAt, E.Params))
      return;
    Out.Entries.push_back(std::move(E));
  }

  /// Set once the files entered exceed MaxSourceBytes (the error is
  /// reported); the scan stops.
  bool TooLarge = false;

private:
  /// __TIME__, __DATE__ and __TIMESTAMP__ are when the file was compiled
  /// (or last changed): the compile cache, keyed by the text, would serve
  /// the first compile's value to every later run, and the same file
  /// would give different results on different days. An error, as the
  /// checker's rules on the engine's guarantees are.
  void clockMacro(const clang::Token &NameTok) {
    StringRef Name = NameTok.getIdentifierInfo()->getName();
    if (Name == "__TIME__" || Name == "__DATE__" || Name == "__TIMESTAMP__")
      error(NameTok.getLocation(),
            "'" + Name +
                "' is when the file was compiled, which breaks "
                "reproducibility: results would depend on the day, and "
                "the compile cache would serve the first compile's value "
                "to later runs; pass a parameter instead");
  }

  void error(clang::SourceLocation L, const Twine &Msg) {
    clang::DiagnosticsEngine &D = PP.getDiagnostics();
    D.Report(L, D.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
        << Msg.str();
  }

  /// The main file's bytes that \p L's token is written at: a macro
  /// argument's spelling, a macro's expansion.
  SourceSpan span(clang::SourceLocation L, unsigned Length) {
    auto [FID, Offset] = SM.getDecomposedLoc(SM.getFileLoc(L));
    if (FID != SM.getMainFileID())
      return {};
    return {Offset, Length};
  }

  /// The span from an argument's first token to the end of its last.
  SourceSpan span(ArrayRef<clang::Token> T) {
    if (T.empty())
      return {};
    SourceSpan First = span(T.front().getLocation(), T.front().getLength());
    SourceSpan Last = span(T.back().getLocation(), T.back().getLength());
    if (!First.Length || !Last.Length || Last.Offset < First.Offset)
      return First;
    return {First.Offset, Last.Offset + Last.Length - First.Offset};
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
             unsigned Max, unsigned &Out) {
    unsigned long long V = 0;
    if (T.size() == 1 && T[0].is(clang::tok::numeric_constant) &&
        !StringRef(PP.getSpelling(T[0])).getAsInteger(10, V) && V >= 1 &&
        V <= Max) {
      Out = unsigned(V);
      return true;
    }
    error(T.empty() ? At.getLocation() : T[0].getLocation(),
          "VF_INTEGRAND's " + What + " must be an integer literal from 1 to " +
              Twine(Max));
    return false;
  }

  /// "name = default, ..." in one string literal (or several, joined);
  /// each default a finite number, as a .vf parameter's is.
  bool params(ArrayRef<clang::Token> T, const clang::Token &At,
              SourceSpan Whole, std::vector<ForeignParam> &Out) {
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
    const StringRef Str = S.GetString();
    // Within a plain literal a parameter's offset in the string is its
    // offset in the file, one past the opening quote.
    const bool Plain = T.size() == 1 && Whole.Length == Str.size() + 2 &&
                       PP.getSpelling(T[0]) == ("\"" + Str + "\"").str();
    SmallVector<StringRef, 8> Items;
    Str.split(Items, ',', -1, false);
    for (StringRef Item : Items) {
      auto [Name, Value] = Item.split('=');
      Name = Name.trim();
      double V;
      bool Ident = !Name.empty() && !isDigit(Name[0]) &&
                   all_of(Name, [](char C) { return isAlnum(C) || C == '_'; });
      if (!Ident || Value.trim().getAsDouble(V) || !std::isfinite(V)) {
        error(L, "VF_INTEGRAND parameter '" + Item.trim() +
                     "' is not NAME = NUMBER");
        return false;
      }
      SourceSpan NameAt = Whole;
      if (Plain)
        NameAt = {Whole.Offset + 1 + unsigned(Name.data() - Str.data()),
                  unsigned(Name.size())};
      Out.push_back({Name.str(), V, NameAt});
    }
    return true;
  }

  clang::Preprocessor &PP;
  clang::SourceManager &SM;
  ForeignScan &Out;
  SHA256 &Hash;
  uint64_t Bytes = 0;
};

class ScanAction : public clang::PreprocessorFrontendAction {
public:
  ScanAction(ForeignScan &Out, SHA256 &Hash) : Out(Out), Hash(Hash) {}

  void ExecuteAction() override {
    clang::Preprocessor &PP = getCompilerInstance().getPreprocessor();
    auto Callbacks = std::make_unique<ScanCallbacks>(PP, Out, Hash);
    ScanCallbacks &CB = *Callbacks;
    PP.addPPCallbacks(std::move(Callbacks));
    PP.EnterMainSourceFile();
    clang::Token Tok;
    for (uint64_t N = 0; !CB.TooLarge; ++N) {
      PP.Lex(Tok);
      if (Tok.is(clang::tok::eof))
        return;
      if (N == MaxTokens) {
        clang::DiagnosticsEngine &D = PP.getDiagnostics();
        D.Report(Tok.getLocation(),
                 D.getCustomDiagID(clang::DiagnosticsEngine::Error, "%0"))
            << ("the translation unit is more than " + Twine(MaxTokens) +
                " tokens after preprocessing (a runaway macro?); vegasflow "
                "compiles up to this many")
                   .str();
        return;
      }
    }
  }

private:
  ForeignScan &Out;
  SHA256 &Hash;
};

} // namespace

/// One preprocessor pass with \p Out.SystemLibrary's headers.
static Error scan(StringRef Path, ForeignTarget T, bool Single,
                  ForeignScan &Out) {
  PhaseClock Clock;
  ClangJob Job(Path, T, ClangPurpose::Scan, Out.SystemLibrary, Single);
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
  return Error::success();
}

/// Whether the pass entered one of vegasflow's refused headers (<vector>,
/// ...), whose #error it then reported.
static bool includesRuntimeLibraryHeader(const ForeignScan &S) {
  const std::string Root = ForeignIncludeRoot.str() + "/";
  return any_of(S.Includes, [&](StringRef P) {
    return P.consume_front(Root) && !runtimeLibraryUse(P).empty();
  });
}

Expected<ForeignScan> scanForeignSource(StringRef Path, ForeignTarget T,
                                        bool Single) {
  ForeignScan Out;
  Error E = scan(Path, T, Single, Out);
  // A C++ file that needs the C++ run-time library runs on the CPU only,
  // with the system's standard headers (a GPU build keeps the #error).
  if (E && T == ForeignTarget::Host && sys::path::extension(Path) != ".c" &&
      includesRuntimeLibraryHeader(Out)) {
    consumeError(std::move(E));
    Out = ForeignScan();
    Out.SystemLibrary = true;
    E = scan(Path, T, Single, Out);
  }
  if (E)
    return std::move(E);
  return Out;
}

} // namespace vf
