//===- codegen/ExprGen.cpp - Lower checked expressions to LLVM IR ---------===//
//
// A visitor over the checked AST. Names were resolved by Sema, so lowering a
// name is a lookup in one of the maps below; user fns are inlined by pushing
// a frame of argument values and lowering their body in place.
//
//===----------------------------------------------------------------------===//

#include "codegen/ExprGen.h"
#include "codegen/ComplexGen.h"
#include "codegen/DensityGen.h"
#include "codegen/ExprCost.h"
#include "codegen/ExternCallGen.h"
#include "codegen/HistCellGen.h"
#include "codegen/InfiniteMapGen.h"
#include "codegen/InvariantCalls.h"
#include "codegen/PdfGen.h"
#include "codegen/PowGen.h"
#include "codegen/ReduceGen.h"
#include "frontend/AST.h"
#include "frontend/Builtins.h"
#include "frontend/DomainMap.h"

#include "llvm/ADT/DenseMap.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Module.h"

#include <cmath>

using namespace llvm;

namespace vf {

namespace {

/// Cost above which an `if` branch is not speculated into a select.
constexpr unsigned SelectCostLimit = 40;

/// An array lowered to scalars (a real is one element).
using Vals = SmallVector<Value *, 4>;

class ExprGen : public ExprVisitor<ExprGen, Value *> {
public:
  ExprGen(IRBuilderBase &B, Module &M, Value *X, Value *Params,
          bool HoistParamCalls,
          std::optional<ChannelTerm> Channel = std::nullopt,
          SingleCodegen *Single = nullptr)
      : B(B), M(M), X(X), Params(Params), HoistParamCalls(HoistParamCalls),
        Channel(Channel), Single(Single),
        Real(Single ? B.getFloatTy() : B.getDoubleTy()), ProgramReal(Real),
        XTy(B.getDoubleTy()), I64(B.getInt64Ty()) {}

  Value *visitNumber(const NumberExpr &E) { return literal(E, E.Value); }

  Value *visitName(const NameExpr &E) {
    if (E.ConstValue)
      return constant(E);
    switch (E.Binding) {
    case BindingKind::Param:
      return loadParam(E.Param->Slot);
    case BindingKind::Const: // a complex one, not folded
      return visit(*E.Const->Value);
    case BindingKind::Let:
      return Lets.find(E.Let)->second.front();
    case BindingKind::ReduceIndex:
      return B.CreateSIToFP(indexValue(E.Reduce), Real);
    case BindingKind::FnArg:
      return Frames.back()[E.ArgIndex].front();
    case BindingKind::DomainVar:
      return loadX(B.getInt64(0));
    default:
      return fp(NAN);
    }
  }

  Value *visitIndex(const IndexExpr &E) {
    if (isDomainVar(*E.Base))
      return loadX(integerIndex(*E.Idx));
    return element(array(*E.Base), integerIndex(*E.Idx));
  }

  Value *visitSlice(const SliceExpr &E) { return array(E).front(); }
  /// Without a channel (the channels' sum, --eval): alpha = 1/m and identity
  /// maps, as the reference evaluator takes them.
  Value *visitChannel(const ChannelExpr &E) {
    if (E.Query == ChannelQuery::Alpha)
      return Channel ? loadParam(Channel->AlphaSlot + E.Index)
                     : fp(1.0 / E.Count);
    if (!Channel)
      return fp(1.0);
    // The maps follow the m weights.
    // The maps are double in either precision.
    return narrow(emitChannelDensity(B, M, Params, Channel->AlphaSlot + E.Count,
                                     E.Index, widen(values(*E.Point))));
  }

  Value *visitUnary(const UnaryExpr &E) {
    if (E.ConstValue)
      return constant(E);
    Value *V = visit(*E.Operand);
    return E.Op == UnaryOp::Neg ? B.CreateFNeg(V) : B.CreateNot(V);
  }

