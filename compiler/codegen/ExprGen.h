//===- codegen/ExprGen.h - Lower checked expressions to LLVM IR -*- C++ -*-===//
//
// Emits the body of one integrand (or the inlined body of a user fn) into an
// IRBuilder. What LANGUAGE.md promises the generated code does:
//   - built-ins call the project's math library (`vf_exp`, ...), never
//     `llvm.exp` and friends, which NVPTX cannot lower;
//   - `^` with a constant exponent is strength-reduced (x^2 -> x*x,
//     x^-1 -> 1/x, x^0.5 -> sqrt(x));
//   - `if` is a select when both branches are cheap, a branch otherwise;
//   - reductions with few iterations are unrolled, longer ones are loops;
//   - min/max propagate NaN, like the reference evaluator.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_EXPRGEN_H
#define VF_COMPILER_CODEGEN_EXPRGEN_H

#include "codegen/WeightsGen.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"

#include <optional>
#include <utility>
#include <vector>

namespace llvm {
class Value;
class Module;
class IRBuilderBase;
} // namespace llvm

namespace vf {

struct Expr;
struct IntegrandDecl;

/// Single precision's codegen (emitIntegrandBody): the constants a float
/// cannot hold, finite doubles that round to 0 or to infinity, with the
/// expressions that gave them, for the caller's error.
struct SingleCodegen {
  std::vector<std::pair<const Expr *, double>> Lossy;
};

/// Reductions with at most this many iterations are unrolled.
constexpr long long UnrollLimit = 16;

/// One channel's term of a multi-channel integrand, whose `alpha(NAME)`
/// loads params[AlphaSlot + NAME's index] (the weights follow the user's
/// parameters in the block the kernels read).
struct ChannelTerm {
  unsigned Index;
  unsigned AlphaSlot;
};

/// Emits \p I's outputs at the builder's insertion point. \p X points to the
/// coordinates (double*), \p Params to the parameter block (double*). The
/// builder's block may change (loops, branches); the results are valid at
/// the final insertion point. \p HoistParamCalls: math calls on parameters
/// alone call wrappers for LICM to hoist (InvariantCalls.h; the host's).
/// Of a multi-channel integrand: \p Channel's term, its histograms' cells
/// in I.Histograms' order; without \p Channel, the sum of the channels at
/// alpha = 1/m, as the reference evaluator computes it, and the first
/// channel's cells. With \p Weights, the entries of I's weight lists go
/// there, each times the maps' Jacobian as the values are.
/// With \p Single the arithmetic is single precision (docs/algorithm.md,
/// "Precision"): the coordinates and parameters are rounded to float as
/// they are loaded, literals and constants once, the built-ins call the
/// library's float versions (`vf_expf`, ...), and the values (histogram
/// cells excepted: whole numbers in double) are floats.
llvm::SmallVector<llvm::Value *, 4> emitIntegrandBody(
    llvm::IRBuilderBase &B, llvm::Module &M, const IntegrandDecl &I,
    llvm::Value *X, llvm::Value *Params, bool HoistParamCalls,
    std::optional<ChannelTerm> Channel = std::nullopt,
    WeightSink Weights = nullptr, SingleCodegen *Single = nullptr);

/// Emits \p I's bounds for the parameters at \p Params (the layout of
/// vf_bounds_NAME, IRGen.h). Sema made them constants and parameters.
llvm::SmallVector<llvm::Value *, 4>
emitBoundValues(llvm::IRBuilderBase &B, llvm::Module &M,
                const IntegrandDecl &I, llvm::Value *Params);

} // namespace vf

#endif // VF_COMPILER_CODEGEN_EXPRGEN_H
