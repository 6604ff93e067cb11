//===- frontend/ParseExprs.cpp - Expressions ------------------------------===//
//
// Precedence climbing over a table of binary operators (data, ORDER BINOP);
// unary minus, `^`, postfix indexing and slicing, and the primaries.
//
//===----------------------------------------------------------------------===//

#include "frontend/ParserImpl.h"

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

} // namespace

/// expr -> 'if' expr 'then' expr 'else' expr | binary(OrPrec)
ExprPtr Parser::parseExpr() {
  if (Failed || !enter())
    return nullptr;
  ExprPtr E = parseBinary(OrPrec);
  leave();
  return E;
}

/// vector -> '[' expr (',' expr)* ']'
ExprPtr Parser::parseVector() {
  SMLoc Start = tok().loc();
  consume();
  std::vector<ExprPtr> Elems;
  do {
    Elems.push_back(parseExpr());
  } while (!Failed && accept(TokenKind::Comma));
  if (!expect(TokenKind::RBracket, "to close the array"))
    return nullptr;
  return node<VectorExpr>(height(Elems), rangeFrom(Start), std::move(Elems));
}

/// binary(p) -> operand(p) (OP binary(prec(OP)+1))*   for prec(OP) >= p
/// Comparisons are non-associative: `a < b < c` is an error.
ExprPtr Parser::parseBinary(int MinPrec) {
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
ExprPtr Parser::parseOperand(int) {
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

ExprPtr Parser::parseBinaryNested(int Prec) {
  if (!enter())
    return nullptr;
  ExprPtr E = parseBinary(Prec);
  leave();
  return E;
}

/// unary -> '-' unary | power
ExprPtr Parser::parseUnary() {
  if (!tok().is(TokenKind::Minus))
    return parsePower();
  SMLoc Start = tok().loc();
  consume();
  if (!enter())
    return nullptr;
  ExprPtr E = parseUnary();
  leave();
  if (Failed)
    return nullptr;
  return node<UnaryExpr>(height({E.get()}), rangeFrom(Start), UnaryOp::Neg,
                         std::move(E));
}

/// power -> postfix ('^' unary)?      (right-associative: x^-1, 2^3^2)
ExprPtr Parser::parsePower() {
  SMLoc Start = tok().loc();
  ExprPtr Base = parsePostfix();
  if (Failed || !tok().is(TokenKind::Caret))
    return Base;
  SMLoc OpLoc = tok().loc();
  consume();
  if (!enter())
    return nullptr;
  ExprPtr Exp = parseUnary();
  leave();
  if (Failed)
    return nullptr;
  return node<BinaryExpr>(height({Base.get(), Exp.get()}), rangeFrom(Start),
                          BinaryOp::Pow, OpLoc, std::move(Base),
                          std::move(Exp));
}

/// postfix -> primary ('[' expr ']' | '[' expr '..' expr ']')*
ExprPtr Parser::parsePostfix() {
  SMLoc Start = tok().loc();
  ExprPtr E = parsePrimary();
  while (!Failed && tok().is(TokenKind::LBracket)) {
    consume();
    ExprPtr Idx = parseExpr();
    if (!Failed && accept(TokenKind::DotDot)) {
      ExprPtr Hi = parseExpr();
      if (!expect(TokenKind::RBracket, "to close the slice"))
        return nullptr;
      E = node<SliceExpr>(height({E.get(), Idx.get(), Hi.get()}),
                          rangeFrom(Start), std::move(E), std::move(Idx),
                          std::move(Hi));
      continue;
    }
    if (!expect(TokenKind::RBracket, "to close the index"))
      return nullptr;
    E = node<IndexExpr>(height({E.get(), Idx.get()}), rangeFrom(Start),
                        std::move(E), std::move(Idx));
  }
  return Failed ? nullptr : std::move(E);
}

/// primary -> NUMBER | NAME | call | reduction | '(' expr ')' | if | vector
ExprPtr Parser::parsePrimary() {
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
    return parseVector();
  case TokenKind::KwInf:
    error(T, "'inf' may only be a bound of an integration domain, as in "
             "'x in [0, inf]'");
    return nullptr;
  default:
    error(T, "expected an expression, found " + describe(T));
    return nullptr;
  }
}

ExprPtr Parser::parseNumber() {
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

ExprPtr Parser::parseRangeBound() { return parseBinaryNested(AddPrec); }

bool Parser::isReduction() const {
  StringRef N = tok().Text;
  return (N == "sum" || N == "prod" || N == "min" || N == "max") &&
         peek(2).is(TokenKind::Identifier) && peek(3).is(TokenKind::KwIn);
}

/// reduction -> ('sum'|'prod'|'min'|'max') '(' indexed
ExprPtr Parser::parseReduction() {
  SMLoc Start = tok().loc();
  StringRef N = tok().Text;
  ReduceOp Op = N == "sum"    ? ReduceOp::Sum
                : N == "prod" ? ReduceOp::Prod
                : N == "min"  ? ReduceOp::Min
                              : ReduceOp::Max;
  consume();
  consume(); // '('
  return parseIndexed(Start, Op, "reduction");
}

/// indexed -> NAME 'in' expr '..' expr ':' expr ')'
ExprPtr Parser::parseIndexed(SMLoc Start, ReduceOp Op, StringRef What) {
  std::string Index;
  SMRange IndexRange;
  if (!expectIdentifier(Index, IndexRange,
                        ("the " + What + "'s index").str()) ||
      !expect(TokenKind::KwIn, ("after the " + What + "'s index").str()))
    return nullptr;
  ExprPtr Lo = parseRangeBound();
  if (!expect(TokenKind::DotDot, ("in the " + What + " range 'lo..hi'").str()))
    return nullptr;
  ExprPtr Hi = parseRangeBound();
  if (!expect(TokenKind::Colon, ("after the " + What + " range").str()))
    return nullptr;
  ExprPtr Body = parseExpr();
  if (!expect(TokenKind::RParen, ("to close the " + What).str()))
    return nullptr;
  return node<ReduceExpr>(height({Lo.get(), Hi.get(), Body.get()}),
                          rangeFrom(Start), Op, Index, IndexRange,
                          std::move(Lo), std::move(Hi), std::move(Body));
}

/// call -> NAME '(' (expr (',' expr)*)? ')'
ExprPtr Parser::parseCall() {
  if (InChannel && (tok().Text == "alpha" || tok().Text == "density"))
    return parseChannelQuery();
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

/// channelquery -> 'alpha' '(' NAME ')' | 'density' '(' NAME ',' expr ')'
/// (inside a channel block only)
ExprPtr Parser::parseChannelQuery() {
  SMLoc Start = tok().loc();
  const bool Alpha = tok().Text == "alpha";
  consume();
  consume(); // '('
  std::string Channel;
  SMRange ChannelRange;
  if (!expectIdentifier(Channel, ChannelRange,
                        Alpha ? "a channel's name in 'alpha(NAME)'"
                              : "a channel's name in 'density(NAME, u)'"))
    return nullptr;
  ExprPtr Point;
  if (!Alpha && (!expect(TokenKind::Comma, "after the channel's name in "
                                           "'density(NAME, u)'") ||
                 !(Point = parseExpr())))
    return nullptr;
  if (!expect(TokenKind::RParen,
              Alpha ? "to close 'alpha(NAME)'" : "to close 'density(NAME, u)'"))
    return nullptr;
  return node<ChannelExpr>(height({Point.get()}), rangeFrom(Start),
                           Alpha ? ChannelQuery::Alpha : ChannelQuery::Density,
                           Channel, ChannelRange, std::move(Point));
}

/// if -> 'if' expr 'then' expr 'else' expr
ExprPtr Parser::parseIf() {
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

} // namespace vf
