//===- tests/unit/codegen/HostJit.h - A JIT for hand-built modules -*- C++
//-*-===//
//
// For tests that build an IR module by hand, link the project's bitcode
// into it, optimise it as the compiler does and run it: this CPU's target
// machine at the code-generation level the compiler uses, an LLJIT on it,
// and an empty module for that target.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_CODEGEN_HOSTJIT_H
#define VF_TESTS_UNIT_CODEGEN_HOSTJIT_H

#include "llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/TargetSelect.h"
#include "llvm/Target/TargetMachine.h"

#include <memory>
#include <string>

namespace vf::test {

struct HostJit {
  std::unique_ptr<llvm::TargetMachine> TM;
  std::unique_ptr<llvm::orc::LLJIT> JIT;

  /// An empty module for TM's target, in \p Ctx.
  std::unique_ptr<llvm::Module> newModule(const std::string &Name,
                                          llvm::LLVMContext &Ctx) const {
    auto M = std::make_unique<llvm::Module>(Name, Ctx);
    M->setTargetTriple(TM->getTargetTriple().str());
    M->setDataLayout(TM->createDataLayout());
    return M;
  }
};

inline llvm::Expected<HostJit> createHostJit() {
  llvm::InitializeNativeTarget();
  llvm::InitializeNativeTargetAsmPrinter();
  auto JTMB = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!JTMB)
    return JTMB.takeError();
  JTMB->setCodeGenOptLevel(llvm::CodeGenOptLevel::Aggressive);
  auto TM = JTMB->createTargetMachine();
  if (!TM)
    return TM.takeError();
  auto JIT =
      llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(*JTMB).create();
  if (!JIT)
    return JIT.takeError();
  return HostJit{std::move(*TM), std::move(*JIT)};
}

} // namespace vf::test

#endif // VF_TESTS_UNIT_CODEGEN_HOSTJIT_H
