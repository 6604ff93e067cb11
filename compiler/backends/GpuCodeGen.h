//===- backends/GpuCodeGen.h - What differs between GPU targets -*- C++ -*-===//
//
// The compiler's one view of a GPU target, as Halide's CodeGen_GPU_Dev:
// its target machine for an architecture, how its kernels are written
// (codegen's GpuKernelABI: thread indices, calling convention,
// annotations), the build of the embedded math library and sampler it
// links, the C/C++ front end's target, the text it emits and how that
// text is made a function of the source, and its part of the cache key.
// The pipeline (Compiler.cpp) asks only this, so a new GPU target (HIP on
// AMDGPU, say) is one class beside CudaCodeGen.cpp, listed below.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_GPUCODEGEN_H
#define VF_COMPILER_BACKENDS_GPUCODEGEN_H

#include "codegen/GpuKernelABI.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class TargetMachine;
} // namespace llvm

namespace vf {

enum class BitcodeTarget;
enum class ForeignTarget;

class GpuCodeGen : public GpuKernelABI {
public:
  /// The cache key's and the cache file's name of the target ("ptx"),
  /// also the start of every key of its code.
  virtual llvm::StringRef cacheName() const = 0;
  /// The name of its VF_DUMP_IR stages ("nvptx": nvptx-linked.ll).
  virtual llvm::StringRef dumpName() const = 0;
  /// An error naming the supported architectures unless \p Arch is one.
  virtual llvm::Error checkArch(llvm::StringRef Arch) const = 0;
  virtual llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
  createTargetMachine(llvm::StringRef Arch) const = 0;
  /// Which embedded build of the math library and sampler it links.
  virtual BitcodeTarget bitcodeTarget() const = 0;
  /// What the C/C++ front end compiles its files for.
  virtual ForeignTarget foreignTarget() const = 0;
  /// The emitted assembly made a function of the module alone.
  virtual std::string finishAssembly(std::string Text) const = 0;
};

/// The targets' factories, one per GPU target.
const GpuCodeGen &cudaCodeGen(); // CudaCodeGen.cpp: NVPTX, PTX text

/// The GPU target whose cache keys start with \p Key's first part, or null
/// (a host key).
const GpuCodeGen *gpuCodeGenForKey(llvm::StringRef Key);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_GPUCODEGEN_H
