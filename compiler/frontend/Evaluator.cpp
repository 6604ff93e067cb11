//===- frontend/Evaluator.cpp - Tree-walking reference evaluator ----------===//
//
// Booleans evaluate to 1 and 0. `min`/`max` propagate NaN (so does codegen),
// because a NaN integrand value must reach the non-finite check.
//
//===----------------------------------------------------------------------===//

#include "frontend/Evaluator.h"
#include "frontend/Builtins.h"
#include "frontend/ComplexOps.h"
#include "frontend/DomainMap.h"
#include "frontend/PdfUse.h"

#include "llvm/ADT/SmallVector.h"

#include <cmath>

using namespace llvm;

namespace vf {

static double reduceStep(ReduceOp Op, double Acc, double V) {
  switch (Op) {
  case ReduceOp::Sum:
    return Acc + V;
  case ReduceOp::Prod:
    return Acc * V;
  case ReduceOp::Min:
  case ReduceOp::Max:
    if (std::isnan(Acc) || std::isnan(V))
      return NAN;
    return Op == ReduceOp::Min ? std::min(Acc, V) : std::max(Acc, V);
  }
  return NAN;
}

static double applyBinary(BinaryOp Op, double L, double R) {
  switch (Op) {
  case BinaryOp::Add: return L + R;
  case BinaryOp::Sub: return L - R;
  case BinaryOp::Mul: return L * R;
  case BinaryOp::Div: return L / R;
  case BinaryOp::Pow: return std::pow(L, R);
  case BinaryOp::Lt: return L < R;
  case BinaryOp::Le: return L <= R;
  case BinaryOp::Gt: return L > R;
  case BinaryOp::Ge: return L >= R;
  case BinaryOp::Eq: return L == R;
  case BinaryOp::Ne: return L != R;
  case BinaryOp::And: return L != 0 && R != 0;
  case BinaryOp::Or: return L != 0 || R != 0;
  }
  return NAN;
}

class EvalVisitor : public ExprVisitor<EvalVisitor, double> {
public:
  explicit EvalVisitor(Evaluator &Ev) : Ev(Ev) {}

  /// A subexpression Sema folded is not walked again: that keeps folding
  /// linear, and a `let` with a constant value needs no binding.
  double visit(const Expr &E) {
    if (E.ConstValue)
      return *E.ConstValue;
    return ExprVisitor::visit(E);
  }

