//===- backends/LazyBatch.h - Batch entry points on first use -*- C++ -*-===//
//
// Integrating needs only the fused sampler, so vf::Module compiles a
// program without its batch entry points (CompileOptions::Evaluate off,
// a sixth of a cold host compile). The integrands' Evaluate functions
// share one LazyBatch per program: the first call compiles the host module
// --eval compiles (through the same cache) for all the program's
// integrands at once, and its code stays for the process, as all JIT'd
// code does.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_LAZYBATCH_H
#define VF_COMPILER_BACKENDS_LAZYBATCH_H

#include "backends/Compiler.h"
#include "vf/Expected.h"

#include <memory>
#include <mutex>
#include <string>

namespace vf {

class LazyBatch {
public:
  /// \p C must outlive this; \p O are the options \p P was compiled with.
  LazyBatch(Compiler &C, std::shared_ptr<const Program> P, CompileOptions O);

  /// Compiles the batch entry points if that was not tried yet; the error
  /// says why they cannot be (the same on every later call).
  Status prepare();
  /// Integrand \p Name's batch entry point, compiling first; null where
  /// prepare() fails or the program has no such integrand.
  BatchEntry entry(const std::string &Name);

private:
  void compile();

  Compiler &C;
  std::shared_ptr<const Program> P;
  CompileOptions Options;
  std::once_flag Once;
  std::string Failure;
  std::unique_ptr<CompiledModule> Code;
};

} // namespace vf

#endif // VF_COMPILER_BACKENDS_LAZYBATCH_H
