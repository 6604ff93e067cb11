//===- bitcode/StridedIntegrand.h - An integrand reading strided x -*- C++ -*-===//
//
// The host's tile loop computes a batch's points axis by axis (eight
// samples per vector), so it holds x axis-major: coordinate d of sample b
// at x[d * B + b]. An integrand takes one sample's x contiguous; handing
// it that meant transposing every batch in registers and the vectorized
// integrand gathering it back. A strided copy of the integrand reads x[d]
// at x + d * B instead, so the batch's coordinates are plain vector loads
// for it (docs/sampling-engine.md).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_STRIDEDINTEGRAND_H
#define VF_COMPILER_BITCODE_STRIDEDINTEGRAND_H

namespace llvm {
class Function;
} // namespace llvm

namespace vf {

/// An internal copy of \p F (void(const double *x, const double *params,
/// double *out)) that reads x[d] at x + d * \p Stride, or null when x is
/// used in any way other than reading 8-byte values through address
/// arithmetic (passed to a call, stored, compared...): then the kernel
/// keeps the contiguous layout.
llvm::Function *stridedIntegrand(llvm::Function &F, unsigned Stride);

} // namespace vf

#endif // VF_COMPILER_BITCODE_STRIDEDINTEGRAND_H