  double visitNumber(const NumberExpr &E) { return E.Value; }
  double visitName(const NameExpr &E) {
    switch (E.Binding) {
    case BindingKind::Const:
      return E.Const->Folded.value_or(NAN);
    case BindingKind::Param:
      return E.Param->Slot < Ev.Params.size() ? Ev.Params[E.Param->Slot]
                                              : E.Param->DefaultValue;
    case BindingKind::Let:
      return first(Ev.Lets.lookup(E.Let));
    case BindingKind::ReduceIndex:
      return Ev.Indices.lookup(E.Reduce);
    case BindingKind::FnArg:
      return first(Ev.Frames.back()[E.ArgIndex]);
    case BindingKind::DomainVar:
      return Ev.X.empty() ? NAN : Ev.X[0];
    case BindingKind::BuiltinConst:
      return E.ConstValue.value_or(NAN);
    case BindingKind::Component: // only in derived items, never evaluated here
    case BindingKind::Unresolved:
      break;
    }
    return NAN;
  }
  double visitIndex(const IndexExpr &E) {
    double I = visit(*E.Idx);
    std::vector<double> Base;
    ArrayRef<double> From = Ev.X;
    if (!isDomainVar(*E.Base)) {
      Base = array(*E.Base);
      From = Base;
    }
    if (!(I >= 0) || I >= static_cast<double>(From.size()))
      return NAN;
    return From[static_cast<size_t>(I)];
  }
  double visitSlice(const SliceExpr &) { return NAN; }
  double visitUnary(const UnaryExpr &E) {
    double V = visit(*E.Operand);
    return E.Op == UnaryOp::Neg ? -V : static_cast<double>(V == 0);
  }
  double visitBinary(const BinaryExpr &E) {
    if (isComplex(*E.LHS) || isComplex(*E.RHS)) // == or !=
      return complexBinary(E.Op, complexValue(*E.LHS), !isComplex(*E.LHS),
                           complexValue(*E.RHS), !isComplex(*E.RHS))
          .Re;
    return applyBinary(E.Op, visit(*E.LHS), visit(*E.RHS));
  }
  double visitCall(const CallExpr &E) {
    if (E.Fn)
      return first(call(E));
    if (E.Pdf)
      return pdfCall(E);
    if (E.Args.size() == 1 && isComplex(*E.Args[0])) {
      ComplexValue Z = complexValue(*E.Args[0]);
      if (*E.BuiltinFn == Builtin::Norm)
        return Z.Re * Z.Re + Z.Im * Z.Im;
      if (*E.BuiltinFn == Builtin::Arg)
        return std::atan2(Z.Im, Z.Re);
      return *E.BuiltinFn == Builtin::Abs  ? complexAbs(Z)
             : *E.BuiltinFn == Builtin::Im ? Z.Im
                                           : Z.Re;
    }
    SmallVector<double, 4> Args;
    for (const ExprPtr &A : E.Args)
      Args.push_back(visit(*A));
    return E.BuiltinFn ? evalBuiltin(*E.BuiltinFn, Args) : NAN;
  }
  double visitIf(const IfExpr &E) {
    return visit(*E.Cond) != 0 ? visit(*E.Then) : visit(*E.Else);
  }
  double visitReduce(const ReduceExpr &E) {
    double Acc = E.Op == ReduceOp::Prod ? 1.0 : 0.0;
    for (long long I = E.LoValue; I < E.HiValue; ++I) {
      Ev.Indices[&E] = static_cast<double>(I);
      double V = visit(*E.Body);
      Acc = I == E.LoValue && (E.Op == ReduceOp::Min || E.Op == ReduceOp::Max)
                ? V
                : reduceStep(E.Op, Acc, V);
    }
    return Acc;
  }
  double visitVector(const VectorExpr &) { return NAN; }
  /// Before any run has adapted them (LANGUAGE.md v3): equal weights, and
  /// identity maps, whose density on the unit cube is 1.
  double visitChannel(const ChannelExpr &E) {
    return E.Query == ChannelQuery::Alpha ? 1.0 / E.Count : 1.0;
  }

  /// The value of \p E, a real as an array of one, a complex value as the
  /// pair (re, im).
  std::vector<double> value(const Expr &E) {
    if (isComplex(E)) {
      ComplexValue Z = complexValue(E);
      return {Z.Re, Z.Im};
    }
    return E.Ty == ExprType::Array ? array(E) : std::vector<double>{visit(E)};
  }

  /// The value of \p E, complex or real (as (re, 0)), in the operation
  /// order of ComplexOps.h.
  ComplexValue complexValue(const Expr &E) {
    if (!isComplex(E))
      return {visit(E), 0};
    switch (E.Kind) {
    case ExprKind::Name: {
      const auto &N = static_cast<const NameExpr &>(E);
      if (N.Binding == BindingKind::Const)
        return complexValue(*N.Const->Value);
      std::vector<double> V = array(E); // a let's or argument's pair
      return V.size() == 2 ? ComplexValue{V[0], V[1]} : ComplexValue{NAN, NAN};
    }
    case ExprKind::Unary: {
      ComplexValue Z = complexValue(*static_cast<const UnaryExpr &>(E).Operand);
      return {-Z.Re, -Z.Im};
    }
    case ExprKind::Binary: {
      const auto &B = static_cast<const BinaryExpr &>(E);
      if (B.Op == BinaryOp::Pow)
        return complexPow(
            complexValue(*B.LHS),
            static_cast<long long>(B.RHS->ConstValue.value_or(0)));
      return complexBinary(B.Op, complexValue(*B.LHS), !isComplex(*B.LHS),
                           complexValue(*B.RHS), !isComplex(*B.RHS));
    }
    case ExprKind::Call: {
      const auto &C = static_cast<const CallExpr &>(E);
      if (C.Fn) {
        std::vector<double> R = call(C);
        return R.size() == 2 ? ComplexValue{R[0], R[1]}
                             : ComplexValue{NAN, NAN};
      }
      if (C.BuiltinFn == Builtin::Complex)
        return {visit(*C.Args[0]), visit(*C.Args[1])};
      ComplexValue Z = complexValue(*C.Args[0]);
      if (C.BuiltinFn == Builtin::Exp)
        return complexExp(Z);
      if (C.BuiltinFn == Builtin::Sqrt)
        return complexSqrt(Z);
      return {Z.Re, -Z.Im}; // conj
    }
    case ExprKind::If: {
      const auto &I = static_cast<const IfExpr &>(E);
      return complexValue(visit(*I.Cond) != 0 ? *I.Then : *I.Else);
    }
    case ExprKind::Reduce:
      return complexReduce(static_cast<const ReduceExpr &>(E));
    case ExprKind::Index: { // of an array of complex values, interleaved
      const auto &Ix = static_cast<const IndexExpr &>(E);
      double I = visit(*Ix.Idx);
      std::vector<double> A = array(*Ix.Base);
      if (!(I >= 0) || 2 * I + 1 >= static_cast<double>(A.size()))
        return {NAN, NAN};
      size_t K = 2 * static_cast<size_t>(I);
      return {A[K], A[K + 1]};
    }
    default:
      return {NAN, NAN};
    }
  }

