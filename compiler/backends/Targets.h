//===- backends/Targets.h - Target machines for host and NVPTX --*- C++ -*-===//
//
// One place creates LLVM TargetMachines: the host one from the running CPU
// (name and features, so the vectorizer uses AVX2/AVX-512 where present),
// and NVPTX ones for a validated `sm_XX` with the lowest PTX ISA version that
// supports it. Also turns LLVM's diagnostics into llvm::Error so a backend
// failure is a message, never a process abort.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_BACKENDS_TARGETS_H
#define VF_COMPILER_BACKENDS_TARGETS_H

#include "llvm/Support/Error.h"

#include <memory>
#include <string>

namespace llvm {
namespace orc {
class JITTargetMachineBuilder;
} // namespace orc
class LLVMContext;
class TargetMachine;
} // namespace llvm

namespace vf {

/// Registers the x86 and NVPTX targets once per process.
void initializeTargets();

/// The host machine (or the CPU VF_HOST_CPU names), aggressive code
/// generation.
llvm::Expected<llvm::orc::JITTargetMachineBuilder> hostMachineBuilder();
llvm::Expected<std::unique_ptr<llvm::TargetMachine>> createHostTargetMachine();
/// A short description of the host target for cache keys: triple, CPU and
/// feature string.
std::string hostTargetDescription();

/// Supported GPU architectures, e.g. "sm_90"; the default of --gpu-arch.
constexpr const char *DefaultGpuArch = "sm_90";
/// The PTX ISA feature for \p SmArch ("+ptx78" for sm_90), or an error that
/// names the supported architectures.
llvm::Expected<std::string> ptxFeatureFor(llvm::StringRef SmArch);
llvm::Expected<std::unique_ptr<llvm::TargetMachine>>
createNVPTXTargetMachine(llvm::StringRef SmArch);

} // namespace vf

#endif // VF_COMPILER_BACKENDS_TARGETS_H
