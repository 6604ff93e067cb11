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

  /// The integrand's value(s) at \p X, a point of the box evalDomain gives:
  /// the user's coordinates on finite axes, t in (0, 1) on infinite ones,
  /// which are mapped and their Jacobian multiplied in (DomainMap.h), as
  /// the compiled integrand does.
  /// With \p Cells, also the cell of each of its histograms there (the
  /// layout of HistStmt), computed as the compiled code computes it.
  /// An integrand with channels is the sum of its channels, each at the
  /// same point, with every alpha 1/m and every density 1 (identity maps);
  /// its cells are those of the first channel's histograms.
  /// With \p Weights, also the entries of its weight lists, all lists in
  /// layout order (WeightsStmt::Base), each a value of the integrand and so
  /// times the Jacobian of an infinite axis's map as the value is.
  std::vector<double> evalIntegrand(const IntegrandDecl &I,
                                    llvm::ArrayRef<double> X,
                                    std::vector<double> *Cells = nullptr,
                                    std::vector<double> *Weights = nullptr);

  /// Lower and upper bound of each dimension of the box the runtime
  /// samples for \p I: [0, 1] on an infinite axis.
  void evalDomain(const IntegrandDecl &I, std::vector<double> &Lo,
                  std::vector<double> &Hi);

  /// Evaluates \p E with reduction index \p R bound to a value; used by Sema
  /// for index checks.
  void bindIndex(const ReduceExpr *R, double V) { Indices[R] = V; }
  double eval(const Expr &E);

private:
  friend class EvalVisitor;
  double histCell(const HistStmt &H);
  /// Appends the entries of \p W at the point being evaluated.
  void appendWeights(const WeightsStmt &W, std::vector<double> &Out);
  llvm::ArrayRef<double> Params;
  llvm::ArrayRef<double> X;
  /// Each let's value; a real is an array of one.
  llvm::DenseMap<const LetStmt *, std::vector<double>> Lets;
  llvm::DenseMap<const ReduceExpr *, double> Indices;
  /// fn arguments, each a real (one element) or an array.
  std::vector<std::vector<std::vector<double>>> Frames;
};

} // namespace vf

#endif // VF_COMPILER_FRONTEND_EVALUATOR_H