  /// The elements of an array-valued expression.
  std::vector<double> array(const Expr &E) {
    switch (E.Kind) {
    case ExprKind::Vector: {
      std::vector<double> R;
      for (const ExprPtr &X : static_cast<const VectorExpr &>(E).Elements) {
        std::vector<double> V = value(*X);
        R.insert(R.end(), V.begin(), V.end());
      }
      return R;
    }
    case ExprKind::Name: {
      const auto &N = static_cast<const NameExpr &>(E);
      if (N.Binding == BindingKind::Let)
        return Ev.Lets.lookup(N.Let);
      if (N.Binding == BindingKind::FnArg)
        return Ev.Frames.back()[N.ArgIndex];
      return std::vector<double>(Ev.X.begin(), Ev.X.end());
    }
    case ExprKind::Slice: {
      const auto &S = static_cast<const SliceExpr &>(E);
      std::vector<double> Base = isDomainVar(*S.Base)
                                     ? std::vector<double>(Ev.X.begin(),
                                                           Ev.X.end())
                                     : array(*S.Base);
      long long Width = E.ComplexElems ? 2 : 1; // re and im interleaved
      if (Width * S.HiValue > static_cast<long long>(Base.size()))
        return std::vector<double>(Width * E.Size, NAN);
      return std::vector<double>(Base.begin() + Width * S.LoValue,
                                 Base.begin() + Width * S.HiValue);
    }
    case ExprKind::Unary: {
      std::vector<double> R = array(*static_cast<const UnaryExpr &>(E).Operand);
      for (double &V : R)
        V = -V;
      return R;
    }
    case ExprKind::Binary:
      return arrayBinary(static_cast<const BinaryExpr &>(E));
    case ExprKind::Call:
      return call(static_cast<const CallExpr &>(E));
    case ExprKind::If: {
      const auto &I = static_cast<const IfExpr &>(E);
      return visit(*I.Cond) != 0 ? array(*I.Then) : array(*I.Else);
    }
    default:
      return std::vector<double>(E.Size, NAN);
    }
  }

  double body(const Body &B) { return first(bodyValue(B)); }

  std::vector<double> bodyValue(const Body &B) {
    for (const auto &L : B.Lets)
      Ev.Lets[L.get()] = value(*L->Value);
    return value(*B.Result);
  }

  /// The sum of the channels' values at the same point.
  std::vector<double> channelsValue(const IntegrandDecl &I) {
    std::vector<double> Sum(I.Outputs, 0.0);
    for (const auto &C : I.Channels) {
      std::vector<double> One = bodyValue(C->B);
      for (size_t K = 0; K < Sum.size(); ++K)
        Sum[K] += One.size() == 1 ? One[0] : K < One.size() ? One[K] : NAN;
    }
    return Sum;
  }

private:
  static double first(const std::vector<double> &V) {
    return V.empty() ? NAN : V[0];
  }

  static bool isComplex(const Expr &E) { return E.Ty == ExprType::Complex; }