  Value *visitBinary(const BinaryExpr &E) {
    if (E.ConstValue)
      return constant(E);
    if (E.Op == BinaryOp::Pow && E.LHS->Ty == ExprType::Complex)
      return emitComplexPow(B, visit(*E.LHS),
                            static_cast<long long>(*E.RHS->ConstValue));
    if (E.LHS->Ty == ExprType::Complex || E.RHS->Ty == ExprType::Complex)
      return emitComplexBinary(B, E.Op, visit(*E.LHS), visit(*E.RHS));
    if (E.Op == BinaryOp::Pow && E.RHS->ConstValue)
      return emitPowConst(B, visit(*E.LHS), *E.RHS->ConstValue,
                          [&](StringRef Fn, ArrayRef<Value *> Args) {
                            return callMath(Fn, Args);
                          });
    Value *L = visit(*E.LHS), *R = visit(*E.RHS);
    switch (E.Op) {
    case BinaryOp::Add: return B.CreateFAdd(L, R);
    case BinaryOp::Sub: return B.CreateFSub(L, R);
    case BinaryOp::Mul: return B.CreateFMul(L, R);
    case BinaryOp::Div: return B.CreateFDiv(L, R);
    case BinaryOp::Pow: return callMath("vf_pow", {L, R});
    case BinaryOp::Lt: return B.CreateFCmpOLT(L, R);
    case BinaryOp::Le: return B.CreateFCmpOLE(L, R);
    case BinaryOp::Gt: return B.CreateFCmpOGT(L, R);
    case BinaryOp::Ge: return B.CreateFCmpOGE(L, R);
    case BinaryOp::Eq: return B.CreateFCmpOEQ(L, R);
    case BinaryOp::Ne: return B.CreateFCmpUNE(L, R);
    case BinaryOp::And: return B.CreateAnd(L, R);
    case BinaryOp::Or: return B.CreateOr(L, R);
    }
    return fp(NAN);
  }

  Value *visitCall(const CallExpr &E) {
    if (E.ConstValue)
      return constant(E);
    if (E.Fn)
      return inlineFn(E).front();
    SmallVector<Value *, 4> Args;
    for (const ExprPtr &A : E.Args)
      Args.push_back(visit(*A));
    if (E.Pdf && E.MemberCount)
      return emitCheckedPdfCall(B, M, E, Args, visit(*E.MemberArg));
    if (E.Pdf)
      return emitPdfCall(B, M, E, Args,
                         E.MemberArg ? B.CreateSub(integerIndex(*E.MemberArg),
                                                   B.getInt64(E.Member))
                                     : nullptr);
    if (isComplexBuiltin(*E.BuiltinFn) || E.Args[0]->Ty == ExprType::Complex)
      return emitComplexCall(
          B, *E.BuiltinFn, Args,
          [&](StringRef Fn, ArrayRef<Value *> As) { return callMath(Fn, As); });
    switch (*E.BuiltinFn) {
    case Builtin::Min:
    case Builtin::Max: {
      Value *R = Args[0];
      for (Value *V : ArrayRef(Args).drop_front())
        R = emitMinMax(B, *E.BuiltinFn == Builtin::Min, R, V);
      return R;
    }
    case Builtin::Clamp:
      return emitMinMax(B, true, emitMinMax(B, false, Args[0], Args[1]),
                        Args[2]);
    default:
      return callMath(builtinInfo(*E.BuiltinFn).MathSymbol, Args);
    }
  }

  Value *visitIf(const IfExpr &E) {
    if (E.ConstValue)
      return constant(E);
    Value *C = visit(*E.Cond);
    if (exprCost(*E.Then) + exprCost(*E.Else) <= SelectCostLimit)
      return B.CreateSelect(C, visit(*E.Then), visit(*E.Else));
    Function *Fn = B.GetInsertBlock()->getParent();
    BasicBlock *ThenBB = BasicBlock::Create(B.getContext(), "then", Fn);
    BasicBlock *ElseBB = BasicBlock::Create(B.getContext(), "else", Fn);
    BasicBlock *Join = BasicBlock::Create(B.getContext(), "endif", Fn);
    B.CreateCondBr(C, ThenBB, ElseBB);
    B.SetInsertPoint(ThenBB);
    Value *T = visit(*E.Then);
    BasicBlock *ThenEnd = B.GetInsertBlock();
    B.CreateBr(Join);
    B.SetInsertPoint(ElseBB);
    Value *F = visit(*E.Else);
    BasicBlock *ElseEnd = B.GetInsertBlock();
    B.CreateBr(Join);
    B.SetInsertPoint(Join);
    PHINode *Phi = B.CreatePHI(T->getType(), 2); // a complex value's pair
    Phi->addIncoming(T, ThenEnd);
    Phi->addIncoming(F, ElseEnd);
    return Phi;
  }

