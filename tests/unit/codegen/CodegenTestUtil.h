//===- unit/codegen/CodegenTestUtil.h - Shared test helpers -----*- C++ -*-===//
//
// Helpers of the codegen unit tests: loading a program from source text,
// the distance in ulps between two doubles, counting the built-in call sites
// of an integrand (the differential test's tolerance is per site), reading
// tests/testdata/known_integrals.toml, and a temporary cache folder that is
// removed when the test ends.
//
//===----------------------------------------------------------------------===//
#ifndef VF_TESTS_UNIT_CODEGEN_CODEGENTESTUTIL_H
#define VF_TESTS_UNIT_CODEGEN_CODEGENTESTUTIL_H

#include "frontend/AST.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Program.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdint>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace vf::test {

/// Parses and checks \p Source; null (with the diagnostics in \p Errors)
/// if it has errors.
inline std::unique_ptr<Program> loadProgram(const std::string &Source,
                                            std::string *Errors = nullptr) {
  auto P = std::make_unique<Program>();
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  DiagEngine Diags(P->SM, OS);
  Diags.setWarningsEnabled(false);
  bool Ok = loadProgramSource(*P, "test.vf", Source, Diags);
  if (Errors)
    *Errors = OS.str();
  return Ok ? std::move(P) : nullptr;
}

/// |a - b| in units in the last place: the number of doubles between them
/// (so +0 and -0 are 0 apart, and the largest finite double is 1 from
/// infinity). NaN is "infinitely" far from everything, itself included; the
/// caller tests NaN first.
inline uint64_t ulpDistance(double A, double B) {
  auto Ordered = [](double D) {
    int64_t I;
    std::memcpy(&I, &D, sizeof I);
    return I < 0 ? static_cast<int64_t>(INT64_MIN - I) : I;
  };
  if (A != A || B != B)
    return UINT64_MAX;
  int64_t IA = Ordered(A), IB = Ordered(B);
  return IA > IB ? static_cast<uint64_t>(IA) - static_cast<uint64_t>(IB)
                 : static_cast<uint64_t>(IB) - static_cast<uint64_t>(IA);
}

/// The number of places in \p E where the JIT and the evaluator may round
/// differently: each built-in call and each `^` (pow in the evaluator,
/// vf_pow or a chain of multiplications in the JIT, see powSites) that Sema
/// did not fold.
/// A user fn's body counts once per call, since codegen inlines it; for
/// reductions see below. Sources must avoid cancellation, which would
/// amplify a 1-ulp difference without bound.
unsigned countMathSites(const Expr &E);

/// `x^n` with a constant integer |n| <= 4 is strength-reduced to
/// multiplications (and a division for n < 0), which stay within pow's
/// 2-ulp bound: one site. Any other `^` is one vf_pow call: one site.
inline unsigned powSites(const BinaryExpr &B) {
  if (B.Op != BinaryOp::Pow)
    return 0;
  return 1;
}

inline unsigned countBodySites(const Body &B) {
  unsigned N = 0;
  for (const auto &L : B.Lets)
    N += countMathSites(*L->Value);
  return N + countMathSites(*B.Result);
}

inline unsigned countMathSites(const Expr &E) {
  if (E.ConstValue)
    return 0;
  switch (E.Kind) {
  case ExprKind::Number:
  case ExprKind::Name:
    return 0;
  case ExprKind::Index: {
    const auto &I = static_cast<const IndexExpr &>(E);
    return countMathSites(*I.Base) + countMathSites(*I.Idx);
  }
  case ExprKind::Slice:
    return countMathSites(*static_cast<const SliceExpr &>(E).Base);
  case ExprKind::Unary:
    return countMathSites(*static_cast<const UnaryExpr &>(E).Operand);
  case ExprKind::Binary: {
    const auto &B = static_cast<const BinaryExpr &>(E);
    return powSites(B) + countMathSites(*B.LHS) + countMathSites(*B.RHS);
  }
  case ExprKind::Call: {
    const auto &C = static_cast<const CallExpr &>(E);
    unsigned N = C.Fn ? countBodySites(C.Fn->B) : 1;
    for (const ExprPtr &A : C.Args)
      N += countMathSites(*A);
    return N;
  }
  case ExprKind::If: {
    const auto &I = static_cast<const IfExpr &>(E);
    return countMathSites(*I.Cond) + countMathSites(*I.Then) +
           countMathSites(*I.Else);
  }
  case ExprKind::Reduce: {
    // The relative errors of a product's factors add up, so its body counts
    // once per iteration; a sum of terms each within k ulp is within about
    // k ulp (when they do not cancel), and min/max pick one term, so their
    // body counts once.
    const auto &R = static_cast<const ReduceExpr &>(E);
    long long Trips = R.HiValue > R.LoValue ? R.HiValue - R.LoValue : 0;
    unsigned Body = countMathSites(*R.Body);
    return R.Op == ReduceOp::Prod ? static_cast<unsigned>(Trips) * Body
                                  : Body;
  }
  case ExprKind::Vector: {
    unsigned N = 0;
    for (const ExprPtr &El : static_cast<const VectorExpr &>(E).Elements)
      N += countMathSites(*El);
    return N;
  }
  case ExprKind::Channel: // never lowered (codegen refuses channels)
    return 0;
  }
  return 0;
}

/// A fresh, empty folder under the system temporary folder, removed with
/// everything in it when this object dies.
class TempDir {
public:
  TempDir() {
    llvm::SmallString<128> P;
    if (!llvm::sys::fs::createUniqueDirectory("vf-codegen-test", P))
      Path = P.str().str();
  }
  ~TempDir() {
    if (!Path.empty())
      llvm::sys::fs::remove_directories(Path);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return Path; }

  /// The files directly in the folder whose names end with \p Suffix.
  std::vector<std::string> files(llvm::StringRef Suffix) const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::directory_iterator It(Path, EC), End;
         !EC && It != End; It.increment(EC))
      if (llvm::StringRef(It->path()).ends_with(Suffix))
        Out.push_back(It->path());
    return Out;
  }

private:
  std::string Path;
};

/// One entry of known_integrals.toml.
struct KnownIntegral {
  std::string Name;
  std::string Source;
};

/// All entries with a source, in file order; fails the calling test (and
/// returns none) if the file cannot be read. Defined in KnownIntegrals.cpp.
std::vector<KnownIntegral> loadKnownIntegrals();

} // namespace vf::test

#endif // VF_TESTS_UNIT_CODEGEN_CODEGENTESTUTIL_H