  /// sum or prod from (0, 0) or (1, 0), as codegen accumulates them.
  ComplexValue complexReduce(const ReduceExpr &E) {
    bool Prod = E.Op == ReduceOp::Prod;
    BinaryOp Op = Prod ? BinaryOp::Mul : BinaryOp::Add;
    ComplexValue Acc{Prod ? 1.0 : 0.0, 0.0};
    for (long long I = E.LoValue; I < E.HiValue; ++I) {
      Ev.Indices[&E] = static_cast<double>(I);
      Acc = complexBinary(Op, Acc, false, complexValue(*E.Body), false);
    }
    return Acc;
  }

  static bool isDomainVar(const Expr &E) {
    const auto *N = dynCast<NameExpr>(&E);
    return N && N->Binding == BindingKind::DomainVar;
  }

  /// Element by element, in the operand order codegen uses.
  std::vector<double> arrayBinary(const BinaryExpr &E) {
    if (E.ComplexElems)
      return complexArrayBinary(E);
    bool LA = E.LHS->Ty == ExprType::Array, RA = E.RHS->Ty == ExprType::Array;
    std::vector<double> L = value(*E.LHS), R = value(*E.RHS);
    std::vector<double> Out(E.Size, NAN);
    for (size_t K = 0; K < Out.size(); ++K) {
      double A = LA ? (K < L.size() ? L[K] : NAN) : L[0];
      double B = RA ? (K < R.size() ? R[K] : NAN) : R[0];
      Out[K] = applyBinary(E.Op, A, B);
    }
    return Out;
  }

  /// The same with complex elements, interleaved: each pair of elements
  /// takes complexBinary, a real operand or element flagged real, as
  /// codegen's pairs and doubles.
  std::vector<double> complexArrayBinary(const BinaryExpr &E) {
    std::vector<double> L = value(*E.LHS), R = value(*E.RHS);
    auto Element = [](const Expr &Side, const std::vector<double> &V, size_t K,
                      bool &Real) -> ComplexValue {
      Real = !isComplex(Side) && !Side.ComplexElems;
      size_t At = Side.Ty != ExprType::Array ? 0 : Real ? K : 2 * K;
      if (At + (Real ? 0 : 1) >= V.size())
        return {NAN, NAN};
      return {V[At], Real ? 0.0 : V[At + 1]};
    };
    std::vector<double> Out;
    for (size_t K = 0; K < E.Size; ++K) {
      bool LReal, RReal;
      ComplexValue A = Element(*E.LHS, L, K, LReal);
      ComplexValue B = Element(*E.RHS, R, K, RReal);
      ComplexValue Z = complexBinary(E.Op, A, LReal, B, RReal);
      Out.push_back(Z.Re);
      Out.push_back(Z.Im);
    }
    return Out;
  }

  /// The host's interpolation of the member Sema read (runtime/pdf).
  double pdfCall(const CallExpr &E) {
    const double Member = E.MemberArg ? visit(*E.MemberArg) : E.Member;
    // A param's value is checked before a run, a fn argument's here.
    const pdf::PdfMember *Read =
        Member >= 0 && Member < 4294967296.0 && Member == std::floor(Member)
            ? E.Pdf->Use->member(static_cast<unsigned>(Member))
            : nullptr;
    if (!Read)
      return std::nan("");
    const pdf::PdfMember &M = *Read;
    if (E.Query == PdfQuery::AlphaS)
      return M.alphasQ(visit(*E.Args[0]));
    return M.xfx(E.Flavour, visit(*E.Args[0]), visit(*E.Args[1]));
  }

  std::vector<double> call(const CallExpr &E) {
    // An extern fn is C/C++ code, which only the compiled module runs.
    if (!E.Fn || E.Fn->Extern || Ev.Frames.size() > 256)
      return std::vector<double>(std::max(1u, E.Size), NAN);
    std::vector<std::vector<double>> Args;
    for (const ExprPtr &A : E.Args)
      Args.push_back(value(*A));
    Ev.Frames.push_back(std::move(Args));
    std::vector<double> R = bodyValue(E.Fn->B);
    Ev.Frames.pop_back();
    return R;
  }

