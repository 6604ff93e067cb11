//===- frontend/Parser.cpp - .vf tokens to AST ----------------------------===//
//
// Each parse function starts with its grammar production. Errors set a flag
// and unwind to the item level (no exceptions): the item is dropped and
// parsing resumes at the next `integrand`, `fn`, `param`, `const` or
// `import` keyword.
//
//===----------------------------------------------------------------------===//

#include "frontend/Parser.h"
#include "frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"

#include <charconv>

using namespace llvm;

namespace vf {

namespace {

/// Binding power of each binary operator; ORDER BINOP.
struct BinOpInfo {
  TokenKind Tok;
  BinaryOp Op;
  int Prec;
};

// Loosest first. `not` (prefix) sits between `and` and the comparisons;
// unary minus and `^` are handled by parseUnary/parsePower.
constexpr int OrPrec = 1, AndPrec = 2, NotPrec = 3, CmpPrec = 4, AddPrec = 5,
              MulPrec = 6;

const BinOpInfo BinOps[] = {
    {TokenKind::KwOr, BinaryOp::Or, OrPrec},
    {TokenKind::KwAnd, BinaryOp::And, AndPrec},
    {TokenKind::Less, BinaryOp::Lt, CmpPrec},
    {TokenKind::LessEqual, BinaryOp::Le, CmpPrec},
    {TokenKind::Greater, BinaryOp::Gt, CmpPrec},
    {TokenKind::GreaterEqual, BinaryOp::Ge, CmpPrec},
    {TokenKind::EqualEqual, BinaryOp::Eq, CmpPrec},
    {TokenKind::NotEqual, BinaryOp::Ne, CmpPrec},
    {TokenKind::Plus, BinaryOp::Add, AddPrec},
    {TokenKind::Minus, BinaryOp::Sub, AddPrec},
    {TokenKind::Star, BinaryOp::Mul, MulPrec},
    {TokenKind::Slash, BinaryOp::Div, MulPrec},
};

const BinOpInfo *findBinOp(TokenKind K) {
  for (const BinOpInfo &I : BinOps)
    if (I.Tok == K)
      return &I;
  return nullptr;
}

bool isItemStart(TokenKind K) {
  return K == TokenKind::KwIntegrand || K == TokenKind::KwFn ||
         K == TokenKind::KwParam || K == TokenKind::KwConst ||
         K == TokenKind::KwImport;
}

/// Deep nesting is bounded so no input can overflow the stack: MaxDepth
/// bounds the parser's recursion, MaxHeight the height of the trees it
/// builds (a left-deep chain `1+1+...+1` grows the tree without deepening
/// the parser's recursion, and every later pass walks the tree recursively).
constexpr unsigned MaxDepth = 256;
constexpr unsigned MaxHeight = 1024;

class Parser {
public:
  Parser(ArrayRef<Token> Toks, SourceModule &M, DiagEngine &Diags)
      : Toks(Toks), M(M), Diags(Diags) {}

