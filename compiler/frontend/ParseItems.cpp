//===- frontend/ParseItems.cpp - Items, domains and bodies ----------------===//
//
// The top level of the parser: items, the integrand's domain (with its
// infinite bounds), array sizes in signatures, and bodies. Expressions are
// in ParseExprs.cpp.
//
//===----------------------------------------------------------------------===//

#include "frontend/Parser.h"
#include "frontend/ParserImpl.h"

using namespace llvm;

namespace vf {

namespace {

bool isItemStart(TokenKind K) {
  return K == TokenKind::KwIntegrand || K == TokenKind::KwFn ||
         K == TokenKind::KwParam || K == TokenKind::KwConst ||
         K == TokenKind::KwImport || K == TokenKind::KwExtern;
}

} // namespace

void parseModule(ArrayRef<Token> Tokens, SourceModule &Module,
                 DiagEngine &Diags) {
  Parser(Tokens, Module, Diags).parseFile();
}

//===----------------------------------------------------------------------===//
// Token helpers
//===----------------------------------------------------------------------===//

std::string Parser::describe(const Token &T) {
  switch (T.Kind) {
  case TokenKind::Eof:
    return "end of file";
  case TokenKind::Number:
    return ("number '" + T.Text + "'").str();
  case TokenKind::Identifier:
    return ("name '" + T.Text + "'").str();
  case TokenKind::String:
    return ("string " + T.Text).str();
  default:
    return ("'" + T.Text + "'").str();
  }
}

bool Parser::expect(TokenKind K, StringRef Context) {
  if (accept(K))
    return true;
  error(tok(), "expected '" + tokenSpelling(K) + "' " + Context + ", found " +
                   describe(tok()));
  return false;
}

bool Parser::expectIdentifier(std::string &Name, SMRange &Range,
                              StringRef What) {
  if (!tok().is(TokenKind::Identifier)) {
    error(tok(), "expected " + What + ", found " + describe(tok()));
    return false;
  }
  Name = tok().Text.str();
  Range = tok().range();
  consume();
  return true;
}

void Parser::skipToItem() {
  while (!tok().is(TokenKind::Eof) && !isItemStart(tok().Kind) &&
         !isWordItemStart())
    consume();
}

bool Parser::enter() {
  if (++Depth <= MaxDepth)
    return true;
  error(tok(), "expression nested too deeply");
  --Depth;
  return false;
}

unsigned Parser::height(std::initializer_list<const Expr *> Kids) {
  unsigned H = 0;
  for (const Expr *K : Kids)
    if (K)
      H = std::max(H, K->Height);
  return H;
}

unsigned Parser::height(const std::vector<ExprPtr> &Kids) {
  unsigned H = 0;
  for (const ExprPtr &K : Kids)
    if (K)
      H = std::max(H, K->Height);
  return H;
}

//===----------------------------------------------------------------------===//
// Items
//===----------------------------------------------------------------------===//

void Parser::parseFile() {
  while (!tok().is(TokenKind::Eof)) {
    Failed = false;
    if (!isItemStart(tok().Kind) && !isWordItemStart()) {
      if (!tok().is(TokenKind::Error))
        error(tok(), "expected an item ('integrand', 'fn', 'param', "
                     "'const', 'derived' or 'import'), found " +
                         describe(tok()));
      skipToItem();
      continue;
    }
    std::unique_ptr<Item> I = parseItem();
    if (Failed || !I)
      skipToItem();
    else
      M.Items.push_back(std::move(I));
  }
}

std::unique_ptr<Item> Parser::parseItem() {
  if (isDerivedStart())
    return parseDerived();
  if (isPdfStart())
    return parsePdf();
  switch (tok().Kind) {
  case TokenKind::KwConst:
    return parseConst();
  case TokenKind::KwParam:
    return parseParam();
  case TokenKind::KwFn:
    return parseFn();
  case TokenKind::KwIntegrand:
    return parseIntegrand();
  case TokenKind::KwExtern:
    return parseExtern();
  default:
    return parseImport();
  }
}

/// const -> 'const' NAME '=' expr
std::unique_ptr<Item> Parser::parseConst() {
  consume();
  auto D = std::make_unique<ConstDecl>();
  if (!expectIdentifier(D->Name, D->NameRange, "a constant name") ||
      !expect(TokenKind::Equal, "after the constant's name"))
    return nullptr;
  D->Value = parseExpr();
  return D;
}

bool Parser::isDerivedStart() const {
  return tok().is(TokenKind::Identifier) && tok().Text == "derived" &&
         peek(1).is(TokenKind::Identifier) && peek(2).is(TokenKind::Equal);
}

/// derived -> 'derived' NAME '=' expr
std::unique_ptr<Item> Parser::parseDerived() {
  consume();
  auto D = std::make_unique<DerivedDecl>();
  D->NameRange = tok().range();
  D->Name = tok().Text.str();
  consume();
  consume(); // '='
  D->Value = parseExpr();
  return D;
}

/// param -> 'param' NAME '=' expr
std::unique_ptr<Item> Parser::parseParam() {
  consume();
  auto D = std::make_unique<ParamDecl>();
  if (!expectIdentifier(D->Name, D->NameRange, "a parameter name") ||
      !expect(TokenKind::Equal, "after the parameter's name (a parameter "
                                "needs a default value)"))
    return nullptr;
  D->Default = parseExpr();
  return D;
}

/// size -> '[' expr ']'
bool Parser::parseSize(ExprPtr &Size, StringRef What) {
  if (!expect(TokenKind::LBracket, ("before " + What).str()))
    return false;
  Size = parseExpr();
  return expect(TokenKind::RBracket, ("after " + What).str());
}

/// type -> size? 'complex' | size
bool Parser::parseType(ExprPtr &Size, bool &IsComplex, StringRef What) {
  if (!tok().is(TokenKind::Identifier) && !parseSize(Size, What))
    return false;
  if (tok().is(TokenKind::Identifier) && tok().Text == "complex") {
    consume();
    IsComplex = true;
    return true;
  }
  if (!Size)
    return parseSize(Size, What);
  return true;
}

/// extern -> 'extern' STRING 'fn' NAME '(' (arg (',' arg)*)? ')'
///             ('->' size)?
std::unique_ptr<Item> Parser::parseExtern() {
  consume();
  if (!tok().is(TokenKind::String)) {
    error(tok(), "expected the C or C++ file in quotes after 'extern', found " +
                     describe(tok()));
    accept(TokenKind::KwFn); // the rest of the declaration is skipped
    return nullptr;
  }
  auto D = std::make_unique<FnDecl>();
  D->Extern = true;
  D->ExternPath = tok().Text.drop_front().drop_back().str();
  D->ExternRange = tok().range();
  consume();
  if (!tok().is(TokenKind::KwFn)) {
    error(tok(), "expected 'fn' after the file of an extern function, found " +
                     describe(tok()));
    return nullptr;
  }
  return parseFn(std::move(D));
}

/// fn -> 'fn' NAME '(' (arg (',' arg)*)? ')' ('->' type)? body
/// arg -> NAME (':' type)?
std::unique_ptr<Item> Parser::parseFn(std::unique_ptr<FnDecl> D) {
  consume();
  if (!D)
    D = std::make_unique<FnDecl>();
  if (!expectIdentifier(D->Name, D->NameRange, "a function name") ||
      !expect(TokenKind::LParen, "after the function's name"))
    return nullptr;
  if (!tok().is(TokenKind::RParen)) {
    do {
      FnArg A;
      if (!expectIdentifier(A.Name, A.Range, "an argument name"))
        return nullptr;
      bool Typed = accept(TokenKind::Colon);
      if (Typed && tok().is(TokenKind::Identifier) && tok().Text == "pdf") {
        consume();
        A.IsPdf = true;
      } else if (Typed && !parseType(A.SizeExpr, A.IsComplex,
                                     "the argument's array size")) {
        return nullptr;
      }
      D->Args.push_back(std::move(A));
    } while (accept(TokenKind::Comma));
  }
  if (!expect(TokenKind::RParen, "after the arguments"))
    return nullptr;
  if (accept(TokenKind::Arrow) &&
      !parseType(D->ResultSizeExpr, D->ResultComplex,
                 "the result's array size"))
    return nullptr;
  if (D->Extern)
    return D; // the body is in the C or C++ file
  if (!parseBody(D->B, "the function"))
    return nullptr;
  return D;
}

/// integrand -> 'integrand' NAME '(' NAME 'in' domain ')' ('->' size)? body
std::unique_ptr<Item> Parser::parseIntegrand() {
  consume();
  auto D = std::make_unique<IntegrandDecl>();
  if (!expectIdentifier(D->Name, D->NameRange, "an integrand name") ||
      !expect(TokenKind::LParen, "after the integrand's name") ||
      !expectIdentifier(D->Var, D->VarRange, "the integration variable") ||
      !expect(TokenKind::KwIn, "after the integration variable") ||
      !parseDomain(D->Domain) || !expect(TokenKind::RParen, "after the domain"))
    return nullptr;
  if (accept(TokenKind::Arrow) &&
      !parseSize(D->OutputsExpr, "the number of components"))
    return nullptr;
  if (!parseBody(D->B, "the integrand", &D->Channels))
    return nullptr;
  return D;
}

/// import -> 'import' STRING
std::unique_ptr<Item> Parser::parseImport() {
  consume();
  auto D = std::make_unique<ImportDecl>();
  if (!tok().is(TokenKind::String)) {
    error(tok(), "expected a module path in quotes after 'import', found " +
                     describe(tok()));
    return nullptr;
  }
  D->Path = tok().Text.drop_front().drop_back().str();
  D->PathRange = tok().range();
  D->NameRange = D->PathRange;
  consume();
  return D;
}

/// domain -> interval ('*' interval)*
/// interval -> '[' bound ',' bound (';' expr)? ']' ('^' unary)?
bool Parser::parseDomain(std::vector<Interval> &Domain) {
  do {
    Interval I;
    SMLoc Start = tok().loc();
    if (!expect(TokenKind::LBracket, "to open an interval '[a, b]'") ||
        !parseBound(I.Lo, /*Upper=*/false) ||
        !expect(TokenKind::Comma, "between the interval's bounds") ||
        !parseBound(I.Hi, /*Upper=*/true))
      return false;
    if (tok().is(TokenKind::Semi)) {
      if (!I.isInfinite()) {
        error(tok(), "a scale ('; s') applies only to an interval with an "
                     "infinite bound, as in '[0, inf; 10]'");
        return false;
      }
      consume();
      I.Scale = parseExpr();
    }
    if (!expect(TokenKind::RBracket, "to close the interval"))
      return false;
    if (accept(TokenKind::Caret))
      I.Power = parseUnary();
    I.Range = rangeFrom(Start);
    Domain.push_back(std::move(I));
  } while (!Failed && accept(TokenKind::Star));
  return !Failed;
}

/// bound -> '-' 'inf' (lower only) | 'inf' (upper only) | expr
/// An infinite bound leaves \p Bound null.
bool Parser::parseBound(ExprPtr &Bound, bool Upper) {
  bool Minus = tok().is(TokenKind::Minus) && peek(1).is(TokenKind::KwInf);
  if (!Minus && !tok().is(TokenKind::KwInf)) {
    Bound = parseExpr();
    return !Failed;
  }
  if (Minus == Upper) {
    if (Minus)
      consume();
    error(tok(), Upper ? "the upper bound cannot be '-inf'; an interval "
                         "reaching minus infinity is written '[-inf, b]'"
                       : "the lower bound cannot be 'inf'; an interval "
                         "reaching infinity is written '[a, inf]'");
    return false;
  }
  if (Minus)
    consume();
  consume();
  return true;
}

/// body -> '=' expr | '{' (let | hist | weights | ';')* 'return' expr ';'?
///         '}'
///       | '{' channel channel* '}'   (an integrand's only)
/// let -> 'let' NAME '=' expr
bool Parser::parseBody(Body &B, StringRef What,
                       std::vector<std::unique_ptr<ChannelDecl>> *Channels) {
  if (accept(TokenKind::Equal)) {
    B.ReturnLoc = tok().loc();
    B.Result = parseExpr();
    return !Failed;
  }
  if (!tok().is(TokenKind::LBrace)) {
    error(tok(), "expected '=' or '{' to start the body of " + What +
                     ", found " + describe(tok()));
    return false;
  }
  const Token &Open = tok();
  consume();
  while (!Failed) {
    if (accept(TokenKind::Semi))
      continue;
    if (isChannelStart()) {
      if (!Channels)
        error(tok(), "'channel' blocks are allowed only directly in the body "
                     "of an integrand");
      else if (!B.Lets.empty() || !B.Hists.empty() || !B.Weights.empty())
        error(tok(), "an integrand with 'channel' blocks has nothing else in "
                     "its body; move the statements before this one into "
                     "each channel");
      return !Failed && parseChannels(*Channels, Open, What);
    }
    if (tok().is(TokenKind::KwLet)) {
      consume();
      auto L = std::make_unique<LetStmt>();
      if (!expectIdentifier(L->Name, L->NameRange, "a name after 'let'") ||
          !expect(TokenKind::Equal, "after the let's name"))
        return false;
      L->Value = parseExpr();
      B.Lets.push_back(std::move(L));
      continue;
    }
    if (tok().is(TokenKind::Identifier) && tok().Text == "hist" &&
        peek(1).is(TokenKind::Identifier) && peek(2).is(TokenKind::LParen)) {
      if (!parseHist(B))
        return false;
      continue;
    }
    if (tok().is(TokenKind::Identifier) && tok().Text == "weights" &&
        peek(1).is(TokenKind::Identifier) && peek(2).is(TokenKind::LParen)) {
      if (!parseWeights(B))
        return false;
      continue;
    }
    if (tok().is(TokenKind::KwReturn)) {
      B.ReturnLoc = tok().loc();
      consume();
      B.Result = parseExpr();
      accept(TokenKind::Semi);
      if (Failed)
        return false;
      if (!tok().is(TokenKind::RBrace)) {
        if (tok().is(TokenKind::Eof) || isItemStart(tok().Kind))
          return missingBrace(Open, What);
        error(tok(), "'return' must be the last statement of " + What +
                         "; found " + describe(tok()) + " after it");
        return false;
      }
      consume();
      return true;
    }
    if (tok().is(TokenKind::RBrace)) {
      error(tok(), "missing 'return' at the end of " + What);
      Diags.note(Open.loc(), "body starts here", Open.range());
      return false;
    }
    if (tok().is(TokenKind::Eof) || isItemStart(tok().Kind))
      return missingBrace(Open, What);
    error(tok(), "expected 'let' or 'return' in the body of " + What +
                     ", found " + describe(tok()));
  }
  return false;
}

/// A body that runs into the end of the file or the next item: the '}' is
/// what is missing, said at the brace it should close (and the item that
/// follows, if any, noted).
bool Parser::missingBrace(const Token &Open, StringRef What) {
  Token Next = tok();
  const bool Reported = !Failed;
  error(Open, "missing '}' to close the body of " + What + " opened here");
  if (Reported && !Next.is(TokenKind::Eof))
    Diags.note(Next.loc(), "the next item starts here", Next.range());
  return false;
}

bool Parser::isChannelStart() const {
  return tok().is(TokenKind::Identifier) && tok().Text == "channel" &&
         peek(1).is(TokenKind::Identifier) && peek(2).is(TokenKind::LBrace);
}

/// channel -> 'channel' NAME body
/// The blocks up to the '}' that closes the integrand's body at \p Open.
bool Parser::parseChannels(std::vector<std::unique_ptr<ChannelDecl>> &Channels,
                           const Token &Open, StringRef What) {
  while (isChannelStart()) {
    consume();
    auto C = std::make_unique<ChannelDecl>();
    C->Name = tok().Text.str();
    C->NameRange = tok().range();
    consume();
    InChannel = true;
    const bool Ok = parseBody(C->B, "channel '" + C->Name + "'");
    InChannel = false;
    if (!Ok)
      return false;
    Channels.push_back(std::move(C));
    while (accept(TokenKind::Semi))
      ;
  }
  if (accept(TokenKind::RBrace))
    return true;
  if (tok().is(TokenKind::Eof) || isItemStart(tok().Kind))
    return missingBrace(Open, What);
  error(tok(), "expected another 'channel' block or '}' after a channel, "
               "found " +
                   describe(tok()) +
                   "; an integrand with channels has nothing else in its "
                   "body");
  return false;
}

/// hist -> 'hist' NAME '(' expr (',' expr)* ')'
bool Parser::parseHist(Body &B) {
  SMLoc Start = tok().loc();
  auto H = std::make_unique<HistStmt>();
  consume();
  H->Name = tok().Text.str();
  H->NameRange = tok().range();
  consume();
  consume(); // '('
  do {
    H->Args.push_back(parseExpr());
  } while (!Failed && accept(TokenKind::Comma));
  if (!expect(TokenKind::RParen, "to close the histogram's arguments"))
    return false;
  H->Range = rangeFrom(Start);
  H->LetsBefore = B.Lets.size();
  B.Hists.push_back(std::move(H));
  return true;
}

/// weights -> 'weights' NAME '(' indexed
bool Parser::parseWeights(Body &B) {
  SMLoc Start = tok().loc();
  auto W = std::make_unique<WeightsStmt>();
  consume();
  W->Name = tok().Text.str();
  W->NameRange = tok().range();
  consume();
  SMLoc ListStart = tok().loc();
  consume(); // '('
  ExprPtr List = parseIndexed(ListStart, ReduceOp::Sum, "weight list");
  if (!List)
    return false;
  W->List.reset(static_cast<ReduceExpr *>(List.release()));
  W->Range = rangeFrom(Start);
  W->LetsBefore = B.Lets.size();
  B.Weights.push_back(std::move(W));
  return true;
}

} // namespace vf
