//===- backends/Targets.cpp - Target machines for host and NVPTX ----------===//
//
// PTX ISA versions are the minimum each architecture needs (PTX ISA manual,
// "PTX ISA version" table), so the PTX loads on the oldest driver that
// knows the GPU.
//
//===----------------------------------------------------------------------===//

#include "backends/Targets.h"

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/MC/TargetRegistry.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"
#include "llvm/Target/TargetOptions.h"
#include "llvm/TargetParser/Host.h"
#include "llvm/TargetParser/Triple.h"

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

Expected<std::unique_ptr<TargetMachine>> createHostTargetMachine() {
  initializeTargets();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(CodeGenOptLevel::Aggressive);
  return JTMB->createTargetMachine();
}

std::string hostTargetDescription() {
  initializeTargets();
  std::string S = sys::getProcessTriple() + ";" + sys::getHostCPUName().str();
  auto JTMB = orc::JITTargetMachineBuilder::detectHost();
  if (JTMB)
    S += ";" + JTMB->getFeatures().getString();
  else
    consumeError(JTMB.takeError());
  return S;
}

namespace {
struct SmPtx {
  const char *Sm;
  const char *Ptx;
};
// Minimum PTX ISA per architecture; sm_90 defaults to PTX 7.8.
const SmPtx SupportedArchs[] = {
    {"sm_50", "+ptx60"}, {"sm_52", "+ptx60"}, {"sm_53", "+ptx60"},
    {"sm_60", "+ptx60"}, {"sm_61", "+ptx60"}, {"sm_62", "+ptx60"},
    {"sm_70", "+ptx60"}, {"sm_72", "+ptx61"}, {"sm_75", "+ptx63"},
    {"sm_80", "+ptx70"}, {"sm_86", "+ptx71"}, {"sm_87", "+ptx74"},
    {"sm_89", "+ptx78"}, {"sm_90", "+ptx78"}, {"sm_90a", "+ptx80"},
};
} // namespace

Expected<std::string> ptxFeatureFor(StringRef SmArch) {
  std::string Names;
  for (const SmPtx &A : SupportedArchs) {
    if (SmArch == A.Sm)
      return std::string(A.Ptx);
    Names += Names.empty() ? "" : ", ";
    Names += A.Sm;
  }
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
