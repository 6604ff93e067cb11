//===- api/ToolSupport.cpp - What a command-line tool asks of LLVM --------===//
//
// Thin wrappers over LLVM Support (vf/ToolSupport.h says why they are
// public).
//
//===----------------------------------------------------------------------===//

#include "vf/ToolSupport.h"

#include "llvm/ADT/StringRef.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Signals.h"
#include "llvm/TargetParser/Host.h"

namespace vf {

void installCrashHandler(const char *Argv0) {
  llvm::sys::PrintStackTraceOnErrorSignal(Argv0);
}

std::string hostCpuName() { return llvm::sys::getHostCPUName().str(); }

const char *llvmVersionString() { return LLVM_VERSION_STRING; }

} // namespace vf
