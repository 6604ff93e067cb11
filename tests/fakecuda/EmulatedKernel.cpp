//===- tests/fakecuda/EmulatedKernel.cpp - The GPU kernel for the host ----===//
//
// The same cloning as the real kernels (cloneKernel), from the sampler_emu
// bitcode. Every entry point takes cuLaunchKernel's parameter array, so the
// fake driver calls them without knowing the kernels' signatures.
//
//===----------------------------------------------------------------------===//

#include "EmulatedKernel.h"

#include "GpuEmulation.h"
#include "backends/CompileCache.h"
#include "bitcode/MathLibrary.h"
#include "bitcode/SamplerKernel.h"

#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

extern "C" const unsigned char vf_bc_sampler_emu_x86_64[];
extern "C" const unsigned long vf_bc_sampler_emu_x86_64_len;
extern "C" const unsigned char vf_bc_sampler_emu_f32_x86_64[];
extern "C" const unsigned long vf_bc_sampler_emu_f32_x86_64_len;

using namespace llvm;

namespace vf::fakecuda {

namespace {

ArrayRef<unsigned char> emulatedSamplerBitcode(bool Single) {
  return Single
             ? ArrayRef(vf_bc_sampler_emu_f32_x86_64,
                        vf_bc_sampler_emu_f32_x86_64_len)
             : ArrayRef(vf_bc_sampler_emu_x86_64, vf_bc_sampler_emu_x86_64_len);
}

/// Links the emulated kernels into host module \p M and creates an entry
/// point per instance of the host sampler, keeping the module's fold and
/// bind entry points external.
Error instantiate(Module &M, ArrayRef<SamplerInstance> HostInstances,
                  ArrayRef<std::string> Names) {
  if (HostInstances.empty())
    return Error::success();
  std::vector<SamplerInstance> Instances(HostInstances.begin(),
                                         HostInstances.end());
  for (std::size_t K = 0; K < Instances.size(); ++K)
    Instances[K].EntryName = emulatedSampleSymbol(Names[K]);
  LLVMContext &Ctx = M.getContext();
  FunctionType *Entry = FunctionType::get(Type::getVoidTy(Ctx),
                                          {PointerType::getUnqual(Ctx)}, false);
  // Referenced so that LinkOnlyNeeded brings them in.
  for (const char *Name :
       {VF_GPU_EMU_SAMPLER, VF_GPU_EMU_FOLD, VF_GPU_EMU_BIND})
    M.getOrInsertFunction(Name, Entry);
  const bool Single = Instances.front().Single;
  if (Error E = linkEmbeddedBitcode(M, emulatedSamplerBitcode(Single),
                                    Single ? "sampler_emu_f32-x86_64.bc"
                                           : "sampler_emu-x86_64.bc"))
    return E;
  // cuLaunchKernel's parameter array: its first element points to the
  // kernel's first parameter, the arguments' pointer.
  if (Error E = cloneKernel(M, VF_GPU_EMU_SAMPLER, Instances, CallingConv::C,
                            ArgsPointer{0, 2}))
    return E;
  for (const char *Name : {VF_GPU_EMU_FOLD, VF_GPU_EMU_BIND})
    if (Function *F = M.getFunction(Name))
      F->setLinkage(GlobalValue::ExternalLinkage);
  return Error::success();
}

std::vector<std::string> symbols(ArrayRef<std::string> Integrands) {
  std::vector<std::string> Names;
  for (const std::string &Name : Integrands)
    Names.push_back(emulatedSampleSymbol(Name));
  if (!Names.empty()) {
    Names.push_back(VF_GPU_EMU_FOLD);
    Names.push_back(VF_GPU_EMU_BIND);
  }
  return Names;
}

} // namespace

std::string emulatedSampleSymbol(StringRef Name) {
  return (VF_GPU_EMU_SAMPLER "_" + Name).str();
}

const HostExtension &emulatedKernelExtension() {
  static const HostExtension Ext = [] {
    CompileCacheKey K;
    for (bool Single : {false, true}) {
      ArrayRef<unsigned char> BC = emulatedSamplerBitcode(Single);
      K.add(StringRef(reinterpret_cast<const char *>(BC.data()), BC.size()));
    }
    return HostExtension{"gpuemu:" + K.finish(), instantiate, symbols};
  }();
  return Ext;
}

} // namespace vf::fakecuda
