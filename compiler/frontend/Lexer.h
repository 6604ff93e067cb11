//===- frontend/Lexer.h - Tokens from .vf source ----------------*- C++ -*-===//
//
// The lexer turns one source buffer into a token vector. Tokens keep
// pointers into the buffer (byte offsets through SourceMgr), so every later
// diagnostic can point at the exact bytes. Newlines are not tokens: in a
// `{ }` body every statement starts with `let` or `return`, so the parser
// finds statement ends without them (see docs/language.md).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_LEXER_H
#define VF_COMPILER_FRONTEND_LEXER_H

#include "frontend/Token.h"

#include <vector>

namespace vf {

class DiagEngine;

/// Lexes all of \p Buffer. Lexical errors are reported to \p Diags; the bad
/// bytes become an Error token so the parser can recover. The vector always
/// ends with an Eof token.
std::vector<Token> lexBuffer(llvm::StringRef Buffer, DiagEngine &Diags);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_LEXER_H