  Value *visitReduce(const ReduceExpr &E) {
    if (E.ConstValue)
      return constant(E);
    long long N = E.HiValue - E.LoValue;
    Value *Acc = fp(E.Op == ReduceOp::Prod ? 1.0 : 0.0);
    if (E.Ty == ExprType::Complex)
      Acc = emitComplexPair(B, Acc, fp(0.0));
    if (N <= UnrollLimit || E.Unroll) {
      for (long long I = E.LoValue; I < E.HiValue; ++I) {
        Indices[&E] = B.getInt64(I);
        Value *V = visit(*E.Body);
        Acc = I == E.LoValue && isMinMax(E.Op)
                  ? V
                  : emitReduceStep(B, E.Op, Acc, V);
      }
      return Acc;
    }
    return loopReduce(E, Acc);
  }

  Value *visitVector(const VectorExpr &E) { return array(E).front(); }

  SmallVector<Value *, 4> integrand(const IntegrandDecl &I, WeightSink Ws) {
    bool Infinite = any_of(I.Domain, [](const Interval &Iv) {
      return Iv.isInfinite();
    });
    Value *Jac = fp(1.0), *AtEnd = B.getFalse();
    if (Infinite)
      mapDomain(I, Jac, AtEnd);
    const Body *Own = I.Channels.empty() ? &I.B
                      : Channel          ? &I.Channels[Channel->Index]->B
                                         : nullptr;
    Vals Out = Own ? body(*Own) : channelSum(I);
    if (Infinite)
      for (Value *&F : Out)
        F = emitMappedWeight(B, F, Jac, AtEnd);
    auto Entry = [&](const ReduceExpr &L, Value *K) {
      Indices[&L] = K;
      return visit(*L.Body);
    };
    if (Ws)
      emitWeightLists(B, I, Entry, Ws, Infinite ? Jac : nullptr, AtEnd);
    for (const HistStmt *H : I.Histograms)
      Out.push_back(B.CreateUIToFP(histCell(Own ? histFilling(*Own, *H) : *H),
                                   B.getDoubleTy()));
    return Out;
  }

  /// \p H's cell, found in double whatever the arithmetic's precision:
  /// from the value (widened exactly) and the ranges in double, so that
  /// the cells agree with the edges the results report.
  Value *histCell(const HistStmt &H) {
    return emitHistCell(B, H, [&](const Expr &E) {
      for (unsigned A = 0; A < H.Axes; ++A)
        if (&E == &H.lo(A) || &E == &H.hi(A))
          return inDouble(E);
      return widen(visit(E));
    });
  }

  /// \p E, made of constants and parameters, in double.
  Value *inDouble(const Expr &E) {
    Type *Saved = Real;
    Real = B.getDoubleTy();
    Value *V = visit(E);
    Real = Saved;
    return V;
  }

  Vals body(const Body &Bd) {
    emitLets(Bd);
    return values(*Bd.Result);
  }

  /// From 0, channel after channel, as the reference evaluator adds them.
  Vals channelSum(const IntegrandDecl &I) {
    Vals Sum(I.Outputs, fp(0.0));
    for (const auto &C : I.Channels) {
      Vals One = body(C->B);
      for (unsigned K = 0; K < Sum.size(); ++K)
        Sum[K] = B.CreateFAdd(Sum[K], One[K]);
    }
    return Sum;
  }

  /// What vf_bounds_NAME stores (IRGen.h): the same expressions the
  /// integrand's body lowers (its infinite axes' scales, its histograms'
  /// ranges), so the runtime checks the values the samples use.
  Vals bounds(const IntegrandDecl &I) {
    Vals Out;
    for (const Interval &Iv : I.Domain) {
      const bool Inf = Iv.isInfinite();
      Out.push_back(Inf ? (Iv.Scale ? visit(*Iv.Scale) : fp(1.0))
                        : visit(*Iv.Lo));
      Out.push_back(Inf ? fp(0.0) : visit(*Iv.Hi));
    }
    for (const HistStmt *H : I.Histograms)
      for (unsigned A = 0; A < H->Axes; ++A) {
        Out.push_back(visit(H->lo(A)));
        Out.push_back(visit(H->hi(A)));
      }
    return Out;
  }

