//===- frontend/Token.h - Tokens of the .vf language ------------*- C++ -*-===//
//
// The token kinds are one list (VF_FOR_EACH_TOKEN) from which the enum and
// the spelling table are generated, so a new token cannot miss either.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_TOKEN_H
#define VF_COMPILER_FRONTEND_TOKEN_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/SMLoc.h"

namespace vf {

// X(Kind, Spelling). Keywords use KW(Kind, Spelling) so the lexer can find
// them by spelling.
#define VF_FOR_EACH_TOKEN(X, KW)                                               \
  X(Eof, "end of file")                                                        \
  X(Error, "invalid token")                                                    \
  X(Number, "number")                                                          \
  X(Identifier, "name")                                                        \
  X(String, "string")                                                          \
  KW(KwIntegrand, "integrand")                                                 \
  KW(KwFn, "fn")                                                               \
  KW(KwParam, "param")                                                         \
  KW(KwConst, "const")                                                         \
  KW(KwLet, "let")                                                             \
  KW(KwReturn, "return")                                                       \
  KW(KwIf, "if")                                                               \
  KW(KwThen, "then")                                                           \
  KW(KwElse, "else")                                                           \
  KW(KwAnd, "and")                                                             \
  KW(KwOr, "or")                                                               \
  KW(KwNot, "not")                                                             \
  KW(KwIn, "in")                                                               \
  KW(KwImport, "import")                                                       \
  KW(KwExtern, "extern")                                                       \
  KW(KwInf, "inf")                                                             \
  X(LParen, "(")                                                               \
  X(RParen, ")")                                                               \
  X(LBracket, "[")                                                             \
  X(RBracket, "]")                                                             \
  X(LBrace, "{")                                                               \
  X(RBrace, "}")                                                               \
  X(Comma, ",")                                                                \
  X(Colon, ":")                                                                \
  X(Semi, ";")                                                                 \
  X(Equal, "=")                                                                \
  X(Plus, "+")                                                                 \
  X(Minus, "-")                                                                \
  X(Star, "*")                                                                 \
  X(Slash, "/")                                                                \
  X(Caret, "^")                                                                \
  X(Less, "<")                                                                 \
  X(LessEqual, "<=")                                                           \
  X(Greater, ">")                                                              \
  X(GreaterEqual, ">=")                                                        \
  X(EqualEqual, "==")                                                          \
  X(NotEqual, "!=")                                                            \
  X(DotDot, "..")                                                              \
  X(Arrow, "->")

enum class TokenKind {
#define VF_TOKEN_ENUM(Kind, Spelling) Kind,
  VF_FOR_EACH_TOKEN(VF_TOKEN_ENUM, VF_TOKEN_ENUM)
#undef VF_TOKEN_ENUM
};

/// The spelling used in diagnostics ("'integrand'", "number", ...).
llvm::StringRef tokenSpelling(TokenKind K);
/// The enum name, used by `--emit=tokens`.
llvm::StringRef tokenKindName(TokenKind K);

/// A token: its kind and the exact bytes it covers in its buffer.
struct Token {
  TokenKind Kind = TokenKind::Eof;
  llvm::StringRef Text;

  bool is(TokenKind K) const { return Kind == K; }
  llvm::SMLoc loc() const { return llvm::SMLoc::getFromPointer(Text.begin()); }
  llvm::SMLoc endLoc() const {
    return llvm::SMLoc::getFromPointer(Text.end());
  }
  llvm::SMRange range() const { return {loc(), endLoc()}; }
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_TOKEN_H
