//===- frontend/Lexer.cpp - Tokens from .vf source ------------------------===//
//
// A hand-written scanner over the byte buffer. Numbers follow LANGUAGE.md
// (`1`, `0.5`, `.5`, `1e-3`) with one twist: `0..8` is Number DotDot Number,
// so a '.' followed by '.' ends a number.
//
//===----------------------------------------------------------------------===//

#include "frontend/Lexer.h"
#include "frontend/Diagnostics.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringSwitch.h"

using namespace llvm;

namespace vf {

StringRef tokenSpelling(TokenKind K) {
  switch (K) {
#define VF_TOKEN_SPELL(Kind, Spelling)                                         \
  case TokenKind::Kind:                                                        \
    return Spelling;
    VF_FOR_EACH_TOKEN(VF_TOKEN_SPELL, VF_TOKEN_SPELL)
#undef VF_TOKEN_SPELL
  }
  return "?";
}

StringRef tokenKindName(TokenKind K) {
  switch (K) {
#define VF_TOKEN_NAME(Kind, Spelling)                                          \
  case TokenKind::Kind:                                                        \
    return #Kind;
    VF_FOR_EACH_TOKEN(VF_TOKEN_NAME, VF_TOKEN_NAME)
#undef VF_TOKEN_NAME
  }
  return "?";
}

namespace {

TokenKind keywordOrIdentifier(StringRef Text) {
  return StringSwitch<TokenKind>(Text)
#define VF_TOKEN_IGNORE(Kind, Spelling)
#define VF_TOKEN_KEYWORD(Kind, Spelling) .Case(Spelling, TokenKind::Kind)
      VF_FOR_EACH_TOKEN(VF_TOKEN_IGNORE, VF_TOKEN_KEYWORD)
#undef VF_TOKEN_KEYWORD
#undef VF_TOKEN_IGNORE
          .Default(TokenKind::Identifier);
}

bool isIdentStart(char C) { return isAlpha(C) || C == '_'; }
bool isIdentBody(char C) { return isAlnum(C) || C == '_'; }

class Lexer {
public:
  Lexer(StringRef Buf, DiagEngine &Diags)
      : Buf(Buf), Cur(Buf.begin()), Diags(Diags) {
    // A UTF-8 byte-order mark, as some editors write, is not text.
    if (Buf.starts_with("\xEF\xBB\xBF"))
      Cur += 3;
  }

  std::vector<Token> run() {
    std::vector<Token> Tokens;
    for (;;) {
      Token T = next();
      Tokens.push_back(T);
      if (T.is(TokenKind::Eof))
        return Tokens;
    }
  }

private:
  Token make(TokenKind K, const char *Start) {
    return Token{K, StringRef(Start, Cur - Start)};
  }
  bool atEnd() const { return Cur == Buf.end(); }
  char peek(unsigned N = 0) const {
    return Cur + N < Buf.end() ? Cur[N] : '\0';
  }

  void skipSpaceAndComments() {
    while (!atEnd()) {
      char C = *Cur;
      if (C == ' ' || C == '\t' || C == '\r' || C == '\n' || C == '\f' ||
          C == '\v') {
        ++Cur;
      } else if (C == '#') {
        while (!atEnd() && *Cur != '\n')
          ++Cur;
      } else {
        return;
      }
    }
  }

