//===- codegen/PdfCallMerge.cpp - One lookup for a point's flavours -------===//
//
// The slot of a PDG id is runtime/pdf/GridView.h's vf_pdf_pid_slot, which
// the kernel's buffer is indexed by; a call whose id has no slot is left
// alone (it gives 0 either way).
//
//===----------------------------------------------------------------------===//
#include "codegen/PdfCallMerge.h"

#include "llvm/ADT/MapVector.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/Module.h"

#include <cstdint>
#include <tuple>

using namespace llvm;

namespace vf {

namespace {

constexpr const char *XfxSymbol = "vf_pdf_table_xfx";
constexpr const char *XfxAllSymbol = "vf_pdf_table_xfx_all";
constexpr unsigned NumSlots = 15; // VF_PDF_NUM_SLOTS

/// runtime/pdf/GridView.h's vf_pdf_pid_slot.
int pidSlot(int64_t Pid) {
  if (Pid >= -6 && Pid <= 6 && Pid != 0)
    return int(Pid + 6);
  if (Pid == 21 || Pid == 0)
    return 13;
  return Pid == 22 ? 14 : -1;
}

/// An operand as the calls compare it: the value itself, or for an
/// element of a read-only, unaliased argument (the integrand's x[i], each
/// use its own load) the argument and the element's byte offset, which no
/// store in the function can change; through the casts between float and
/// double that single precision puts before each call (each its own
/// instruction), whose opcodes are the third part.
using Operand = std::tuple<Value *, int64_t, unsigned>;
constexpr int64_t Itself = INT64_MIN;

Operand operandOf(Value *V, const DataLayout &DL) {
  unsigned Casts = 0;
  while (isa<FPExtInst, FPTruncInst>(V)) {
    Casts = Casts * 4 + (isa<FPExtInst>(V) ? 1 : 2);
    V = cast<Instruction>(V)->getOperand(0);
  }
  auto *Load = dyn_cast<LoadInst>(V);
  if (!Load || !Load->isSimple())
    return {V, Itself, Casts};
  APInt Offset(DL.getIndexTypeSizeInBits(Load->getPointerOperandType()), 0);
  auto *Arg = dyn_cast<Argument>(
      Load->getPointerOperand()->stripAndAccumulateConstantOffsets(
          DL, Offset, /*AllowNonInbounds=*/false));
  if (!Arg || !Arg->hasNoAliasAttr() || !Arg->onlyReadsMemory())
    return {V, Itself, Casts};
  return {Arg, Offset.getSExtValue(), Casts};
}

/// The global a call's table is loaded from, and its operands that must
/// agree: member, x and Q.
using CallKey = std::tuple<Value *, Operand, Operand, Operand>;

/// \p C's key and slot, or no key for a call that cannot merge.
std::optional<std::pair<CallKey, int>> keyOf(CallInst &C,
                                             const DataLayout &DL) {
  auto *Load = dyn_cast<LoadInst>(C.getArgOperand(0));
  auto *Pid = dyn_cast<ConstantInt>(C.getArgOperand(2));
  if (!Load || !isa<GlobalVariable>(Load->getPointerOperand()) || !Pid)
    return std::nullopt;
  const int Slot = pidSlot(Pid->getSExtValue());
  if (Slot < 0)
    return std::nullopt;
  return std::pair(CallKey(Load->getPointerOperand(),
                           operandOf(C.getArgOperand(1), DL),
                           operandOf(C.getArgOperand(3), DL),
                           operandOf(C.getArgOperand(4), DL)),
                   Slot);
}

using Group = SmallVector<std::pair<CallInst *, int>, 16>;

/// One _all call before \p G's first call; each call becomes its slot's
/// load. The first call's operands serve all: they are the same values
/// (or loads of the same unchanging element) and defined before it.
void mergeGroup(Function &F, const Group &G) {
  LLVMContext &Ctx = F.getContext();
  Type *F64 = Type::getDoubleTy(Ctx), *Ptr = PointerType::getUnqual(Ctx);
  FunctionCallee All = F.getParent()->getOrInsertFunction(
      XfxAllSymbol,
      FunctionType::get(Type::getVoidTy(Ctx),
                        {Ptr, Type::getInt32Ty(Ctx), F64, F64, Ptr}, false));
  auto *BufTy = ArrayType::get(F64, NumSlots);
  const DataLayout &DL = F.getParent()->getDataLayout();
  IRBuilder<> Entry(&*F.getEntryBlock().getFirstInsertionPt());
  AllocaInst *Buf =
      Entry.CreateAlloca(BufTy, DL.getAllocaAddrSpace(), nullptr, "pdf.all");
  CallInst *First = G.front().first;
  IRBuilder<> B(First);
  B.CreateCall(All, {First->getArgOperand(0), First->getArgOperand(1),
                     First->getArgOperand(3), First->getArgOperand(4),
                     B.CreatePointerBitCastOrAddrSpaceCast(Buf, Ptr)});
  for (auto [Call, Slot] : G) {
    B.SetInsertPoint(Call);
    Value *At = B.CreateConstInBoundsGEP2_32(BufTy, Buf, 0, unsigned(Slot));
    Call->replaceAllUsesWith(B.CreateLoad(F64, At, "xfx"));
    Call->eraseFromParent();
  }
}

void mergeBlock(Function &F, BasicBlock &BB, Function *Xfx) {
  MapVector<CallKey, Group> Groups;
  for (Instruction &I : BB)
    if (auto *C = dyn_cast<CallInst>(&I); C && C->getCalledFunction() == Xfx)
      if (auto Key = keyOf(*C, F.getParent()->getDataLayout()))
        Groups[Key->first].push_back({C, Key->second});
  for (auto &[Key, G] : Groups)
    if (G.size() >= 2)
      mergeGroup(F, G);
}

} // namespace

void mergePdfCalls(Module &M) {
  Function *Xfx = M.getFunction(XfxSymbol);
  if (!Xfx)
    return;
  for (Function &F : M)
    if (!F.isDeclaration())
      for (BasicBlock &BB : F)
        mergeBlock(F, BB, Xfx);
}

} // namespace vf