  /// The value of \p E, a real as one element.
  Vals values(const Expr &E) {
    return E.Ty == ExprType::Array ? array(E) : Vals{visit(E)};
  }

  /// The scalars of an array-valued expression.
  Vals array(const Expr &E) {
    switch (E.Kind) {
    case ExprKind::Vector: {
      Vals R;
      for (const ExprPtr &X : static_cast<const VectorExpr &>(E).Elements)
        R.append(values(*X));
      return R;
    }
    case ExprKind::Name: {
      const auto &N = static_cast<const NameExpr &>(E);
      if (N.Binding == BindingKind::Let)
        return Lets.find(N.Let)->second;
      if (N.Binding == BindingKind::FnArg)
        return Frames.back()[N.ArgIndex];
      Vals R; // the integration variable, all its coordinates
      for (unsigned K = 0; K < E.Size; ++K)
        R.push_back(loadX(B.getInt64(K)));
      return R;
    }
    case ExprKind::Slice: {
      const auto &S = static_cast<const SliceExpr &>(E);
      Vals R;
      if (isDomainVar(*S.Base)) {
        for (long long K = S.LoValue; K < S.HiValue; ++K)
          R.push_back(loadX(B.getInt64(K)));
        return R;
      }
      Vals Base = array(*S.Base);
      R.append(Base.begin() + S.LoValue, Base.begin() + S.HiValue);
      return R;
    }
    case ExprKind::Unary: {
      Vals R = array(*static_cast<const UnaryExpr &>(E).Operand);
      for (Value *&V : R)
        V = B.CreateFNeg(V);
      return R;
    }
    case ExprKind::Binary:
      return arrayBinary(static_cast<const BinaryExpr &>(E));
    case ExprKind::Call:
      return inlineFn(static_cast<const CallExpr &>(E));
    case ExprKind::If: {
      const auto &I = static_cast<const IfExpr &>(E);
      Value *C = visit(*I.Cond);
      Vals T = array(*I.Then), F = array(*I.Else);
      for (size_t K = 0; K < T.size(); ++K)
        T[K] = B.CreateSelect(C, T[K], F[K]);
      return T;
    }
    default:
      return Vals(E.Size, fp(NAN));
    }
  }

private:
  static bool isDomainVar(const Expr &E) {
    const auto *N = dynCast<NameExpr>(&E);
    return N && N->Binding == BindingKind::DomainVar;
  }

  /// Element \p Idx of \p A: a constant index (the common case, and every
  /// index inside an unrolled reduction) picks a scalar; any other index
  /// Sema proved in range is a chain of selects.
  Value *element(const Vals &A, Value *Idx) {
    if (auto *C = dyn_cast<ConstantInt>(Idx))
      return A[C->getZExtValue()];
    Value *R = A.front();
    for (size_t K = 1; K < A.size(); ++K)
      R = B.CreateSelect(B.CreateICmpEQ(Idx, B.getInt64(K)), A[K], R);
    return R;
  }

  /// Element by element, in the evaluator's operand order; a complex
  /// element (a pair) takes the scalar complex operation.
  Vals arrayBinary(const BinaryExpr &E) {
    bool LA = E.LHS->Ty == ExprType::Array, RA = E.RHS->Ty == ExprType::Array;
    Vals L = values(*E.LHS), R = values(*E.RHS);
    Vals Out;
    for (unsigned K = 0; K < E.Size; ++K) {
      Value *A = LA ? L[K] : L[0], *C = RA ? R[K] : R[0];
      if (E.ComplexElems) {
        Out.push_back(emitComplexBinary(B, E.Op, A, C));
        continue;
      }
      switch (E.Op) {
      case BinaryOp::Add: Out.push_back(B.CreateFAdd(A, C)); break;
      case BinaryOp::Sub: Out.push_back(B.CreateFSub(A, C)); break;
      case BinaryOp::Mul: Out.push_back(B.CreateFMul(A, C)); break;
      default: Out.push_back(B.CreateFDiv(A, C)); break;
      }
    }
    return Out;
  }