  Token next() {
    skipSpaceAndComments();
    const char *Start = Cur;
    if (atEnd())
      return make(TokenKind::Eof, Start);
    char C = *Cur;
    if (isDigit(C) || (C == '.' && isDigit(peek(1))))
      return lexNumber();
    if (isIdentStart(C)) {
      while (!atEnd() && isIdentBody(*Cur))
        ++Cur;
      return make(keywordOrIdentifier(StringRef(Start, Cur - Start)), Start);
    }
    if (C == '"')
      return lexString();
    ++Cur;
    switch (C) {
    case '(':
      return make(TokenKind::LParen, Start);
    case ')':
      return make(TokenKind::RParen, Start);
    case '[':
      return make(TokenKind::LBracket, Start);
    case ']':
      return make(TokenKind::RBracket, Start);
    case '{':
      return make(TokenKind::LBrace, Start);
    case '}':
      return make(TokenKind::RBrace, Start);
    case ',':
      return make(TokenKind::Comma, Start);
    case ':':
      return make(TokenKind::Colon, Start);
    case ';':
      return make(TokenKind::Semi, Start);
    case '+':
      return make(TokenKind::Plus, Start);
    case '*':
      return make(TokenKind::Star, Start);
    case '/':
      return make(TokenKind::Slash, Start);
    case '^':
      return make(TokenKind::Caret, Start);
    case '-':
      return make(accept('>') ? TokenKind::Arrow : TokenKind::Minus, Start);
    case '=':
      return make(accept('=') ? TokenKind::EqualEqual : TokenKind::Equal,
                  Start);
    case '<':
      return make(accept('=') ? TokenKind::LessEqual : TokenKind::Less, Start);
    case '>':
      return make(accept('=') ? TokenKind::GreaterEqual : TokenKind::Greater,
                  Start);
    case '.':
      if (accept('.'))
        return make(TokenKind::DotDot, Start);
      break;
    case '!':
      if (accept('='))
        return make(TokenKind::NotEqual, Start);
      return errorToken(Start, "unexpected character '!'; use 'not' for "
                               "negation or '!=' for inequality");
    default:
      break;
    }
    return lexStrayCharacter(Start);
  }

  bool accept(char C) {
    if (peek() != C)
      return false;
    ++Cur;
    return true;
  }

  Token errorToken(const char *Start, const Twine &Msg) {
    Token T = make(TokenKind::Error, Start);
    Diags.error(T.loc(), Msg, T.range());
    return T;
  }

  Token lexStrayCharacter(const char *Start) {
    unsigned char C = static_cast<unsigned char>(*Start);
    if (C >= 0x80) {
      // Swallow the whole UTF-8 sequence so the caret covers one character.
      while (!atEnd() && (static_cast<unsigned char>(*Cur) & 0xC0) == 0x80)
        ++Cur;
      return errorToken(Start, "unexpected non-ASCII character");
    }
    if (isPrint(C))
      return errorToken(Start, Twine("unexpected character '") +
                                   Twine(static_cast<char>(C)) + "'");
    return errorToken(Start, "unexpected control character");
  }

  /// number -> digits ('.' digits?)? exponent? | '.' digits exponent?
  Token lexNumber() {
    const char *Start = Cur;
    while (isDigit(peek()))
      ++Cur;
    if (peek() == '.' && peek(1) != '.') {
      ++Cur;
      while (isDigit(peek()))
        ++Cur;
    }
    if (peek() == 'e' || peek() == 'E') {
      unsigned N = 1;
      if (peek(1) == '+' || peek(1) == '-')
        N = 2;
      if (!isDigit(peek(N))) {
        Cur += N;
        return errorToken(Start, "malformed number: expected digits after "
                                 "the exponent");
      }
      Cur += N;
      while (isDigit(peek()))
        ++Cur;
    }
    if (isIdentBody(peek()) || (peek() == '.' && peek(1) != '.')) {
      while (!atEnd() && (isIdentBody(*Cur) || *Cur == '.') &&
             !(Cur[0] == '.' && peek(1) == '.'))
        ++Cur;
      return errorToken(Start, "malformed number '" +
                                   StringRef(Start, Cur - Start) + "'");
    }
    return make(TokenKind::Number, Start);
  }

  /// string -> '"' [^"\n]* '"'
  Token lexString() {
    const char *Start = Cur++;
    while (!atEnd() && *Cur != '"' && *Cur != '\n')
      ++Cur;
    if (atEnd() || *Cur != '"')
      return errorToken(Start, "unterminated string");
    ++Cur;
    return make(TokenKind::String, Start);
  }

  StringRef Buf;
  const char *Cur;
  DiagEngine &Diags;
};

} // namespace

std::vector<Token> lexBuffer(StringRef Buffer, DiagEngine &Diags) {
  return Lexer(Buffer, Diags).run();
}

} // namespace vf
