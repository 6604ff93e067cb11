//===- bitcode/SamplerKernel.cpp - Instantiate the fused kernel -----------===//
//
// The generic kernel is linked once, cloned per integrand with a value map
// that sends the holes to the integrand's definitions, and then deleted.
//
//===----------------------------------------------------------------------===//

#include "bitcode/SamplerKernel.h"
#include "bitcode/FastIntegrand.h"
#include "bitcode/StridedIntegrand.h"

#include "IntegrandHooks.h"
#include "LaneVectors.h"
#include "SamplerABI.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/IR/CallingConv.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/InstIterator.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Metadata.h"
#include "llvm/IR/Module.h"
#include "llvm/Transforms/Utils/Cloning.h"
#include "llvm/Transforms/Utils/ValueMapper.h"

#include <cstddef>

extern "C" const unsigned char vf_bc_sampler_x86_64[];
extern "C" const unsigned long vf_bc_sampler_x86_64_len;
extern "C" const unsigned char vf_bc_sampler_nvptx64[];
extern "C" const unsigned long vf_bc_sampler_nvptx64_len;
extern "C" const unsigned char vf_bc_sampler_f32_x86_64[];
extern "C" const unsigned long vf_bc_sampler_f32_x86_64_len;
extern "C" const unsigned char vf_bc_sampler_f32_nvptx64[];
extern "C" const unsigned long vf_bc_sampler_f32_nvptx64_len;

using namespace llvm;

