//===- frontend/Evaluator.h - Tree-walking reference evaluator --*- C++ -*-===//
//
// Evaluates checked expressions directly on the AST with the host libm. It
// is the independent oracle of the differential tests (JIT vs tree walk),
// evaluates domain bounds that depend on parameters, and lets Sema check
// `x[expr]` for every value of the reduction indices involved.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_FRONTEND_EVALUATOR_H
#define VF_COMPILER_FRONTEND_EVALUATOR_H

#include "frontend/AST.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace vf {

class Evaluator {
public:
  /// \p Params are the parameter values by slot.
  explicit Evaluator(llvm::ArrayRef<double> Params = {}) : Params(Params) {}

  /// The integrand's value(s) at \p X, a point of its domain (not the unit
  /// cube).
  std::vector<double> evalIntegrand(const IntegrandDecl &I,
                                    llvm::ArrayRef<double> X);

  /// Lower and upper bound of each dimension of \p I's domain.
  void evalDomain(const IntegrandDecl &I, std::vector<double> &Lo,
                  std::vector<double> &Hi);

  /// Evaluates \p E with reduction index \p R bound to a value; used by Sema
  /// for index checks.
  void bindIndex(const ReduceExpr *R, double V) { Indices[R] = V; }
  double eval(const Expr &E);

private:
  friend class EvalVisitor;
  llvm::ArrayRef<double> Params;
  llvm::ArrayRef<double> X;
  llvm::DenseMap<const LetStmt *, double> Lets;
  llvm::DenseMap<const ReduceExpr *, double> Indices;
  std::vector<std::vector<double>> Frames; // fn arguments
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_EVALUATOR_H