  /// Maps the infinite axes (DomainMap.h, the same operations in the same
  /// order as mapInfinite) into a local copy of the coordinates, which X
  /// then points to; SROA turns it back into registers.
  void mapDomain(const IntegrandDecl &I, Value *&Jac, Value *&AtEnd) {
    BasicBlock &Entry = B.GetInsertBlock()->getParent()->getEntryBlock();
    IRBuilder<> EntryB(&Entry, Entry.getFirstInsertionPt());
    Value *Local =
        EntryB.CreateAlloca(ArrayType::get(Real, I.Dim), nullptr, "xm");
    unsigned K = 0;
    for (const Interval &Iv : I.Domain) {
      Value *A = nullptr, *S = nullptr;
      if (Iv.isInfinite()) {
        A = Iv.Lo ? visit(*Iv.Lo) : Iv.Hi ? visit(*Iv.Hi) : fp(0.0);
        S = Iv.Scale ? visit(*Iv.Scale) : fp(1.0);
      }
      for (unsigned C = 0; C < Iv.Count; ++C, ++K) {
        Value *T = loadX(B.getInt64(K));
        if (Iv.isInfinite())
          T = emitInfiniteMap(B,
                              infiniteMapOf(Iv.Lo != nullptr, Iv.Hi != nullptr),
                              A, S, T, Jac, AtEnd);
        B.CreateStore(T, B.CreateConstInBoundsGEP1_64(Real, Local, K));
      }
    }
    X = Local;
    XTy = Real;
  }

  /// \p V rounded to the arithmetic's precision, once.
  Value *fp(double V) { return ConstantFP::get(Real, V); }

  /// \p V, a double (an argument the entry point reads, a channel's
  /// density), as a real.
  Value *narrow(Value *V) {
    return V->getType() == Real ? V : B.CreateFPTrunc(V, Real);
  }

  Value *constant(const Expr &E) {
    if (E.Ty == ExprType::Bool)
      return B.getInt1(*E.ConstValue != 0);
    return literal(E, *E.ConstValue);
  }

  /// \p E's value \p V; in single precision, noted where a float cannot
  /// hold it (0 or infinity for a finite nonzero V).
  Value *literal(const Expr &E, double V) {
    const float F = float(V);
    if (Single && Real->isFloatTy() && std::isfinite(V) && V != 0 &&
        (F == 0 || std::isinf(F)))
      Single->Lossy.push_back({&E, V});
    return fp(V);
  }

  /// \p V in double (exactly).
  Value *widen(Value *V) {
    return V->getType()->isFloatTy() ? B.CreateFPExt(V, B.getDoubleTy()) : V;
  }

  Vals widen(Vals V) {
    for (Value *&X : V)
      X = widen(X);
    return V;
  }

  Value *loadParam(unsigned Slot) {
    Type *F64 = B.getDoubleTy();
    Value *Ptr = B.CreateConstInBoundsGEP1_64(F64, Params, Slot);
    return narrow(B.CreateLoad(F64, Ptr, "param"));
  }

  Value *loadX(Value *Index) {
    return narrow(B.CreateLoad(XTy, B.CreateInBoundsGEP(XTy, X, Index), "x"));
  }

  Value *indexValue(const ReduceExpr *R) { return Indices.lookup(R); }

  /// An index known by Sema to be an integer in range; integer arithmetic
  /// for the common forms (i, i + c, c + i, i - c), double otherwise.
  Value *integerIndex(const Expr &E) {
    if (E.ConstValue)
      return B.getInt64(static_cast<int64_t>(*E.ConstValue));
    if (const auto *N = dynCast<NameExpr>(&E))
      if (N->Binding == BindingKind::ReduceIndex)
        return indexValue(N->Reduce);
    if (const auto *Bin = dynCast<BinaryExpr>(&E)) {
      if (Bin->Op == BinaryOp::Add || Bin->Op == BinaryOp::Sub) {
        bool LInt = isIntegral(*Bin->LHS), RInt = isIntegral(*Bin->RHS);
        if (LInt && RInt) {
          Value *L = integerIndex(*Bin->LHS), *R = integerIndex(*Bin->RHS);
          return Bin->Op == BinaryOp::Add ? B.CreateAdd(L, R)
                                          : B.CreateSub(L, R);
        }
      }
    }
    return B.CreateFPToSI(visit(E), I64);
  }

