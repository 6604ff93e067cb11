//===- codegen/ExprCost.h - A rough cost of a checked expression -*- C++ -*-===//
//
// How expensive an expression is to evaluate, roughly: codegen speculates
// a cheap `if` branch into a select and keeps an expensive one a branch.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_EXPRCOST_H
#define VF_COMPILER_CODEGEN_EXPRCOST_H

namespace vf {

struct Expr;

/// A node is 1, a division 4, a math library call 20, a run-time power 30;
/// a reduction its trip count times its body. Used only to decide select
/// versus branch.
unsigned exprCost(const Expr &E);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_EXPRCOST_H