  Evaluator &Ev;
};

double Evaluator::eval(const Expr &E) { return EvalVisitor(*this).visit(E); }

/// As codegen/HistCellGen.h emits it, operation for operation.
double Evaluator::histCell(const HistStmt &H) {
  bool In = true, Below = false;
  unsigned long long Flat = 0;
  for (unsigned A = 0; A < H.Axes; ++A) {
    double V = eval(H.value(A)), Lo = eval(H.lo(A)), Hi = eval(H.hi(A));
    const unsigned N = H.Bins[A];
    double T = (V - Lo) / (Hi - Lo) * double(N);
    double Safe = T < double(N) ? T : double(N - 1);
    Safe = Safe >= 0.0 ? Safe : 0.0;
    unsigned long long Bin = static_cast<unsigned long long>(Safe);
    Bin = Bin < N ? Bin : N - 1;
    const double P = vf_hist_decimal_scale(Lo, Hi, N);
    auto Edge = [&](unsigned long long I) {
      return vf_hist_edge_at(Lo, Hi, I, N, P);
    };
    if (Bin + 1 < N && V >= Edge(Bin + 1))
      ++Bin;
    if (Bin > 0 && V < Edge(Bin))
      --Bin;
    In = In && V >= Lo && V < Hi;
    Below = V < Lo;
    Flat = Flat * N + Bin;
  }
  return double((In ? vf_hist_bin_cell(Flat)
                    : vf_hist_outside_cell(H.Axes, H.Bins[0], Below)) +
                H.Base);
}

void Evaluator::appendWeights(const WeightsStmt &W, std::vector<double> &Out) {
  const ReduceExpr &L = *W.List;
  for (long long K = L.LoValue; K < L.HiValue; ++K) {
    Indices[&L] = double(K);
    Out.push_back(eval(*L.Body));
  }
}

std::vector<double> Evaluator::evalIntegrand(const IntegrandDecl &I,
                                             ArrayRef<double> Point,
                                             std::vector<double> *Cells,
                                             std::vector<double> *Weights) {
  std::vector<double> Mapped(Point.begin(), Point.end());
  double Jac = 1;
  bool AtEnd = false, Infinite = false;
  size_t K = 0;
  for (const Interval &Iv : I.Domain) {
    for (unsigned C = 0; C < Iv.Count && K < Mapped.size(); ++C, ++K) {
      if (!Iv.isInfinite())
        continue;
      Infinite = true;
      InfiniteMap Kind = infiniteMapOf(Iv.Lo != nullptr, Iv.Hi != nullptr);
      double A = Iv.Lo ? eval(*Iv.Lo) : Iv.Hi ? eval(*Iv.Hi) : 0.0;
      double S = Iv.Scale ? eval(*Iv.Scale) : 1.0;
      AtEnd |= mapInfinite(Kind, A, S, Point[K], Mapped[K], Jac);
    }
  }
  X = Mapped;
  EvalVisitor V(*this);
  std::vector<double> Out =
      I.Channels.empty() ? V.bodyValue(I.B) : V.channelsValue(I);
  if (Cells) {
    Cells->clear();
    for (const HistStmt *H : I.Histograms)
      Cells->push_back(histCell(*H));
  }
  if (Weights) {
    Weights->clear();
    for (const WeightsStmt *W : I.WeightLists)
      appendWeights(*W, *Weights);
  }
  X = {};
  if (Infinite) {
    for (double &F : Out)
      F = mappedWeight(F, Jac, AtEnd);
    if (Weights)
      for (double &F : *Weights)
        F = mappedWeight(F, Jac, AtEnd);
  }
  return Out;
}

void Evaluator::evalDomain(const IntegrandDecl &I, std::vector<double> &Lo,
                           std::vector<double> &Hi) {
  Lo.clear();
  Hi.clear();
  for (const Interval &Iv : I.Domain) {
    double L = Iv.isInfinite() ? 0.0 : eval(*Iv.Lo);
    double H = Iv.isInfinite() ? 1.0 : eval(*Iv.Hi);
    for (unsigned K = 0; K < Iv.Count; ++K) {
      Lo.push_back(L);
      Hi.push_back(H);
    }
  }
}

} // namespace vf
