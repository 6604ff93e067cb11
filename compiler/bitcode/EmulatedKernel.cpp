//===- bitcode/EmulatedKernel.cpp - The GPU kernel for the host -----------===//
//
// The same cloning as the real kernels (cloneKernel), from the sampler_emu
// bitcode. Every entry point takes cuLaunchKernel's parameter array, so the
// fake driver calls them without knowing the kernels' signatures.
//
//===----------------------------------------------------------------------===//

#include "bitcode/EmulatedKernel.h"

#include "GpuEmulation.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

extern "C" const unsigned char vf_bc_sampler_emu_x86_64[];
extern "C" const unsigned long vf_bc_sampler_emu_x86_64_len;

using namespace llvm;

namespace vf {

ArrayRef<unsigned char> emulatedSamplerBitcode() {
  return ArrayRef(vf_bc_sampler_emu_x86_64, vf_bc_sampler_emu_x86_64_len);
}

std::string emulatedSampleSymbol(StringRef Name) {
  return (VF_GPU_EMU_SAMPLER "_" + Name).str();
}

Error instantiateEmulatedSampler(Module &M,
                                 const std::vector<SamplerInstance> &Instances) {
  if (Instances.empty())
    return Error::success();
  LLVMContext &Ctx = M.getContext();
  FunctionType *Entry = FunctionType::get(
      Type::getVoidTy(Ctx), {PointerType::getUnqual(Ctx)}, false);
  // Referenced so that LinkOnlyNeeded brings them in.
  for (const char *Name : {VF_GPU_EMU_SAMPLER, VF_GPU_EMU_FOLD, VF_GPU_EMU_BIND})
    M.getOrInsertFunction(Name, Entry);
  if (Error E = linkEmbeddedBitcode(
          M, emulatedSamplerBitcode(), "sampler_emu-x86_64.bc"))
    return E;
  if (Error E = cloneKernel(M, VF_GPU_EMU_SAMPLER, Instances, CallingConv::C))
    return E;
  for (const char *Name : {VF_GPU_EMU_FOLD, VF_GPU_EMU_BIND})
    if (Function *F = M.getFunction(Name))
      F->setLinkage(GlobalValue::ExternalLinkage);
  return Error::success();
}

} // namespace vf