  /// file -> item*
  void parseFile() {
    while (!tok().is(TokenKind::Eof)) {
      Failed = false;
      if (!isItemStart(tok().Kind)) {
        if (!tok().is(TokenKind::Error))
          error(tok(), "expected an item ('integrand', 'fn', 'param', "
                       "'const' or 'import'), found " +
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

  static std::string describe(const Token &T) {
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

  /// Reports at \p T unless an error is already being unwound or \p T is an
  /// Error token (the lexer reported it).
  void error(const Token &T, const Twine &Msg) {
    if (!Failed && !T.is(TokenKind::Error))
      Diags.error(T.loc(), Msg, T.range());
    Failed = true;
  }

  bool expect(TokenKind K, StringRef Context) {
    if (accept(K))
      return true;
    error(tok(), "expected '" + tokenSpelling(K) + "' " + Context +
                     ", found " + describe(tok()));
    return false;
  }

  bool expectIdentifier(std::string &Name, SMRange &Range, StringRef What) {
    if (!tok().is(TokenKind::Identifier)) {
      error(tok(), "expected " + What + ", found " + describe(tok()));
      return false;
    }
    Name = tok().Text.str();
    Range = tok().range();
    consume();
    return true;
  }

  void skipToItem() {
    while (!tok().is(TokenKind::Eof) && !isItemStart(tok().Kind))
      consume();
  }

  SMRange rangeFrom(SMLoc Start) const {
    return {Start, prev().endLoc()};
  }

  /// Builds expression node T over children of height at most \p KidHeight,
  /// or reports that the tree is too deep.
  template <typename T, typename... ArgTs>
  ExprPtr node(unsigned KidHeight, ArgTs &&...Args) {
    if (KidHeight >= MaxHeight) {
      error(prev(), "expression too deep: its syntax tree has more than " +
                        Twine(MaxHeight) +
                        " levels; split it with 'let' bindings");
      return nullptr;
    }
    auto E = std::make_unique<T>(std::forward<ArgTs>(Args)...);
    E->Height = KidHeight + 1;
    return E;
  }
  static unsigned height(std::initializer_list<const Expr *> Kids) {
    unsigned H = 0;
    for (const Expr *K : Kids)
      if (K)
        H = std::max(H, K->Height);
    return H;
  }
  static unsigned height(const std::vector<ExprPtr> &Kids) {
    unsigned H = 0;
    for (const ExprPtr &K : Kids)
      if (K)
        H = std::max(H, K->Height);
    return H;
  }

  //===--------------------------------------------------------------------===//
  // Items
  //===--------------------------------------------------------------------===//

  std::unique_ptr<Item> parseItem() {
    switch (tok().Kind) {
    case TokenKind::KwConst:
      return parseConst();
    case TokenKind::KwParam:
      return parseParam();
    case TokenKind::KwFn:
      return parseFn();
    case TokenKind::KwIntegrand:
      return parseIntegrand();
    default:
      return parseImport();
    }
  }

  /// const -> 'const' NAME '=' expr
  std::unique_ptr<Item> parseConst() {
    consume();
    auto D = std::make_unique<ConstDecl>();
    if (!expectIdentifier(D->Name, D->NameRange, "a constant name") ||
        !expect(TokenKind::Equal, "after the constant's name"))
      return nullptr;
    D->Value = parseExpr();
    return D;
  }

  /// param -> 'param' NAME '=' expr
  std::unique_ptr<Item> parseParam() {
    consume();
    auto D = std::make_unique<ParamDecl>();
    if (!expectIdentifier(D->Name, D->NameRange, "a parameter name") ||
        !expect(TokenKind::Equal, "after the parameter's name (a parameter "
                                  "needs a default value)"))
      return nullptr;
    D->Default = parseExpr();
    return D;
  }

  /// fn -> 'fn' NAME '(' (NAME (',' NAME)*)? ')' body
  std::unique_ptr<Item> parseFn() {
    consume();
    auto D = std::make_unique<FnDecl>();
    if (!expectIdentifier(D->Name, D->NameRange, "a function name") ||
        !expect(TokenKind::LParen, "after the function's name"))
      return nullptr;
    if (!tok().is(TokenKind::RParen)) {
      do {
        FnArg A;
        if (!expectIdentifier(A.Name, A.Range, "an argument name"))
          return nullptr;
        D->Args.push_back(std::move(A));
      } while (accept(TokenKind::Comma));
    }
    if (!expect(TokenKind::RParen, "after the arguments") ||
        !parseBody(D->B, "the function"))
      return nullptr;
    return D;
  }

  /// integrand -> 'integrand' NAME '(' NAME 'in' domain ')'
  ///              ('->' '[' expr ']')? body
  std::unique_ptr<Item> parseIntegrand() {
    consume();
    auto D = std::make_unique<IntegrandDecl>();
    if (!expectIdentifier(D->Name, D->NameRange, "an integrand name") ||
        !expect(TokenKind::LParen, "after the integrand's name") ||
        !expectIdentifier(D->Var, D->VarRange, "the integration variable") ||
        !expect(TokenKind::KwIn, "after the integration variable") ||
        !parseDomain(D->Domain) ||
        !expect(TokenKind::RParen, "after the domain"))
      return nullptr;
    if (accept(TokenKind::Arrow)) {
      if (!expect(TokenKind::LBracket, "before the number of components"))
        return nullptr;
      D->OutputsExpr = parseExpr();
      if (!expect(TokenKind::RBracket, "after the number of components"))
        return nullptr;
    }
    if (!parseBody(D->B, "the integrand"))
      return nullptr;
    return D;
  }

  /// import -> 'import' STRING
  std::unique_ptr<Item> parseImport() {
    consume();
    auto D = std::make_unique<ImportDecl>();
    if (!tok().is(TokenKind::String)) {
      error(tok(), "expected a module path in quotes after 'import', "
                   "found " + describe(tok()));
      return nullptr;
    }
    D->Path = tok().Text.drop_front().drop_back().str();
    D->PathRange = tok().range();
    D->NameRange = D->PathRange;
    consume();
    return D;
  }

  /// domain -> interval ('*' interval)*
  /// interval -> '[' expr ',' expr ']' ('^' unary)?
  bool parseDomain(std::vector<Interval> &Domain) {
    do {
      Interval I;
      SMLoc Start = tok().loc();
      if (!expect(TokenKind::LBracket, "to open an interval '[a, b]'"))
        return false;
      I.Lo = parseExpr();
      if (!expect(TokenKind::Comma, "between the interval's bounds"))
        return false;
      I.Hi = parseExpr();
      if (!expect(TokenKind::RBracket, "to close the interval"))
        return false;
      if (accept(TokenKind::Caret))
        I.Power = parseUnary();
      I.Range = rangeFrom(Start);
      Domain.push_back(std::move(I));
    } while (!Failed && accept(TokenKind::Star));
    return !Failed;
  }

  /// body -> '=' expr | '{' (let | ';')* 'return' expr ';'? '}'
  /// let -> 'let' NAME '=' expr
  bool parseBody(Body &B, StringRef What) {
    if (accept(TokenKind::Equal)) {
      B.ReturnLoc = tok().loc();
      B.Result = parseExpr(/*AllowVector=*/true);
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
      if (tok().is(TokenKind::KwReturn)) {
        B.ReturnLoc = tok().loc();
        consume();
        B.Result = parseExpr(/*AllowVector=*/true);
        accept(TokenKind::Semi);
        if (Failed)
          return false;
        if (!tok().is(TokenKind::RBrace)) {
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
      error(tok(), "expected 'let' or 'return' in the body of " + What +
                       ", found " + describe(tok()));
    }
    return false;
  }

  //===--------------------------------------------------------------------===//
  // Expressions
  //===--------------------------------------------------------------------===//

  /// expr -> 'if' expr 'then' expr 'else' expr | binary(OrPrec)
  ExprPtr parseExpr(bool AllowVector = false) {
    if (Failed)
      return nullptr;
    if (++Depth > MaxDepth) {
      error(tok(), "expression nested too deeply");
      --Depth;
      return nullptr;
    }
    ExprPtr E;
    if (AllowVector && tok().is(TokenKind::LBracket))
      E = parseVector();
    else
      E = parseBinary(OrPrec);
    --Depth;
    return E;
  }

  /// vector -> '[' expr (',' expr)* ']'
  ExprPtr parseVector() {
    SMLoc Start = tok().loc();
    consume();
    std::vector<ExprPtr> Elems;
    do {
      Elems.push_back(parseExpr());
    } while (!Failed && accept(TokenKind::Comma));
    if (!expect(TokenKind::RBracket, "to close the vector"))
      return nullptr;
    return node<VectorExpr>(height(Elems), rangeFrom(Start), std::move(Elems));
  }

  /// binary(p) -> operand(p) (OP binary(prec(OP)+1))*   for prec(OP) >= p
  /// Comparisons are non-associative: `a < b < c` is an error.
  ExprPtr parseBinary(int MinPrec) {
    SMLoc Start = tok().loc();
    ExprPtr LHS = parseOperand(MinPrec);
    bool SawComparison = false;
    while (!Failed) {
      const BinOpInfo *Info = findBinOp(tok().Kind);
      if (!Info || Info->Prec < MinPrec)
        break;
      if (Info->Prec == CmpPrec) {
        if (SawComparison) {
          error(tok(), "comparisons cannot be chained; write 'a < b and "
                       "b < c'");
          return nullptr;
        }
        SawComparison = true;
      }
      SMLoc OpLoc = tok().loc();
      consume();
      ExprPtr RHS = parseBinary(Info->Prec + 1);
      if (Failed)
        return nullptr;
      LHS = node<BinaryExpr>(height({LHS.get(), RHS.get()}), rangeFrom(Start),
                             Info->Op, OpLoc, std::move(LHS), std::move(RHS));
    }
    return Failed ? nullptr : std::move(LHS);
  }

  /// operand(p) -> 'not' binary(NotPrec) | unary     ('not' only if p <= NotPrec)
  ExprPtr parseOperand(int MinPrec) {
    if (tok().is(TokenKind::KwNot)) {
      SMLoc Start = tok().loc();
      consume();
      ExprPtr E = parseBinaryNested(NotPrec);
      if (Failed)
        return nullptr;
      return node<UnaryExpr>(height({E.get()}), rangeFrom(Start), UnaryOp::Not,
                             std::move(E));
    }
    return parseUnary();
  }

  ExprPtr parseBinaryNested(int Prec) {
    if (++Depth > MaxDepth) {
      error(tok(), "expression nested too deeply");
      --Depth;
      return nullptr;
    }
    ExprPtr E = parseBinary(Prec);
    --Depth;
    return E;
  }

  /// unary -> '-' unary | power
  ExprPtr parseUnary() {
    if (!tok().is(TokenKind::Minus))
      return parsePower();
    SMLoc Start = tok().loc();
    consume();
    if (++Depth > MaxDepth) {
      error(tok(), "expression nested too deeply");
      --Depth;
      return nullptr;
    }
    ExprPtr E = parseUnary();
    --Depth;
    if (Failed)
      return nullptr;
    return node<UnaryExpr>(height({E.get()}), rangeFrom(Start), UnaryOp::Neg,
                           std::move(E));
  }

  /// power -> postfix ('^' unary)?      (right-associative: x^-1, 2^3^2)
  ExprPtr parsePower() {
    SMLoc Start = tok().loc();
    ExprPtr Base = parsePostfix();
    if (Failed || !tok().is(TokenKind::Caret))
      return Base;
    SMLoc OpLoc = tok().loc();
    consume();
    if (++Depth > MaxDepth) {
      error(tok(), "expression nested too deeply");
      --Depth;
      return nullptr;
    }
    ExprPtr Exp = parseUnary();
    --Depth;
    if (Failed)
      return nullptr;
    return node<BinaryExpr>(height({Base.get(), Exp.get()}), rangeFrom(Start),
                            BinaryOp::Pow, OpLoc, std::move(Base),
                            std::move(Exp));
  }

  /// postfix -> primary ('[' expr ']')*
  ExprPtr parsePostfix() {
    SMLoc Start = tok().loc();
    ExprPtr E = parsePrimary();
    while (!Failed && tok().is(TokenKind::LBracket)) {
      consume();
      ExprPtr Idx = parseExpr();
      if (!expect(TokenKind::RBracket, "to close the index"))
        return nullptr;
      E = node<IndexExpr>(height({E.get(), Idx.get()}), rangeFrom(Start),
                          std::move(E), std::move(Idx));
    }
    return Failed ? nullptr : std::move(E);
  }

  /// primary -> NUMBER | NAME | call | reduction | '(' expr ')' | if
  ExprPtr parsePrimary() {
    const Token &T = tok();
    switch (T.Kind) {
    case TokenKind::Number:
      return parseNumber();
    case TokenKind::Identifier:
      if (peek(1).is(TokenKind::LParen))
        return isReduction() ? parseReduction() : parseCall();
      consume();
      return std::make_unique<NameExpr>(T.range(), T.Text);
    case TokenKind::LParen: {
      consume();
      ExprPtr E = parseExpr();
      if (!expect(TokenKind::RParen, "to close the parenthesis"))
        return nullptr;
      return E;
    }
    case TokenKind::KwIf:
      return parseIf();
    case TokenKind::LBracket:
      error(T, "a vector '[...]' may only be the result of a vector-valued "
               "integrand");
      return nullptr;
    default:
      error(T, "expected an expression, found " + describe(T));
      return nullptr;
    }
  }

  ExprPtr parseNumber() {
    const Token &T = tok();
    double V = 0;
    auto [Ptr, Ec] = std::from_chars(T.Text.begin(), T.Text.end(), V);
    // Overflow to infinity is an error: a literal the user cannot mean.
    if (Ec != std::errc() || Ptr != T.Text.end()) {
      error(T, "number '" + T.Text + "' is out of the range of a double");
      return nullptr;
    }
    consume();
    return std::make_unique<NumberExpr>(T.range(), V);
  }

  bool isReduction() const {
    StringRef N = tok().Text;
    return (N == "sum" || N == "prod" || N == "min" || N == "max") &&
           peek(2).is(TokenKind::Identifier) && peek(3).is(TokenKind::KwIn);
  }

  /// reduction -> ('sum'|'prod'|'min'|'max') '(' NAME 'in' expr '..' expr
  ///              ':' expr ')'
  ExprPtr parseReduction() {
    SMLoc Start = tok().loc();
    StringRef N = tok().Text;
    ReduceOp Op = N == "sum"    ? ReduceOp::Sum
                  : N == "prod" ? ReduceOp::Prod
                  : N == "min"  ? ReduceOp::Min
                                : ReduceOp::Max;
    consume();
    consume(); // '('
    std::string Index = tok().Text.str();
    SMRange IndexRange = tok().range();
    consume();
    consume(); // 'in'
    ExprPtr Lo = parseBinaryNested(AddPrec);
    if (!expect(TokenKind::DotDot, "in the reduction range 'lo..hi'"))
      return nullptr;
    ExprPtr Hi = parseBinaryNested(AddPrec);
    if (!expect(TokenKind::Colon, "after the reduction range"))
      return nullptr;
    ExprPtr Body = parseExpr();
    if (!expect(TokenKind::RParen, "to close the reduction"))
      return nullptr;
    return node<ReduceExpr>(height({Lo.get(), Hi.get(), Body.get()}),
                            rangeFrom(Start), Op, Index, IndexRange,
                            std::move(Lo), std::move(Hi), std::move(Body));
  }

  /// call -> NAME '(' (expr (',' expr)*)? ')'
  ExprPtr parseCall() {
    SMLoc Start = tok().loc();
    std::string Callee = tok().Text.str();
    SMRange CalleeRange = tok().range();
    consume();
    consume(); // '('
    std::vector<ExprPtr> Args;
    if (!tok().is(TokenKind::RParen)) {
      do {
        Args.push_back(parseExpr());
      } while (!Failed && accept(TokenKind::Comma));
    }
    if (!expect(TokenKind::RParen, "to close the argument list"))
      return nullptr;
    return node<CallExpr>(height(Args), rangeFrom(Start), Callee, CalleeRange,
                          std::move(Args));
  }

  /// if -> 'if' expr 'then' expr 'else' expr
  ExprPtr parseIf() {
    SMLoc Start = tok().loc();
    consume();
    ExprPtr C = parseExpr();
    if (!expect(TokenKind::KwThen, "after the condition of 'if'"))
      return nullptr;
    ExprPtr T = parseExpr();
    if (!expect(TokenKind::KwElse, "after the 'then' branch (an 'if' needs "
                                   "an 'else')"))
      return nullptr;
    ExprPtr E = parseExpr();
    if (Failed)
      return nullptr;
    return node<IfExpr>(height({C.get(), T.get(), E.get()}), rangeFrom(Start),
                        std::move(C), std::move(T), std::move(E));
  }

  ArrayRef<Token> Toks;
  size_t Pos = 0;
  SourceModule &M;
  DiagEngine &Diags;
  bool Failed = false;
  unsigned Depth = 0;
};

} // namespace

void parseModule(ArrayRef<Token> Tokens, SourceModule &Module,
                 DiagEngine &Diags) {
  Parser(Tokens, Module, Diags).parseFile();
}

} // namespace vf
