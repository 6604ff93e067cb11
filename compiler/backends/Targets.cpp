//===- backends/Targets.cpp - Target machines for host and NVPTX ----------===//
//
// PTX ISA versions are the minimum each architecture needs (PTX ISA manual,
// "PTX ISA version" table), so the PTX loads on the oldest driver that
// knows the GPU.
//
//===----------------------------------------------------------------------===//

#include "backends/Targets.h"

#include "PtxTargets.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/Process.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"
#include "llvm/TargetParser/X86TargetParser.h"

#include <mutex>

using namespace llvm;

extern "C" void LLVMInitializeNVPTXTargetInfo();
extern "C" void LLVMInitializeNVPTXTarget();
extern "C" void LLVMInitializeNVPTXTargetMC();
extern "C" void LLVMInitializeNVPTXAsmPrinter();

namespace vf {

void initializeTargets() {
  static std::once_flag Once;
  std::call_once(Once, [] {
    InitializeNativeTarget();
    InitializeNativeTargetAsmPrinter();
    InitializeNativeTargetAsmParser();
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
  });
}

Expected<orc::JITTargetMachineBuilder> hostMachineBuilder() {
  initializeTargets();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  // VF_HOST_CPU=NAME compiles for an x86-64 CPU other than this one (its
  // own features only), e.g. x86-64-v3 for AVX2 without AVX-512 on a
  // machine that has both: how the tests check that every vector width
  // gives the same bits.
  if (std::optional<std::string> Cpu = sys::Process::GetEnv("VF_HOST_CPU");
      Cpu && !Cpu->empty()) {
    if (!sys::getProcessTriple().starts_with("x86_64"))
      return createStringError(inconvertibleErrorCode(),
                               "VF_HOST_CPU is for x86-64 hosts only");
    if (X86::parseArchX86(*Cpu, /*Only64Bit=*/true) == X86::CK_None)
      return createStringError(inconvertibleErrorCode(),
                               "VF_HOST_CPU: unknown x86-64 CPU '%s' (e.g. "
                               "x86-64, x86-64-v3, x86-64-v4, znver4)",
                               Cpu->c_str());
    JTMB->setCPU(*Cpu);
    JTMB->setFeatures("");
  }
  JTMB->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  return JTMB;
}

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine() {
  auto JTMB = hostMachineBuilder();
  if (!JTMB)
    return JTMB.takeError();
  return JTMB->createTargetMachine();
}

std::string hostTargetDescription() {
  std::string S = sys::getProcessTriple();
  auto JTMB = hostMachineBuilder();
  if (JTMB)
    S += ";" + JTMB->getCPU() + ";" + JTMB->getFeatures().getString();
  else
    consumeError(JTMB.takeError());
  return S;
}

Expected<std::string> ptxFeatureFor(StringRef SmArch) {
  // The table lives with the runtime's driver check (kernels/PtxTargets.h).
  std::string Names;
#define VF_PTX_TARGET(Sm, Isa)                                                 \
  if (SmArch == Sm)                                                            \
    return "+ptx" + std::to_string(Isa);                                       \
  Names += Names.empty() ? Sm : ", " Sm;
  VF_PTX_TARGETS(VF_PTX_TARGET)
#undef VF_PTX_TARGET
  return createStringError(inconvertibleErrorCode(),
                           "unknown GPU architecture '" + SmArch +
                               "'; supported: " + Names);
}

Expected<std::unique_ptr<TargetMachine>>
createNVPTXTargetMachine(StringRef SmArch) {
  initializeTargets();
  Expected<std::string> Feature = ptxFeatureFor(SmArch);
  if (!Feature)
    return Feature.takeError();
  Triple T("nvptx64-nvidia-cuda");
  std::string Err;
  const Target *Tgt = TargetRegistry::lookupTarget(T.str(), Err);
  if (!Tgt)
    return createStringError(inconvertibleErrorCode(),
                             "NVPTX backend unavailable: " + Err);
  TargetOptions Opts;
  std::unique_ptr<TargetMachine> TM(Tgt->createTargetMachine(
      T.str(), SmArch, *Feature, Opts, std::nullopt, std::nullopt,
      CodeGenOptLevel::Aggressive));
  if (!TM)
    return createStringError(inconvertibleErrorCode(),
                             "cannot create an NVPTX target for " + SmArch);
  return std::move(TM);
}

} // namespace vf
