//===- bitcode/LLVMDiagnostics.h - LLVM's diagnostics as our errors -*- C++ -*-===//
//
// LLVM reports some failures (a link conflict, a backend that cannot select
// an instruction) through the LLVMContext's diagnostic handler, whose
// default prints and may exit. While an LLVMDiagnosticCapture lives, error
// diagnostics are collected instead and become an llvm::Error; the previous
// handler is put back when it goes. Used around every link and code
// generation step (bitcode linking, the backends).
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BITCODE_LLVMDIAGNOSTICS_H
#define VF_COMPILER_BITCODE_LLVMDIAGNOSTICS_H

#include "llvm/ADT/StringRef.h"
#include "llvm/IR/DiagnosticHandler.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
class LLVMContext;
} // namespace llvm

namespace vf {

class LLVMDiagnosticCapture {
public:
  explicit LLVMDiagnosticCapture(llvm::LLVMContext &Ctx);
  ~LLVMDiagnosticCapture();
  LLVMDiagnosticCapture(const LLVMDiagnosticCapture &) = delete;
  LLVMDiagnosticCapture &operator=(const LLVMDiagnosticCapture &) = delete;

  /// The errors reported so far, one per line ("" if none).
  const std::string &messages() const { return Messages; }
  /// The errors reported so far as one llvm::Error ("STAGE failed: ..."),
  /// success if none; forgets them.
  llvm::Error takeError(llvm::StringRef Stage);

private:
  llvm::LLVMContext &Ctx;
  std::unique_ptr<llvm::DiagnosticHandler> Saved;
  std::string Messages;
};

} // namespace vf

#endif // VF_COMPILER_BITCODE_LLVMDIAGNOSTICS_H