  static bool isIntegral(const Expr &E) {
    if (E.ConstValue)
      return *E.ConstValue == std::floor(*E.ConstValue);
    const auto *N = dynCast<NameExpr>(&E);
    return N && N->Binding == BindingKind::ReduceIndex;
  }

  /// The library's function \p Name (its double version's symbol) in the
  /// arithmetic's precision: `vf_exp` or `vf_expf`.
  Value *callMath(StringRef Name, ArrayRef<Value *> Args) {
    SmallVector<Type *, 2> Tys(Args.size(), Real);
    FunctionType *Ty = FunctionType::get(Real, Tys, false);
    const std::string Symbol = (Name + (Real->isFloatTy() ? "f" : "")).str();
    Name = Symbol;
    // The same for every sample: a call that the sampler's loop hoists
    // (InvariantCalls.h). Not on the GPU, whose kernel reloads the
    // parameters after its stores: there the call would stay in the loop.
    if (HoistParamCalls && all_of(Args, [&](Value *A) {
          return isa<Constant>(A) || dependsOnParamsOnly(A, X, Params);
        }) &&
        any_of(Args, [](Value *A) { return !isa<Constant>(A); }))
      return B.CreateCall(invariantMathWrapper(M, Name, Ty), Args);
    return B.CreateCall(M.getOrInsertFunction(Name, Ty), Args);
  }

  /// for (i = lo; i < hi; ++i) acc = acc OP body(i). For min/max the
  /// accumulator starts at body(lo) by peeling the first iteration.
  Value *loopReduce(const ReduceExpr &E, Value *Init) {
    long long Lo = E.LoValue;
    if (isMinMax(E.Op)) {
      Indices[&E] = B.getInt64(Lo);
      Init = visit(*E.Body);
      ++Lo;
    }
    return emitReduceLoop(B, E.Op, Lo, E.HiValue, Init, [&](Value *I) {
      Indices[&E] = I;
      return visit(*E.Body);
    });
  }

  void emitLets(const Body &Bd) {
    for (const auto &L : Bd.Lets)
      Lets[L.get()] = values(*L->Value);
  }

  Vals inlineFn(const CallExpr &E) {
    // C/C++ functions compute in the program's precision (vf_real),
    // whatever Real is where they are called (inDouble).
    if (E.Fn->Extern) {
      Vals R = emitExternCall(B, M, E, ProgramReal,
                              [&](const Expr &A) { return values(A); });
      for (Value *&V : R)
        V = B.CreateFPCast(V, Real);
      return R;
    }
    SmallVector<Vals, 4> Args;
    for (const ExprPtr &A : E.Args)
      Args.push_back(values(*A));
    Frames.push_back(std::move(Args));
    emitLets(E.Fn->B);
    Vals R = values(*E.Fn->B.Result);
    Frames.pop_back();
    return R;
  }

  IRBuilderBase &B;
  Module &M;
  Value *X, *Params;
  bool HoistParamCalls;
  std::optional<ChannelTerm> Channel;
  SingleCodegen *Single;
  /// The arithmetic's type (ProgramReal's but in inDouble), and that of
  /// what X points to: double (the entry point's coordinates) until
  /// mapDomain copies them as reals.
  Type *Real, *ProgramReal, *XTy, *I64;
  DenseMap<const LetStmt *, Vals> Lets;
  DenseMap<const ReduceExpr *, Value *> Indices;
  SmallVector<SmallVector<Vals, 4>, 4> Frames;
};

} // namespace

SmallVector<Value *, 4> emitIntegrandBody(IRBuilderBase &B, Module &M,
                                          const IntegrandDecl &I, Value *X,
                                          Value *Params, bool HoistParamCalls,
                                          std::optional<ChannelTerm> Channel,
                                          WeightSink Ws,
                                          SingleCodegen *Single) {
  return ExprGen(B, M, X, Params, HoistParamCalls, Channel, Single)
      .integrand(I, Ws);
}

SmallVector<Value *, 4> emitBoundValues(IRBuilderBase &B, Module &M,
                                        const IntegrandDecl &I,
                                        Value *Params) {
  return ExprGen(B, M, nullptr, Params, /*HoistParamCalls=*/false).bounds(I);
}

} // namespace vf
