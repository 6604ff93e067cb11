//===- codegen/GpuKernelABI.h - How a GPU target writes kernels -*- C++ -*-===//
//
// What codegen needs from a GPU target to write a kernel of its own (the
// batch kernel vf_eval_NAME): the calling thread's place in the grid and
// what makes a function one of the module's kernels. The backends' GPU
// code generators (backends/GpuCodeGen.h) implement it, so that codegen
// names no target's intrinsics and a new GPU target changes no codegen.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CODEGEN_GPUKERNELABI_H
#define VF_COMPILER_CODEGEN_GPUKERNELABI_H

namespace llvm {
class Function;
class IRBuilderBase;
class Value;
} // namespace llvm

namespace vf {

/// A grid-stride loop's bounds for the calling thread, as i64 values.
struct GridStride {
  llvm::Value *Begin; ///< this thread's first point
  llvm::Value *Step;  ///< the number of threads in the grid
};

class GpuKernelABI {
public:
  virtual ~GpuKernelABI() = default;
  /// Emits at \p B the calling thread's first point and the grid's stride.
  virtual GridStride gridStride(llvm::IRBuilderBase &B) const = 0;
  /// Makes the complete function \p F a kernel that the driver can launch.
  virtual void markKernel(llvm::Function &F) const = 0;
};

} // namespace vf

#endif // VF_COMPILER_CODEGEN_GPUKERNELABI_H
