//===- tests/unit/frontend/LexerTest.cpp - Token kinds and offsets --------===//
//
// The lexer's contract: token kinds (keywords vs names), exact byte ranges
// into the buffer, `0..8` as Number DotDot Number, the number forms of
// LANGUAGE.md, comments and whitespace skipped, and lexical errors reported
// once as Error tokens.
//
//===----------------------------------------------------------------------===//

#include "frontend/Lexer.h"
#include "frontend/Diagnostics.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include "gtest/gtest.h"

#include <string>
#include <vector>

using namespace vf;

namespace {

/// Lexes \p Src, registered in a SourceMgr so errors can print carets.
class LexerTest : public ::testing::Test {
protected:
  std::vector<Token> lex(llvm::StringRef Src) {
    auto Buf = llvm::MemoryBuffer::getMemBufferCopy(Src, "t.vf");
    Start = Buf->getBufferStart();
    llvm::StringRef Text = Buf->getBuffer();
    SM.AddNewSourceBuffer(std::move(Buf), llvm::SMLoc());
    llvm::raw_string_ostream OS(DiagText);
    DiagEngine D(SM, OS);
    std::vector<Token> Toks = lexBuffer(Text, D);
    Errors = D.errorCount();
    return Toks;
  }
  std::vector<TokenKind> kinds(llvm::StringRef Src) {
    std::vector<TokenKind> K;
    for (const Token &T : lex(Src))
      K.push_back(T.Kind);
    return K;
  }
  size_t offset(const Token &T) const { return T.Text.begin() - Start; }

