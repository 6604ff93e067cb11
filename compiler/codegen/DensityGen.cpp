//===- codegen/DensityGen.cpp - density(NAME, u) in IR --------------------===//
//
// One helper per module finds an axis's increment and returns its Jacobian
// N w; each call of density() multiplies the axes' Jacobians in axis order
// and divides once. The helper bisects without branching on the edges:
// its steps depend on N alone, so all the lanes of a GPU warp take them
// together. (Unrolled to the most steps any map needs, the search let the
// loop vectorizer widen the whole integrand across samples, but its
// gathers cost as much as the scalar integrand: 2.3 s against 2.1 s for
// the anti-diagonal VAMP weight, docs/language.md.) Every index it forms
// stays within the axis's N + 1 edges whatever u is (NaN included), so the
// kernels' fast copy of the integrand, which may see stand-in values
// (bitcode/FastIntegrand.h), runs it safely.
//
//===----------------------------------------------------------------------===//

#include "codegen/DensityGen.h"

#include "llvm/IR/Module.h"

using namespace llvm;

namespace vf {

namespace {

constexpr const char *AxisJacobianName = "vf.density_axis_jacobian";

/// double(const double *e, i64 ninc, double xu): N (e_{i+1} - e_i) for the
/// increment vf_map_invert_axis picks for xu, the last i < N with
/// !(xu < e_i) (0 if none).
Function *axisJacobian(Module &M) {
  if (Function *F = M.getFunction(AxisJacobianName))
    return F;
  LLVMContext &Ctx = M.getContext();
  Type *F64 = Type::getDoubleTy(Ctx), *I64 = Type::getInt64Ty(Ctx);
  auto *FT =
      FunctionType::get(F64, {PointerType::getUnqual(Ctx), I64, F64}, false);
  Function *F =
      Function::Create(FT, GlobalValue::InternalLinkage, AxisJacobianName, M);
  F->addFnAttr(Attribute::NoUnwind);
  F->addFnAttr(Attribute::WillReturn);
  F->setOnlyAccessesArgMemory();
  F->setOnlyReadsMemory();
  Value *E = F->getArg(0), *N = F->getArg(1), *Xu = F->getArg(2);
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", F);
  BasicBlock *Step = BasicBlock::Create(Ctx, "bisect", F);
  BasicBlock *Done = BasicBlock::Create(Ctx, "bisect.end", F);
  IRBuilder<> B(Entry);
  auto edge = [&](Value *I) {
    return B.CreateLoad(F64, B.CreateInBoundsGEP(F64, E, I), "edge");
  };
  Value *One = B.getInt64(1);
  Value *Edges = B.CreateAdd(N, One);
  B.CreateCondBr(B.CreateICmpUGT(Edges, One), Step, Done);

  // The last of the N + 1 edges with !(xu < e_k): halve the candidates
  // [base, base + count), keeping the upper half where its first edge is
  // taken, until one is left.
  B.SetInsertPoint(Step);
  PHINode *Base = B.CreatePHI(I64, 2, "base");
  PHINode *Count = B.CreatePHI(I64, 2, "count");
  Base->addIncoming(B.getInt64(0), Entry);
  Count->addIncoming(Edges, Entry);
  Value *Half = B.CreateLShr(Count, One, "half");
  Value *Mid = B.CreateAdd(Base, Half);
  Value *Taken = B.CreateFCmpUGE(Xu, edge(Mid));
  Value *NextBase = B.CreateSelect(Taken, Mid, Base);
  Value *NextCount = B.CreateSub(Count, Half);
  Base->addIncoming(NextBase, Step);
  Count->addIncoming(NextCount, Step);
  B.CreateCondBr(B.CreateICmpUGT(NextCount, One), Step, Done);

  B.SetInsertPoint(Done);
  PHINode *Found = B.CreatePHI(I64, 2, "found");
  Found->addIncoming(B.getInt64(0), Entry);
  Found->addIncoming(NextBase, Step);
  Value *I = B.CreateSelect(B.CreateICmpULT(Found, N), Found,
                            B.CreateSub(N, One), "inc");
  Value *Width = B.CreateFSub(edge(B.CreateAdd(I, One)), edge(I), "width");
  B.CreateRet(B.CreateFMul(B.CreateUIToFP(N, F64), Width));
  return F;
}

} // namespace

Value *emitChannelDensity(IRBuilderBase &B, Module &M, Value *Params,
                          unsigned Slot, unsigned Channel,
                          ArrayRef<Value *> U) {
  Type *F64 = B.getDoubleTy();
  Value *N = B.CreateFPToUI(
      B.CreateLoad(F64, B.CreateConstInBoundsGEP1_64(F64, Params, Slot),
                   "ninc"),
      B.getInt64Ty());
  Value *Stride = B.CreateAdd(N, B.getInt64(1));
  Value *Maps = B.CreateConstInBoundsGEP1_64(F64, Params, Slot + 1);
  Value *Own = B.CreateInBoundsGEP(
      F64, Maps, B.CreateMul(B.getInt64(uint64_t(Channel) * U.size()), Stride));
  Function *Axis = axisJacobian(M);
  Value *Jac = nullptr;
  for (size_t D = 0; D < U.size(); ++D) {
    Value *Edges =
        B.CreateInBoundsGEP(F64, Own, B.CreateMul(B.getInt64(D), Stride));
    Value *J = B.CreateCall(Axis, {Edges, N, U[D]});
    Jac = Jac ? B.CreateFMul(Jac, J) : J;
  }
  return B.CreateFDiv(ConstantFP::get(F64, 1.0), Jac, "density");
}

} // namespace vf
