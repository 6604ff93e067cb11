//===- frontend/Parser.h - .vf tokens to AST --------------------*- C++ -*-===//
//
// A recursive-descent parser with precedence climbing for binary operators
// (the precedence table is data, indexed by BinaryOp). Syntax errors are
// reported and the parser resynchronises at the next item keyword, so every
// independent error in a file is reported.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_PARSER_H
#define VF_COMPILER_FRONTEND_PARSER_H

#include "frontend/AST.h"
#include "frontend/Token.h"

#include "llvm/ADT/ArrayRef.h"

namespace vf {

class DiagEngine;

/// Parses \p Tokens (ending in Eof) into the items of \p Module. Items with
/// syntax errors are dropped after being reported.
void parseModule(llvm::ArrayRef<Token> Tokens, SourceModule &Module,
                 DiagEngine &Diags);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_PARSER_H
