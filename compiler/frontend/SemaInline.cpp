//===- frontend/SemaInline.cpp - The size of integrands once inlined ------===//
//
// Codegen inlines a user fn at every call and repeats an unrolled
// reduction's body for every index, so the code of an integrand can be
// exponentially larger than its source: `fn f{i}(a) = f{i-1}(a) +
// f{i-1}(a)` doubles at each level, and 40 levels never finish compiling.
// Sema measures that size (nodes of the expression tree, every call
// replaced by its callee's body) for each integrand and refuses one over
// MaxInlinedSize at the call that makes it so, with the chain of calls, so
// that --check says it too.
//
//===----------------------------------------------------------------------===//

#include "frontend/Sema.h"
#include "frontend/SemaInternal.h"

#include "llvm/ADT/DenseMap.h"

using namespace llvm;

namespace vf {

namespace {

/// A body's size once inlined, and its call that adds the most (null when
/// it calls no fn).
struct Inlined {
  uint64_t Size = 0;
  const CallExpr *Biggest = nullptr;
};

class InlineSizer : public NodeCounter<InlineSizer> {
public:
  Inlined body(const Body &B) {
    Inlined Saved = Current;
    Current = {};
    uint64_t N = 1;
    for (const auto &L : B.Lets)
      N = satAdd(N, visit(*L->Value));
    N = satAdd(N, visit(*B.Result));
    Inlined Got{N, Current.Biggest};
    Current = Saved;
    return Got;
  }
  /// F's size once inlined (memoized: each fn is measured once).
  const Inlined &fn(const FnDecl &F) {
    auto It = Memo.find(&F);
    if (It != Memo.end())
      return It->second;
    Memo[&F] = {}; // a cycle (reported as recursion) adds nothing
    // An extern fn is a call into C or C++ code, which is not inlined here.
    Inlined Got = F.Extern || !F.B.Result ? Inlined{1, nullptr} : body(F.B);
    return Memo[&F] = Got;
  }

  uint64_t visitCall(const CallExpr &E) {
    uint64_t N = 1;
    for (const ExprPtr &A : E.Args)
      N = satAdd(N, visit(*A));
    if (!E.Fn)
      return N;
    const uint64_t Callee = fn(*E.Fn).Size;
    if (!Current.Biggest || Callee > Current.Size) {
      Current.Biggest = &E;
      Current.Size = Callee;
    }
    return satAdd(N, Callee);
  }
  uint64_t visitIf(const IfExpr &E) {
    return satAdd(1, satAdd(visit(*E.Cond),
                            satAdd(visit(*E.Then), visit(*E.Else))));
  }
  uint64_t visitReduce(const ReduceExpr &E) {
    // A loop is emitted once; an unrolled reduction once per index.
    uint64_t Copies =
        E.Unroll ? static_cast<uint64_t>(std::max(1ll, E.HiValue - E.LoValue))
                 : 1;
    return satAdd(1, satMul(Copies, visit(*E.Body)));
  }

private:
  DenseMap<const FnDecl *, Inlined> Memo;
  /// The body being measured: its biggest call so far (Size: the callee's).
  Inlined Current;
};

/// "g -> f24 -> f23 -> ... -> f0": from the integrand down its biggest
/// calls, the middle left out when long.
std::string callChain(const IntegrandDecl &D, const CallExpr *First,
                      InlineSizer &Sizer) {
  std::vector<std::string> Names{D.Name};
  for (const CallExpr *C = First; C && C->Fn && Names.size() < 1000;
       C = Sizer.fn(*C->Fn).Biggest)
    Names.push_back(C->Fn->Name);
  std::string Chain;
  for (size_t K = 0; K < Names.size(); ++K) {
    if (Names.size() > 8 && K >= 4 && K + 2 < Names.size()) {
      if (K == 4)
        Chain += " -> ...";
      continue;
    }
    Chain += (K ? " -> " : "") + Names[K];
  }
  return Chain;
}

} // namespace

void SemaImpl::checkInlinedSizes() {
  InlineSizer Sizer;
  for (const IntegrandDecl *D : P.Integrands) {
    Inlined Got = D->Channels.empty() ? Sizer.body(D->B) : Inlined{};
    for (const auto &C : D->Channels) {
      Inlined One = Sizer.body(C->B);
      Got.Size = satAdd(Got.Size, One.Size);
      Got.Biggest = Got.Biggest ? Got.Biggest : One.Biggest;
    }
    if (Got.Size <= MaxInlinedSize)
      continue;
    const std::string Why =
        "integrand '" + D->Name + "' would be " +
        (Got.Size == UINT64_MAX ? std::string("more than 2^64")
                                : std::to_string(Got.Size)) +
        " operations long once its function calls are inlined, more than "
        "the " +
        std::to_string(MaxInlinedSize) + " allowed";
    if (!Got.Biggest) {
      Diags.error(D->NameRange.Start, Why + " (its unrolled reductions)",
                  D->NameRange);
      continue;
    }
    Diags.error(Got.Biggest->CalleeRange.Start,
                Why + ": " + callChain(*D, Got.Biggest, Sizer) +
                    "; a function is inlined at every call, so one that "
                    "calls another twice doubles it: bind a value used "
                    "twice with 'let'",
                Got.Biggest->CalleeRange);
  }
}

} // namespace vf
