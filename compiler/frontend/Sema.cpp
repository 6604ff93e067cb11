//===- frontend/Sema.cpp - Items, scopes and recursion --------------------===//
//
// Globals (consts, params, fns) of every module share one namespace;
// integrands come from the main file only (an imported module's integrands
// are not exported). Locals may shadow globals and built-in constants but
// not each other. Consts fold on demand, so their order does not matter;
// a const that depends on itself is an error.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/Builtins.h"
#include "frontend/SemaInternal.h"

#include "llvm/ADT/SmallPtrSet.h"

#include <cmath>
#include <functional>

using namespace llvm;

namespace vf {

bool checkProgram(Program &P, DiagEngine &Diags) {
  unsigned Before = Diags.errorCount();
  SemaImpl(P, Diags).run();
  return Diags.errorCount() == Before;
}

static StringRef itemKindName(ItemKind K) {
  switch (K) {
  case ItemKind::Const: return "constant";
  case ItemKind::Param: return "parameter";
  case ItemKind::Fn: return "function";
  case ItemKind::Integrand: return "integrand";
  case ItemKind::Import: return "import";
  case ItemKind::Derived:
    return "derived result";
  case ItemKind::Pdf:
    return "pdf";
  }
  return "item";
}

StringRef notAValue(ItemKind K) {
  switch (K) {
  case ItemKind::Fn:
    return "a function; call it";
  case ItemKind::Derived:
    return "a derived result, computed from the results after the run, not "
           "a value in a body";
  case ItemKind::Pdf:
    return "a pdf, not a value: pass it to xfx, alphas or an extern fn's pdf "
           "argument";
  default:
    return "an integrand, not a value";
  }
}

bool SemaImpl::run() {
  collectGlobals();
  // Before the bodies, whose calls read more members of the sets.
  for (auto &M : P.Modules)
    for (auto &I : M->Items)
      if (I->Kind == ItemKind::Pdf)
        checkPdf(static_cast<PdfDecl &>(*I), *M);
  checkPdfChoices();
  // Signatures first: a call may precede its callee's definition.
  for (auto &M : P.Modules)
    for (auto &I : M->Items)
      if (I->Kind == ItemKind::Fn)
        checkSignature(static_cast<FnDecl &>(*I));
  for (auto &M : P.Modules) {
    for (auto &I : M->Items) {
      switch (I->Kind) {
      case ItemKind::Const:
        foldConst(static_cast<ConstDecl &>(*I));
        break;
      case ItemKind::Param:
        checkParam(static_cast<ParamDecl &>(*I));
        break;
      case ItemKind::Fn:
        checkFn(static_cast<FnDecl &>(*I));
        break;
      case ItemKind::Integrand:
        if (M->IsMain)
          checkIntegrand(static_cast<IntegrandDecl &>(*I));
        break;
      case ItemKind::Import:
      case ItemKind::Derived:
      case ItemKind::Pdf:
        break;
      }
    }
  }
  // After the integrands, whose component counts they need.
  if (!P.Modules.empty())
    for (auto &I : P.Modules[0]->Items)
      if (I->Kind == ItemKind::Derived)
        checkDerived(static_cast<DerivedDecl &>(*I));
  checkRecursion();
  if (!Diags.hasErrors()) {
    findListBands();
    buildPdfTable();
  }
  // Sizes are only meaningful, and only needed, for a program that checks.
  if (!Diags.hasErrors())
    checkInlinedSizes();
  warnUnusedParams();
  return !Diags.hasErrors();
}

void SemaImpl::collectGlobals() {
  // Imported modules first, so a clash is reported in the main file.
  std::vector<SourceModule *> Order;
  for (size_t K = 1; K < P.Modules.size(); ++K)
    Order.push_back(P.Modules[K].get());
  if (!P.Modules.empty())
    Order.push_back(P.Modules[0].get());

  unsigned Slot = 0;
  for (SourceModule *M : Order) {
    for (auto &IPtr : M->Items) {
      Item &I = *IPtr;
      if (I.Kind == ItemKind::Import ||
          ((I.Kind == ItemKind::Integrand || I.Kind == ItemKind::Derived) &&
           !M->IsMain))
        continue;
      std::optional<Builtin> B =
          I.Kind == ItemKind::Fn ? lookupBuiltin(I.Name) : std::nullopt;
      if (B && isComplexBuiltin(*B))
        // Version 1 and 2 programs keep their meaning (LANGUAGE.md v3).
        Diags.warning(I.NameRange.Start,
                      "fn '" + I.Name + "' shadows the built-in '" + I.Name +
                          "' of complex values; calls of '" + I.Name +
                          "' call this fn",
                      I.NameRange);
      else if (B) {
        Diags.error(I.NameRange.Start,
                    "'" + I.Name + "' is a built-in function and cannot be "
                                   "redefined",
                    I.NameRange);
        continue;
      }
      if (lookupBuiltinConstant(I.Name)) {
        Diags.error(I.NameRange.Start,
                    "'" + I.Name + "' is a built-in constant and cannot be "
                                   "redefined",
                    I.NameRange);
        continue;
      }
      auto [It, New] = P.Globals.try_emplace(I.Name, &I);
      if (!New) {
        Diags.error(I.NameRange.Start,
                    "redefinition of '" + I.Name + "'", I.NameRange);
        Diags.note(It->second->NameRange.Start,
                   "previous definition of " +
                       itemKindName(It->second->Kind) + " '" + I.Name +
                       "' is here",
                   It->second->NameRange);
        continue;
      }
      if (I.Kind == ItemKind::Param) {
        auto &PD = static_cast<ParamDecl &>(I);
        PD.Slot = Slot++;
        PD.FromMainFile = M->IsMain;
        P.Params.push_back(&PD);
      } else if (I.Kind == ItemKind::Integrand) {
        P.Integrands.push_back(static_cast<IntegrandDecl *>(&I));
      } else if (I.Kind == ItemKind::Derived) {
        P.Derived.push_back(static_cast<DerivedDecl *>(&I));
      }
    }
  }
}

void SemaImpl::foldConst(ConstDecl &C) {
  if (C.CheckState == ConstDecl::State::Done)
    return;
  if (C.CheckState == ConstDecl::State::Checking) {
    Diags.error(C.NameRange.Start,
                "constant '" + C.Name + "' depends on itself", C.NameRange);
    C.CheckState = ConstDecl::State::Done;
    return;
  }
  C.CheckState = ConstDecl::State::Checking;
  // A const is checked in the global scope only, whatever body asked for it.
  LocalScope Saved;
  Saved.swap(Locals);
  SemaContext Ctx;
  Ctx.ConstReason = "the value of a constant";
  unsigned Before = Diags.errorCount();
  checkExpr(*C.Value, Ctx);
  // A complex constant is not folded: each use lowers its expression, which
  // the const context kept to constants (`const j = complex(0, 1)`).
  bool Complex = C.Value->Ty == ExprType::Complex;
  if (!Complex)
    requireReal(*C.Value, "the value of a constant");
  if (!Complex && !C.Value->ConstValue && Diags.errorCount() == Before)
    Diags.error(C.Value->loc(),
                "the value of constant '" + C.Name +
                    "' must be a compile-time constant",
                {C.Value->Range});
  Locals.swap(Saved);
  if (C.CheckState == ConstDecl::State::Checking) {
    C.Folded = C.Value->ConstValue;
    C.CheckState = ConstDecl::State::Done;
  }
}

void SemaImpl::checkParam(ParamDecl &D) {
  SemaContext Ctx;
  Ctx.ConstReason = "the default value of a parameter";
  unsigned Before = Diags.errorCount();
  checkExpr(*D.Default, Ctx);
  requireReal(*D.Default, "the default value of a parameter");
  if (!D.Default->ConstValue && Diags.errorCount() == Before)
    Diags.error(D.Default->loc(),
                "the default value of parameter '" + D.Name +
                    "' must be a compile-time constant",
                {D.Default->Range});
  if (D.Default->ConstValue)
    D.DefaultValue = *D.Default->ConstValue;
}

bool SemaImpl::declareLocal(const LocalSym &S) {
  if (const LocalSym *Prev = lookupLocal(S.Name)) {
    Diags.error(S.Range.Start, "redefinition of '" + S.Name + "'", S.Range);
    Diags.note(Prev->Range.Start, "previous definition is here", Prev->Range);
    return false;
  }
  Locals.push(S);
  return true;
}

const LocalSym *SemaImpl::lookupLocal(StringRef Name) const {
  return Locals.lookup(Name);
}

void SemaImpl::checkBody(Body &B, const SemaContext &Ctx, unsigned Declared,
                         StringRef What) {
  checkBody(B, Ctx, [&](Expr &R) {
    checkResult(R, Declared, /*OneIsScalar=*/Ctx.Integrand != nullptr, What);
  });
}

void SemaImpl::checkBody(Body &B, const SemaContext &Ctx,
                         function_ref<void(Expr &)> CheckResult) {
  size_t Mark = Locals.size();
  size_t NextHist = 0, NextWeights = 0;
  // A statement sees the lets before it.
  auto CheckStatements = [&](size_t LetsSeen) {
    for (; NextHist < B.Hists.size() &&
           B.Hists[NextHist]->LetsBefore <= LetsSeen;
         ++NextHist)
      checkHist(*B.Hists[NextHist], Ctx);
    for (; NextWeights < B.Weights.size() &&
           B.Weights[NextWeights]->LetsBefore <= LetsSeen;
         ++NextWeights)
      checkWeights(*B.Weights[NextWeights], Ctx);
  };
  for (size_t K = 0; K < B.Lets.size(); ++K) {
    CheckStatements(K);
    LetStmt &L = *B.Lets[K];
    checkExpr(*L.Value, Ctx);
    requireValue(*L.Value, "the value of a 'let'");
    LocalSym S{L.Name, L.NameRange, BindingKind::Let};
    S.Let = &L;
    declareLocal(S);
  }
  CheckStatements(B.Lets.size());
  checkExpr(*B.Result, Ctx);
  CheckResult(*B.Result);
  for (auto &L : B.Lets)
    if (!L->Used)
      Diags.warning(L->NameRange.Start, "unused let '" + L->Name + "'",
                    L->NameRange);
  Locals.truncate(Mark);
}

void SemaImpl::checkResult(Expr &R, unsigned Declared, bool OneIsScalar,
                           StringRef What) {
  if (R.Ty == ExprType::Complex)
    requireReal(R, "the result");
  if (R.ComplexElems)
    Diags.error(R.loc(),
                "expected real numbers in the result, found an array of "
                "complex values; use re(), im(), norm() or abs()",
                {R.Range});
  requireValue(R, "the result");
  if (R.Ty != ExprType::Real && R.Ty != ExprType::Array)
    return;
  unsigned Got = R.Ty == ExprType::Array ? R.Size : 0;
  if (Got == Declared || (OneIsScalar && Declared == 1 && Got == 0))
    return;
  std::string Msg;
  if (Got == 0)
    Msg = (What + " is declared '-> [" + Twine(Declared) + "]' but returns " +
           (OneIsScalar ? "one value; return a vector '[a, b, ...]'"
                        : "a number"))
              .str();
  else if (OneIsScalar)
    Msg = (What + " returns " + Twine(Got) + " values but is declared with " +
           Twine(Declared) + "; write '-> [" + Twine(Got) + "]'")
              .str();
  else if (Declared == 0)
    Msg = (What + " returns an array of " + Twine(Got) +
           " but is declared to return a number; write '-> [" + Twine(Got) +
           "]' after its arguments")
              .str();
  else
    Msg = (What + " returns an array of " + Twine(Got) +
           " but is declared '-> [" + Twine(Declared) + "]'")
              .str();
  Diags.error(R.loc(), Msg, {R.Range});
}

unsigned SemaImpl::arraySize(Expr &E, StringRef What) {
  SemaContext Ctx;
  std::optional<long long> N = constantInteger(E, Ctx, What);
  if (N && (*N < 1 || *N > MaxArraySize)) {
    Diags.error(E.loc(),
                What + " must be between 1 and " + Twine(MaxArraySize),
                {E.Range});
    return 0;
  }
  return N ? static_cast<unsigned>(*N) : 0;
}

void SemaImpl::checkSignature(FnDecl &D) {
  for (FnArg &A : D.Args)
    if (A.IsPdf && !D.Extern)
      Diags.error(A.Range.Start,
                  "only an extern fn takes a pdf argument ('" + A.Name +
                      ": pdf'): xfx and alphas name their pdf item directly",
                  A.Range);
    else if (A.SizeExpr)
      A.Size = arraySize(*A.SizeExpr, "an array size");
  if (D.ResultSizeExpr)
    D.ResultSize = arraySize(*D.ResultSizeExpr, "an array size");
  checkComplexSignature(D);
}

void SemaImpl::checkFn(FnDecl &D) {
  Calls[&D]; // every fn is a node of the call graph
  SemaContext Ctx;
  Ctx.Fn = &D;
  Locals.clear();
  for (unsigned K = 0; K < D.Args.size(); ++K) {
    LocalSym S{D.Args[K].Name, D.Args[K].Range, BindingKind::FnArg};
    S.ArgIndex = K;
    S.Size = D.Args[K].Size;
    S.Complex = D.Args[K].IsComplex;
    declareLocal(S);
  }
  // An extern fn's body is checked by Clang (compiler/clang).
  if (!D.Extern && D.ResultComplex)
    checkBody(D.B, Ctx, [&](Expr &R) { checkComplexResult(R, D); });
  else if (!D.Extern)
    checkBody(D.B, Ctx, D.ResultSize, "function '" + D.Name + "'");
  Locals.clear();
}

void SemaImpl::checkInterval(Interval &Iv, const IntegrandDecl &D) {
  SemaContext Ctx; // bounds may use consts and params, not the variable
  Ctx.BoundsOf = &D;
  for (Expr *Bound : {Iv.Lo.get(), Iv.Hi.get()}) {
    if (!Bound)
      continue;
    checkExpr(*Bound, Ctx);
    requireReal(*Bound, "an interval bound");
  }
  if (Iv.Scale) {
    checkExpr(*Iv.Scale, Ctx);
    requireReal(*Iv.Scale, "the scale of an infinite interval");
    if (Iv.Scale->ConstValue &&
        (!(*Iv.Scale->ConstValue > 0) || !std::isfinite(*Iv.Scale->ConstValue)))
      Diags.error(Iv.Scale->loc(),
                  "the scale of an infinite interval must be positive and "
                  "finite",
                  Iv.Scale->Range);
  }
  if (!Iv.isInfinite() && Iv.Lo->ConstValue && Iv.Hi->ConstValue &&
      !(*Iv.Hi->ConstValue > *Iv.Lo->ConstValue))
    Diags.error(Iv.Range.Start,
                "empty or inverted interval: the upper bound must be "
                "greater than the lower bound",
                Iv.Range);
  if (Iv.Power) {
    std::optional<long long> N =
        constantInteger(*Iv.Power, Ctx, "the dimension after '^'");
    if (N && (*N < 1 || *N > MaxDimension)) {
      Diags.error(Iv.Power->loc(),
                  "the dimension after '^' must be between 1 and " +
                      Twine(MaxDimension),
                  Iv.Power->Range);
      N = std::nullopt;
    }
    Iv.Count = N ? static_cast<unsigned>(*N) : 1;
  }
}

void SemaImpl::checkDomain(IntegrandDecl &D) {
  unsigned Dim = 0;
  for (Interval &Iv : D.Domain) {
    checkInterval(Iv, D);
    Dim += Iv.Count;
  }
  if (Dim > MaxDimension) {
    Diags.error(D.VarRange.Start,
                "the domain has " + Twine(Dim) + " dimensions; at most " +
                    Twine(MaxDimension) + " are supported",
                D.VarRange);
    Dim = MaxDimension;
  }
  D.Dim = Dim;
}

void SemaImpl::checkIntegrand(IntegrandDecl &D) {
  checkDomain(D);
  SemaContext Ctx;
  if (D.OutputsExpr) {
    std::optional<long long> N =
        constantInteger(*D.OutputsExpr, Ctx, "the number of components");
    if (N && (*N < 1 || *N > MaxOutputs)) {
      Diags.error(D.OutputsExpr->loc(),
                  "the number of components must be between 1 and " +
                      Twine(MaxOutputs),
                  D.OutputsExpr->Range);
      N = std::nullopt;
    }
    D.Outputs = N ? static_cast<unsigned>(*N) : 1;
  }
  Ctx.Integrand = &D;
  if (!D.Channels.empty()) {
    checkChannels(D, Ctx);
    layOutHistograms(D);
    checkChannelHistograms(D);
    return;
  }
  Locals.clear();
  declareLocal({D.Var, D.VarRange, BindingKind::DomainVar});
  // The result is checked against the declared count (1 without `-> [n]`),
  // so a forgotten `-> [n]` gets the message that suggests it.
  checkBody(D.B, Ctx, D.Outputs, "integrand '" + D.Name + "'");
  Locals.clear();
  layOutHistograms(D);
  layOutWeights(D);
}

void SemaImpl::checkRecursion() {
  // Depth-first search; a back edge closes a cycle, reported at its call.
  enum class Mark { White, Grey, Black };
  DenseMap<const FnDecl *, Mark> Marks;
  SmallPtrSet<const FnDecl *, 8> Reported;
  std::function<void(const FnDecl *)> Visit = [&](const FnDecl *F) {
    Marks[F] = Mark::Grey;
    for (const CallExpr *C : Calls.lookup(F)) {
      Mark M = Marks.lookup(C->Fn);
      if (M == Mark::Grey) {
        if (Reported.insert(C->Fn).second) {
          Diags.error(C->CalleeRange.Start,
                      C->Fn == F ? "function '" + F->Name +
                                       "' calls itself; recursion is not "
                                       "allowed (functions are inlined)"
                                 : "recursive call: '" + C->Fn->Name +
                                       "' is called again from '" + F->Name +
                                       "'; recursion is not allowed",
                      C->CalleeRange);
        }
      } else if (M == Mark::White) {
        Visit(C->Fn);
      }
    }
    Marks[F] = Mark::Black;
  };
  // Visit in source order so the diagnostics are stable.
  for (auto &M : P.Modules)
    for (auto &I : M->Items)
      if (I->Kind == ItemKind::Fn) {
        auto *F = static_cast<const FnDecl *>(I.get());
        if (Marks.lookup(F) == Mark::White)
          Visit(F);
      }
}

void SemaImpl::warnUnusedParams() {
  for (const ParamDecl *PD : P.Params)
    if (!PD->Used && PD->FromMainFile)
      Diags.warning(PD->NameRange.Start,
                    "unused parameter '" + PD->Name + "'", PD->NameRange);
}

} // namespace vf
