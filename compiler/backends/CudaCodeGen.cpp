//===- backends/CudaCodeGen.cpp - CUDA as a GPU target --------------------===//
//
// NVIDIA GPUs through NVPTX: PTX text for an sm_XX (Targets.cpp's target
// machine), kernels with the PTX_Kernel calling convention and an
// nvvm.annotations entry, thread indices from the PTX special registers,
// the nvptx64 builds of the math library and sampler.
//
//===----------------------------------------------------------------------===//

#include "backends/GpuCodeGen.h"
#include "backends/Targets.h"
#include "bitcode/MathLibrary.h"
#include "clang/ClangFrontend.h"

#include "llvm/IR/CallingConv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/IntrinsicsNVPTX.h"
#include "llvm/IR/Module.h"
#include "llvm/Target/TargetMachine.h"

#include <cctype>
#include <map>

using namespace llvm;

namespace vf {

namespace {

class CudaCodeGen final : public GpuCodeGen {
public:
  StringRef cacheName() const override { return "ptx"; }
  StringRef dumpName() const override { return "nvptx"; }

  Error checkArch(StringRef Arch) const override {
    Expected<std::string> Feature = ptxFeatureFor(Arch);
    return Feature ? Error::success() : Feature.takeError();
  }

  Expected<std::unique_ptr<TargetMachine>>
  createTargetMachine(StringRef Arch) const override {
    return createNVPTXTargetMachine(Arch);
  }

  BitcodeTarget bitcodeTarget() const override { return BitcodeTarget::NVPTX; }
  ForeignTarget foreignTarget() const override { return ForeignTarget::NVPTX; }

  GridStride gridStride(IRBuilderBase &B) const override {
    auto Sreg = [&](Intrinsic::ID ID) {
      return B.CreateZExt(B.CreateIntrinsic(ID, {}, {}), B.getInt64Ty());
    };
    Value *Tid = Sreg(Intrinsic::nvvm_read_ptx_sreg_tid_x);
    Value *Ctaid = Sreg(Intrinsic::nvvm_read_ptx_sreg_ctaid_x);
    Value *Ntid = Sreg(Intrinsic::nvvm_read_ptx_sreg_ntid_x);
    Value *Nctaid = Sreg(Intrinsic::nvvm_read_ptx_sreg_nctaid_x);
    return {B.CreateAdd(B.CreateMul(Ctaid, Ntid), Tid),
            B.CreateMul(Ntid, Nctaid)};
  }

  void markKernel(Function &F) const override {
    F.setCallingConv(CallingConv::PTX_Kernel);
    // Older drivers find kernels through nvvm.annotations.
    LLVMContext &Ctx = F.getContext();
    Metadata *MD[] = {
        ValueAsMetadata::get(&F), MDString::get(Ctx, "kernel"),
        ConstantAsMetadata::get(ConstantInt::get(Type::getInt32Ty(Ctx), 1))};
    F.getParent()
        ->getOrInsertNamedMetadata("nvvm.annotations")
        ->addOperand(MDNode::get(Ctx, MD));
  }

  // The NVPTX backend numbers call sequences ("{ // callseq 8, 0") from a
  // counter shared by the whole process, so the same module compiled twice
  // gives PTX that differs in these comments. Renumbering them from 0 in
  // order of appearance makes the text a function of the source alone, as
  // the compile cache and its tests expect.
  std::string finishAssembly(std::string PTX) const override {
    const std::string Tag = "// callseq ";
    std::map<std::string, std::string> Ordinal;
    for (size_t At = PTX.find(Tag); At != std::string::npos;
         At = PTX.find(Tag, At)) {
      At += Tag.size();
      size_t End = At;
      while (End < PTX.size() &&
             std::isdigit(static_cast<unsigned char>(PTX[End])))
        ++End;
      std::string Old = PTX.substr(At, End - At);
      auto It = Ordinal.try_emplace(Old, std::to_string(Ordinal.size())).first;
      PTX.replace(At, End - At, It->second);
      At += It->second.size();
    }
    return PTX;
  }
};

} // namespace

const GpuCodeGen &cudaCodeGen() {
  static const CudaCodeGen Cuda;
  return Cuda;
}

} // namespace vf
