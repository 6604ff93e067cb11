//===- frontend/ParserImpl.h - The parser's shared state -------*- C++ -*-===//
//
// Private to the parser, which is split by concept: ParseItems.cpp (items,
// domains, types, bodies) and ParseExprs.cpp (expressions). Each parse
// function starts with its grammar production. Errors set a flag and unwind
// to the item level (no exceptions): the item is dropped and parsing
// resumes at the next `integrand`, `fn`, `param`, `const` or `import`
// keyword.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_PARSERIMPL_H
#define VF_COMPILER_FRONTEND_PARSERIMPL_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Token.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/Twine.h"

#include <algorithm>
#include <string>

namespace vf {

/// Deep nesting is bounded so no input can overflow the stack: MaxDepth
/// bounds the parser's recursion, MaxHeight the height of the trees it
/// builds (a left-deep chain `1+1+...+1` grows the tree without deepening
/// the parser's recursion, and every later pass walks the tree recursively).
constexpr unsigned MaxDepth = 256;
constexpr unsigned MaxHeight = 1024;

class Parser {
public:
  Parser(llvm::ArrayRef<Token> Toks, SourceModule &M, DiagEngine &Diags)
      : Toks(Toks), M(M), Diags(Diags) {}

  /// file -> item*
  void parseFile();

private:
  //===--------------------------------------------------------------------===//
  // Token helpers
  //===--------------------------------------------------------------------===//

  const Token &tok() const { return Toks[Pos]; }
  const Token &peek(unsigned N) const {
    return Toks[std::min<size_t>(Pos + N, Toks.size() - 1)];
  }
  const Token &prev() const { return Toks[Pos ? Pos - 1 : 0]; }
  void consume() {
    if (!tok().is(TokenKind::Eof))
      ++Pos;
  }
  bool accept(TokenKind K) {
    if (!tok().is(K))
      return false;
    consume();
    return true;
  }
  static std::string describe(const Token &T);
  /// Reports at \p T unless an error is already being unwound or \p T is an
  /// Error token (the lexer reported it).
  void error(const Token &T, const llvm::Twine &Msg) {
    if (!Failed && !T.is(TokenKind::Error))
      Diags.error(T.loc(), Msg, T.range());
    Failed = true;
  }
  bool expect(TokenKind K, llvm::StringRef Context);
  bool expectIdentifier(std::string &Name, llvm::SMRange &Range,
                        llvm::StringRef What);
  void skipToItem();
  llvm::SMRange rangeFrom(llvm::SMLoc Start) const {
    return {Start, prev().endLoc()};
  }
  /// Counts one level of recursion; false (after reporting) when too deep.
  bool enter();
  void leave() { --Depth; }

  /// Builds expression node T over children of height at most \p KidHeight,
  /// or reports that the tree is too deep.
  template <typename T, typename... ArgTs>
  ExprPtr node(unsigned KidHeight, ArgTs &&...Args) {
    if (KidHeight >= MaxHeight) {
      error(prev(), "expression too deep: its syntax tree has more than " +
                        llvm::Twine(MaxHeight) +
                        " levels; split it with 'let' bindings");
      return nullptr;
    }
    auto E = std::make_unique<T>(std::forward<ArgTs>(Args)...);
    E->Height = KidHeight + 1;
    return E;
  }
  static unsigned height(std::initializer_list<const Expr *> Kids);
  static unsigned height(const std::vector<ExprPtr> &Kids);

  //===--------------------------------------------------------------------===//
  // Items (ParseItems.cpp)
  //===--------------------------------------------------------------------===//

  std::unique_ptr<Item> parseItem();
  std::unique_ptr<Item> parseConst();
  std::unique_ptr<Item> parseDerived();
  /// `derived NAME =`: 'derived' is a keyword only where an item starts.
  bool isDerivedStart() const;
  /// `pdf NAME =` (ParsePdf.cpp): 'pdf', like 'derived', is a keyword only
  /// where an item starts, so older programs may keep it as a name.
  bool isPdfStart() const;
  std::unique_ptr<Item> parsePdf();
  bool isWordItemStart() const { return isDerivedStart() || isPdfStart(); }
  std::unique_ptr<Item> parseParam();
  std::unique_ptr<Item> parseFn(std::unique_ptr<FnDecl> D = nullptr);
  std::unique_ptr<Item> parseExtern();
  std::unique_ptr<Item> parseIntegrand();
  std::unique_ptr<Item> parseImport();
  bool parseSize(ExprPtr &Size, llvm::StringRef What);
  bool parseType(ExprPtr &Size, bool &IsComplex, llvm::StringRef What);
  bool parseDomain(std::vector<Interval> &Domain);
  bool parseBound(ExprPtr &Bound, bool Upper);
  /// \p Channels is where an integrand's `channel` blocks go; null where
  /// none may appear (a fn, a channel).
  bool parseBody(Body &B, llvm::StringRef What,
                 std::vector<std::unique_ptr<ChannelDecl>> *Channels = nullptr);
  bool missingBrace(const Token &Open, llvm::StringRef What);
  bool parseHist(Body &B);
  bool parseWeights(Body &B);
  bool isChannelStart() const;
  bool parseChannels(std::vector<std::unique_ptr<ChannelDecl>> &Channels,
                     const Token &Open, llvm::StringRef What);

  //===--------------------------------------------------------------------===//
  // Expressions (ParseExprs.cpp)
  //===--------------------------------------------------------------------===//

  ExprPtr parseExpr();
  ExprPtr parseVector();
  ExprPtr parseBinary(int MinPrec);
  ExprPtr parseOperand(int MinPrec);
  ExprPtr parseBinaryNested(int Prec);
  /// A bound of a range `lo..hi` (no comparison or logic, so `..` ends it).
  ExprPtr parseRangeBound();
  /// A reduction's or a weight list's index, range and body, after its
  /// '(' (\p What names it in errors).
  ExprPtr parseIndexed(llvm::SMLoc Start, ReduceOp Op, llvm::StringRef What);
  ExprPtr parseUnary();
  ExprPtr parsePower();
  ExprPtr parsePostfix();
  ExprPtr parsePrimary();
  ExprPtr parseNumber();
  bool isReduction() const;
  ExprPtr parseReduction();
  ExprPtr parseCall();
  ExprPtr parseChannelQuery();
  ExprPtr parseIf();

  llvm::ArrayRef<Token> Toks;
  size_t Pos = 0;
  SourceModule &M;
  DiagEngine &Diags;
  bool Failed = false;
  unsigned Depth = 0;
  /// Inside a channel block, where `alpha(NAME)` and `density(NAME, u)`
  /// name channels.
  bool InChannel = false;
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_PARSERIMPL_H