namespace vf {

namespace {

constexpr const char *HostKernel = "vf_sample_tile";
constexpr const char *GpuKernel = "vf_sample_tiles_gpu";
/// runtime/kernels/IntegrandPoints.c, instantiated next to the host kernel.
constexpr const char *PointsFunction = "vf_integrand_points";

/// An internal, always-inlined function returning the constant \p V.
Function *constantFunction(Module &M, StringRef Name, unsigned V) {
  LLVMContext &Ctx = M.getContext();
  auto *F = Function::Create(FunctionType::get(Type::getInt32Ty(Ctx), false),
                             GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  B.CreateRet(B.getInt32(V));
  return F;
}

/// An internal, always-inlined function of type \p T that does nothing.
Function *emptyFunction(Module &M, StringRef Name, FunctionType *T) {
  auto *F = Function::Create(T, GlobalValue::InternalLinkage, Name, M);
  F->addFnAttr(Attribute::AlwaysInline);
  IRBuilder<> B(BasicBlock::Create(M.getContext(), "entry", F));
  B.CreateRetVoid();
  return F;
}

/// The host kernel's gather (runtime/kernels/ChannelX8.h,
/// vf_gather_f64x8), which C cannot spell for generic x86-64.
constexpr const char *GatherFunction = "vf_gather_f64x8";

/// Defines the kernel's vf_gather_f64x8(base, index, out), if it calls
/// it, as out = the masked gather (all lanes on) of base[index[l]]: the
/// backend emits the host's gather instruction where it has one worth
/// using and scalar loads elsewhere.
void defineGather(Module &M) {
  Function *F = M.getFunction(GatherFunction);
  if (!F || !F->isDeclaration())
    return;
  LLVMContext &Ctx = M.getContext();
  auto *Lanes = FixedVectorType::get(Type::getDoubleTy(Ctx), VF_LANES);
  auto *Index = FixedVectorType::get(Type::getInt32Ty(Ctx), VF_LANES);
  F->setLinkage(GlobalValue::InternalLinkage);
  F->addFnAttr(Attribute::AlwaysInline);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", F));
  // Unsigned indices, as the 16-byte loads read e + i[l].
  Value *I = B.CreateZExt(B.CreateLoad(Index, F->getArg(1)),
                          FixedVectorType::get(B.getInt64Ty(), VF_LANES));
  Value *Ptrs = B.CreateGEP(B.getDoubleTy(), F->getArg(0), I);
  B.CreateStore(B.CreateMaskedGather(Lanes, Ptrs, Align(8)), F->getArg(2));
  B.CreateRetVoid();
}

/// Dimensions up to which the kernel's per-dimension loops are unrolled
/// completely (their `unroll(full)` pragma, SamplePoint.h): that lets the
/// loop over samples vectorize, but the code grows with the dimension and
/// the backend's schedulers take super-linear time in a block's size (a
/// 400-dimensional integrand took 6 s to compile, a 1000-dimensional one
/// 30 s). Past this, a few loop instructions per sample cost nothing next
/// to the integrand's hundreds of dimensions. The operations, and so the
/// results, are the same either way.
constexpr unsigned MaxUnrolledDim = 64;

/// The size (IR instructions, callees inlined) up to which the kernels get
/// an integrand on its fast paths and an exact copy out of line
/// (FastIntegrand.h): lepage8 is about 400, the 1000-line C++ matrix
/// element of the compile benchmark about 47,000, whose second copy would
/// double its compile.
constexpr unsigned MaxFastIntegrandSize = 8192;

/// The kernel's holes (runtime/kernels/IntegrandHooks.h).
enum class Hole : unsigned {
#define VF_HOLE_ENUM(E, Sym, Ret, Params) E,
  VF_FOR_EACH_INTEGRAND_HOOK(VF_HOLE_ENUM)
#undef VF_HOLE_ENUM
  Count
};

/// The linked kernel's declaration of each hole, null for one it does not
/// call.
class Holes {
public:
  explicit Holes(Module &M) {
    static constexpr const char *Names[] = {
#define VF_HOLE_NAME(E, Sym, Ret, Params) #Sym,
        VF_FOR_EACH_INTEGRAND_HOOK(VF_HOLE_NAME)
#undef VF_HOLE_NAME
    };
    for (unsigned I = 0; I != unsigned(Hole::Count); ++I)
      Fns[I] = M.getFunction(Names[I]);
  }
  Function *operator[](Hole H) const { return Fns[unsigned(H)]; }
  ArrayRef<Function *> all() const { return Fns; }

private:
  Function *Fns[unsigned(Hole::Count)];
};

/// Removes llvm.loop.unroll.full from every loop of \p F.
void dropFullUnroll(Function &F) {
  for (BasicBlock &BB : F) {
    Instruction *Term = BB.getTerminator();
    MDNode *Loop = Term ? Term->getMetadata(LLVMContext::MD_loop) : nullptr;
    if (!Loop)
      continue;
    SmallVector<Metadata *, 4> Kept{nullptr}; // the self-reference
    for (unsigned I = 1; I < Loop->getNumOperands(); ++I) {
      auto *Op = dyn_cast<MDNode>(Loop->getOperand(I));
      auto *Name = Op && Op->getNumOperands()
                       ? dyn_cast<MDString>(Op->getOperand(0))
                       : nullptr;
      if (!Name || Name->getString() != "llvm.loop.unroll.full")
        Kept.push_back(Loop->getOperand(I));
    }
    MDNode *New = MDNode::getDistinct(F.getContext(), Kept);
    New->replaceOperandWith(0, New);
    Term->setMetadata(LLVMContext::MD_loop, New);
  }
}

/// Sends \p H's constant holes to instance \p I's constants in \p VMap
/// (and \p PointsMap), the tile's x stride being \p XStride.
void fillConstants(Module &M, const Holes &H, const SamplerInstance &I,
                   unsigned XStride, ValueToValueMapTy &VMap,
                   ValueToValueMapTy *PointsMap) {
  auto fillConstant = [&](Hole Which, const char *Suffix, unsigned V) {
    if (Function *F = H[Which]) {
      VMap[F] = constantFunction(M, I.EntryName + Suffix, V);
      if (PointsMap)
        (*PointsMap)[F] = VMap[F];
    }
  };
  fillConstant(Hole::Dim, ".dim", I.Dim);
  fillConstant(Hole::Nout, ".nout", I.Outputs);
  fillConstant(Hole::Nhist, ".nhist", I.Histograms);
  fillConstant(Hole::Nweights, ".nweights", I.WeightEntries);
  fillConstant(Hole::WideVectors, ".wide", I.WideVectors);
  fillConstant(Hole::MapGathers, ".gathers", I.MapGathers);
  fillConstant(Hole::UnitBox, ".unitbox", I.UnitBox);
  fillConstant(Hole::Nparams, ".nparams", I.Params);
  fillConstant(Hole::XStride, ".xstride", XStride);
  fillConstant(Hole::Channel, ".channel", I.Channel);
}

/// The value map sending \p H's holes to instance \p I's code and
/// constants; with \p PointsMap, also the map of the integrand at given
/// points (IntegrandPoints.c), which shares the tile's exact integrand
/// where the tile has one.
Error fillHoles(Module &M, const Holes &H, const SamplerInstance &I,
                ValueToValueMapTy &VMap, ValueToValueMapTy *PointsMap) {
  // The host's kernel reads x strided where the compiler could make a
  // strided copy (vf_user_x_stride), else contiguous.
  Function *S = H[Hole::XStride] && I.Integrand
                    ? stridedIntegrand(*I.Integrand, VF_HOST_BATCH)
                    : nullptr;
  fillConstants(M, H, I, S ? VF_HOST_BATCH : 0, VMap, PointsMap);
  Function *FastHole = H[Hole::IntegrandFast];
  Function *ExactHole = H[Hole::IntegrandExact];
  if (!FastHole || !ExactHole || !I.Integrand)
    return Error::success();
  const unsigned Max = I.CallsForeignCode ? 0 : MaxFastIntegrandSize;
  // One fast copy: of the strided integrand where the kernel reads x
  // strided (its contiguous call is then dead code, and so the other way
  // round).
  Function *Fast = fastIntegrand(S ? *S : *I.Integrand, Max);
  if (Fast->getFunctionType() != FastHole->getFunctionType() ||
      I.Integrand->getFunctionType() != ExactHole->getFunctionType())
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the sampler's integrand "
                             "holes do not match integrand '%s'",
                             I.Integrand->getName().str().c_str());
  VMap[FastHole] = Fast;
  if (Function *StridedHole = H[Hole::IntegrandStridedFast])
    VMap[StridedHole] = Fast;
  // The tile's exact copy only where the fast one raises its flag
  // somewhere; otherwise its call is dead code, and an empty function
  // keeps the optimizer from inlining a second copy there before it knows.
  const bool TileExact = !Fast->getArg(3)->use_empty();
  Function *Exact =
      TileExact || PointsMap ? outOfLineIntegrand(*I.Integrand) : nullptr;
  VMap[ExactHole] = TileExact ? Exact
                              : emptyFunction(M, I.EntryName + ".noexact",
                                              I.Integrand->getFunctionType());
  if (PointsMap)
    (*PointsMap)[ExactHole] = Exact;
  return Error::success();
}

/// \p Kernel cloned as I.EntryName with \p I's holes filled, and (with
/// \p Points) I.PointsName beside it.
Expected<Function *> fillKernel(Module &M, const Holes &H, Function &Kernel,
                                Function *Points, const SamplerInstance &I) {
  ValueToValueMapTy VMap, PointsMap;
  const bool WantPoints = Points && !I.PointsName.empty();
  if (Error E = fillHoles(M, H, I, VMap, WantPoints ? &PointsMap : nullptr))
    return std::move(E);
  // (None where the kernel calls no exact integrand.)
  if (WantPoints && PointsMap.count(H[Hole::IntegrandExact])) {
    Function *Copy = CloneFunction(Points, PointsMap);
    Copy->setName(I.PointsName);
    Copy->setLinkage(GlobalValue::ExternalLinkage);
  }
  Function *Clone = CloneFunction(&Kernel, VMap);
  Clone->setName(I.EntryName);
  if (I.Dim > MaxUnrolledDim)
    dropFullUnroll(*Clone);
  return Clone;
}

/// I.PointsName of a multi-channel integrand: its channels' sum at given
/// points, which no tile computes.
void sumAtPoints(Module &M, const Holes &H, Function &Points,
                 const SamplerInstance &I) {
  ValueToValueMapTy PointsMap;
  fillConstants(M, H, I, 0, PointsMap, nullptr);
  if (Function *Exact = H[Hole::IntegrandExact])
    PointsMap[Exact] = outOfLineIntegrand(*I.Integrand);
  Function *Copy = CloneFunction(&Points, PointsMap);
  Copy->setName(I.PointsName);
  Copy->setLinkage(GlobalValue::ExternalLinkage);
}

/// \p I's entry point for a multi-channel integrand: \p Kernel cloned per
/// channel, and a function of the kernel's type that calls the clone of
/// the channel its arguments (found as \p Args says) name.
Expected<Function *> dispatchChannels(Module &M, const Holes &H,
                                      Function &Kernel, Function *Points,
                                      const SamplerInstance &I,
                                      ArgsPointer Args) {
  LLVMContext &Ctx = M.getContext();
  Function *Entry = Function::Create(Kernel.getFunctionType(),
                                     GlobalValue::ExternalLinkage, "", M);
  Entry->copyAttributesFrom(&Kernel);
  IRBuilder<> B(BasicBlock::Create(Ctx, "entry", Entry));
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", Entry);
  Value *A = Entry->getArg(Args.Param);
  for (unsigned K = 0; K < Args.Loads; ++K)
    A = B.CreateLoad(B.getPtrTy(), A);
  Value *Channel =
      B.CreateLoad(B.getInt32Ty(),
                   B.CreateConstInBoundsGEP1_64(
                       B.getInt8Ty(), A, offsetof(vf_sampler_args, channel)));
  SwitchInst *Switch =
      B.CreateSwitch(Channel, Done, unsigned(I.Channels.size()));
  SmallVector<Value *, 4> Params(llvm::make_pointer_range(Entry->args()));
  for (unsigned C = 0; C < I.Channels.size(); ++C) {
    SamplerInstance Term = I;
    Term.Integrand = I.Channels[C].Term;
    Term.EntryName = (I.EntryName + ".ch" + Twine(C)).str();
    Term.PointsName = I.Channels[C].PointsName;
    Term.Channels.clear();
    Term.Channel = C;
    Expected<Function *> Clone = fillKernel(M, H, Kernel, Points, Term);
    if (!Clone)
      return Clone.takeError();
    (*Clone)->setLinkage(GlobalValue::InternalLinkage);
    (*Clone)->setCallingConv(CallingConv::C);
    // Out of line, so that the tile's stack holds one channel's arrays,
    // not all of them side by side.
    (*Clone)->removeFnAttr(Attribute::AlwaysInline);
    (*Clone)->addFnAttr(Attribute::NoInline);
    BasicBlock *Case = BasicBlock::Create(Ctx, "channel", Entry, Done);
    Switch->addCase(B.getInt32(C), Case);
    IRBuilder<>(Case).CreateCall(*Clone, Params);
    BranchInst::Create(Done, Case);
  }
  IRBuilder<>(Done).CreateRetVoid();
  if (Points && !I.PointsName.empty())
    sumAtPoints(M, H, *Points, I);
  Entry->setName(I.EntryName);
  return Entry;
}

} // namespace

ArrayRef<unsigned char> samplerBitcode(BitcodeTarget T, bool Single) {
  if (Single)
    return T == BitcodeTarget::Host ? ArrayRef(vf_bc_sampler_f32_x86_64,
                                               vf_bc_sampler_f32_x86_64_len)
                                    : ArrayRef(vf_bc_sampler_f32_nvptx64,
                                               vf_bc_sampler_f32_nvptx64_len);
  return T == BitcodeTarget::Host
             ? ArrayRef(vf_bc_sampler_x86_64, vf_bc_sampler_x86_64_len)
             : ArrayRef(vf_bc_sampler_nvptx64, vf_bc_sampler_nvptx64_len);
}

Error instantiateSampler(Module &M, BitcodeTarget T,
                         const std::vector<SamplerInstance> &Instances) {
  if (Instances.empty())
    return Error::success();
  const char *Generic = T == BitcodeTarget::Host ? HostKernel : GpuKernel;
  // Reference the generic kernel so LinkOnlyNeeded brings it in.
  LLVMContext &Ctx = M.getContext();
  Type *Ptr = PointerType::getUnqual(Ctx);
  FunctionType *KT =
      T == BitcodeTarget::Host
          ? FunctionType::get(Type::getVoidTy(Ctx),
                              {Ptr, Type::getInt64Ty(Ctx), Ptr}, false)
          : FunctionType::get(Type::getVoidTy(Ctx),
                              {Ptr, Type::getInt64Ty(Ctx),
                               Type::getInt64Ty(Ctx), Ptr},
                              false);
  M.getOrInsertFunction(Generic, KT);
  if (T == BitcodeTarget::Host)
    M.getOrInsertFunction(
        PointsFunction,
        FunctionType::get(Type::getVoidTy(Ctx),
                          {Ptr, Type::getInt64Ty(Ctx), Ptr, Ptr}, false));
  // The GPU module also carries the kernel that folds training histograms.
  if (T == BitcodeTarget::NVPTX)
    M.getOrInsertFunction(
        VF_GPU_FOLD_KERNEL,
        FunctionType::get(Type::getVoidTy(Ctx),
                          {Ptr, Type::getInt64Ty(Ctx), Ptr,
                           Type::getInt64Ty(Ctx), Ptr},
                          false));
  const bool Single = Instances.front().Single;
  if (Error E = linkEmbeddedBitcode(
          M, samplerBitcode(T, Single),
          (Twine("sampler") + (Single ? "_f32" : "") +
           (T == BitcodeTarget::Host ? "-x86_64.bc" : "-nvptx64.bc"))
              .str()))
    return E;
  defineGather(M);
  if (Error E = cloneKernel(M, Generic, Instances,
                            T == BitcodeTarget::NVPTX
                                ? CallingConv::PTX_Kernel
                                : CallingConv::C))
    return E;
  if (Function *Fold = M.getFunction(VF_GPU_FOLD_KERNEL);
      Fold && T == BitcodeTarget::NVPTX) {
    Fold->setLinkage(GlobalValue::ExternalLinkage);
    Fold->setCallingConv(CallingConv::PTX_Kernel);
  }
  return Error::success();
}

Error cloneKernel(Module &M, StringRef Generic,
                  const std::vector<SamplerInstance> &Instances,
                  CallingConv::ID CC, ArgsPointer Args) {
  Function *Kernel = M.getFunction(Generic);
  const Holes H(M);
  if (!Kernel || Kernel->isDeclaration())
    return createStringError(inconvertibleErrorCode(),
                             "the embedded sampler lacks %s",
                             Generic.str().c_str());
  // Cloning maps the holes only inside the cloned body: inline the
  // kernel's own callees first so every use of a hole is in it.
  for (bool Changed = true; Changed;) {
    Changed = false;
    for (Instruction &Inst : instructions(*Kernel)) {
      auto *Call = dyn_cast<CallInst>(&Inst);
      Function *Callee = Call ? Call->getCalledFunction() : nullptr;
      if (!Callee || Callee->isDeclaration() || Callee == Kernel)
        continue;
      InlineFunctionInfo IFI;
      if (InlineFunction(*Call, IFI).isSuccess()) {
        Changed = true;
        break;
      }
    }
  }
  Function *Points = M.getFunction(PointsFunction);
  for (const SamplerInstance &I : Instances) {
    Expected<Function *> Entry =
        I.Channels.empty() ? fillKernel(M, H, *Kernel, Points, I)
                           : dispatchChannels(M, H, *Kernel, Points, I, Args);
    if (!Entry)
      return Entry.takeError();
    (*Entry)->setLinkage(GlobalValue::ExternalLinkage);
    (*Entry)->setCallingConv(CC);
  }
  Kernel->eraseFromParent();
  if (Points)
    Points->eraseFromParent();
  for (Function *F : H.all())
    if (F && F->use_empty())
      F->eraseFromParent();
  return Error::success();
}

} // namespace vf