  llvm::SourceMgr SM;
  const char *Start = nullptr;
  std::string DiagText;
  unsigned Errors = 0;
};

using TK = TokenKind;

TEST_F(LexerTest, KeywordsAndNames) {
  EXPECT_EQ(kinds("integrand fn param const let return if then else and or "
                  "not in import"),
            (std::vector<TK>{TK::KwIntegrand, TK::KwFn, TK::KwParam,
                             TK::KwConst, TK::KwLet, TK::KwReturn, TK::KwIf,
                             TK::KwThen, TK::KwElse, TK::KwAnd, TK::KwOr,
                             TK::KwNot, TK::KwIn, TK::KwImport, TK::Eof}));
  // Keywords are whole words: a keyword prefix is a name.
  EXPECT_EQ(kinds("integrands _fn in2 sum"),
            (std::vector<TK>{TK::Identifier, TK::Identifier, TK::Identifier,
                             TK::Identifier, TK::Eof}));
  EXPECT_EQ(Errors, 0u);
}

TEST_F(LexerTest, Punctuation) {
  EXPECT_EQ(kinds("( ) [ ] { } , : ; = + - * / ^ < <= > >= == != .. ->"),
            (std::vector<TK>{
                TK::LParen,    TK::RParen,  TK::LBracket,     TK::RBracket,
                TK::LBrace,    TK::RBrace,  TK::Comma,        TK::Colon,
                TK::Semi,      TK::Equal,   TK::Plus,         TK::Minus,
                TK::Star,      TK::Slash,   TK::Caret,        TK::Less,
                TK::LessEqual, TK::Greater, TK::GreaterEqual, TK::EqualEqual,
                TK::NotEqual,  TK::DotDot,  TK::Arrow,        TK::Eof}));
}

TEST_F(LexerTest, ByteOffsetsAndText) {
  std::vector<Token> T = lex("x  <= 1.5e2 # comment\n  foo");
  ASSERT_EQ(T.size(), 5u);
  EXPECT_EQ(offset(T[0]), 0u);
  EXPECT_EQ(T[0].Text, "x");
  EXPECT_EQ(offset(T[1]), 3u);
  EXPECT_EQ(T[1].Text, "<=");
  EXPECT_EQ(offset(T[2]), 6u);
  EXPECT_EQ(T[2].Text, "1.5e2");
  EXPECT_EQ(offset(T[3]), 24u); // the comment and the newline are skipped
  EXPECT_EQ(T[3].Text, "foo");
  EXPECT_TRUE(T[4].is(TK::Eof));
  EXPECT_EQ(offset(T[4]), 27u);
}

TEST_F(LexerTest, RangeIsNumberDotDotNumber) {
  std::vector<Token> T = lex("0..8");
  ASSERT_EQ(T.size(), 4u);
  EXPECT_TRUE(T[0].is(TK::Number));
  EXPECT_EQ(T[0].Text, "0");
  EXPECT_TRUE(T[1].is(TK::DotDot));
  EXPECT_TRUE(T[2].is(TK::Number));
  EXPECT_EQ(T[2].Text, "8");
  // A decimal point followed by a range: `1.5..3` is 1.5 .. 3.
  std::vector<Token> U = lex("1.5..3");
  ASSERT_EQ(U.size(), 4u);
  EXPECT_EQ(U[0].Text, "1.5");
  EXPECT_TRUE(U[1].is(TK::DotDot));
}

TEST_F(LexerTest, NumberForms) {
  for (llvm::StringRef N : {"1", "0.5", ".5", "1e-3", "6.02e23", "2E+4"}) {
    std::vector<Token> T = lex(N);
    ASSERT_EQ(T.size(), 2u) << N.str();
    EXPECT_TRUE(T[0].is(TK::Number)) << N.str();
    EXPECT_EQ(T[0].Text, N);
  }
  EXPECT_EQ(Errors, 0u);
}

TEST_F(LexerTest, MalformedNumbers) {
  std::vector<Token> T = lex("1e+ 2x 1.2.3");
  ASSERT_EQ(T.size(), 4u);
  EXPECT_TRUE(T[0].is(TK::Error));
  EXPECT_EQ(T[0].Text, "1e+");
  EXPECT_TRUE(T[1].is(TK::Error));
  EXPECT_EQ(T[1].Text, "2x");
  EXPECT_TRUE(T[2].is(TK::Error));
  EXPECT_EQ(T[2].Text, "1.2.3");
  EXPECT_EQ(Errors, 3u);
  EXPECT_NE(DiagText.find("malformed number: expected digits after the "
                          "exponent"),
            std::string::npos);
  EXPECT_NE(DiagText.find("malformed number '2x'"), std::string::npos);
}

TEST_F(LexerTest, StringsAndErrors) {
  std::vector<Token> T = lex("\"std/genz\" @ ! \"open\nx");
  ASSERT_EQ(T.size(), 6u);
  EXPECT_TRUE(T[0].is(TK::String));
  EXPECT_EQ(T[0].Text, "\"std/genz\"");
  EXPECT_TRUE(T[1].is(TK::Error));
  EXPECT_TRUE(T[2].is(TK::Error));
  EXPECT_TRUE(T[3].is(TK::Error)); // unterminated: stops at the newline
  EXPECT_EQ(T[3].Text, "\"open");
  EXPECT_TRUE(T[4].is(TK::Identifier));
  EXPECT_EQ(Errors, 3u);
  EXPECT_NE(DiagText.find("t.vf:1:12: error: unexpected character '@'"),
            std::string::npos);
  EXPECT_NE(DiagText.find("unexpected character '!'; use 'not' for negation "
                          "or '!=' for inequality"),
            std::string::npos);
  EXPECT_NE(DiagText.find("t.vf:1:16: error: unterminated string"),
            std::string::npos);
}

TEST_F(LexerTest, NonAsciiIsOneErrorToken) {
  std::vector<Token> T = lex("x \xCF\x80 y"); // U+03C0, two bytes
  ASSERT_EQ(T.size(), 4u);
  EXPECT_TRUE(T[1].is(TK::Error));
  EXPECT_EQ(T[1].Text.size(), 2u);
  EXPECT_TRUE(T[2].is(TK::Identifier));
  EXPECT_EQ(Errors, 1u);
}

TEST_F(LexerTest, EmptyAndCommentOnly) {
  EXPECT_EQ(kinds(""), std::vector<TK>{TK::Eof});
  EXPECT_EQ(kinds("# only a comment"), std::vector<TK>{TK::Eof});
}

} // namespace
