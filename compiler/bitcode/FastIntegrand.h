//===- bitcode/FastIntegrand.h - The integrand on its fast paths -*- C++ -*-===//
//
// exp, log, sin, cos and tan branch to an out-of-line slow path for rare
// arguments (vf__exp_special, vf__sin_big, ...). On the GPU those branches
// cost registers across the whole kernel: lepage8's eight exp took its
// kernel from 128 to 167 registers, 16 to 12 warps per SM
// (docs/gpu-benchmarks.md, "GPU registers"); on the host, where every
// vector register is caller-saved, the calls kept the loop's live values
// on the stack. So both kernels evaluate a copy of the integrand in which
// every slow-path call only raises a flag, and evaluate the integrand
// itself, out of line, for a sample whose flag is raised. Where the flag
// stays down every math call took its fast path, which is its function's
// exact result there: the values are the integrand's, bit for bit.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_FASTINTEGRAND_H
#define VF_COMPILER_BITCODE_FASTINTEGRAND_H

namespace llvm {
class Function;
} // namespace llvm

namespace vf {

/// An internal copy of \p F (void(const double *x, const double *params,
/// double *out)) with a fourth parameter, an int *: every call F makes,
/// directly or through the functions it calls, to one of the math
/// library's slow paths stores 1 there instead (out is then meaningless).
/// The flag parameter has no use where F makes no such call, or where F's
/// code with its callees inlined exceeds \p MaxInstructions: the copy then
/// only calls F (an out-of-line second copy would double the compile time
/// of a large integrand). \p MaxInstructions 0 asks for that copy: for
/// C/C++ code, whose loops the stand-in values could steer.
llvm::Function *fastIntegrand(llvm::Function &F, unsigned MaxInstructions);

/// An out-of-line copy of \p F, for the samples whose flag is raised.
llvm::Function *outOfLineIntegrand(llvm::Function &F);

} // namespace vf

#endif // VF_COMPILER_BITCODE_FASTINTEGRAND_H
