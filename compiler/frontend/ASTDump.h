//===- frontend/ASTDump.h - A stable, readable AST dump ---------*- C++ -*-===//
//
// `vegasc --emit=ast` prints one line per item with expressions as
// s-expressions: `(+ a (* b c))`. The format is stable (tests pin it) and
// shows the parse exactly, including precedence.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_ASTDUMP_H
#define VF_COMPILER_FRONTEND_ASTDUMP_H

#include <string>

namespace llvm {
class raw_ostream;
}

namespace vf {

struct Expr;
struct SourceModule;

void dumpModule(const SourceModule &M, llvm::raw_ostream &OS);
std::string dumpExpr(const Expr &E);
/// The shortest decimal that round-trips \p V ("0.1", "1e-30", "inf").
std::string formatNumber(double V);

} // namespace vf

#endif // VF_COMPILER_FRONTEND_ASTDUMP_H
