//===- clang/EntryProgram.cpp - The program of a C/C++ main file ----------===//
//
// `vegasc me.cpp`: the VF_INTEGRAND entries Clang's scan found become the
// items a .vf program would declare for them, built as AST nodes located
// in the file's own text (the program's main buffer), so that Sema checks
// them as it checks any program and each of its diagnostics points at the
// entry's argument in me.cpp. Per entry, in the front end's terms:
//
//   param a = 1                        (each name once for the file)
//   extern "me.cpp" fn vf_cxx_NAME(x: [DIM], params: [P]) -> [OUTPUTS]
//   integrand NAME(x in [0, 1]^DIM) -> [OUTPUTS] {
//       let r = vf_cxx_NAME(x, [a, ...])
//       return r                       (r[0] for one output)
//   }
//
// where P is the number of parameters, the array `[0]` standing for none
// (a C array is never empty), and `[x]` is passed for DIM 1 (a 1-D
// variable is a real).
//
//===----------------------------------------------------------------------===//

#include "clang/CxxIntegrands.h"

#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Sema.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/Support/Path.h"

#include <cstdio>

using namespace llvm;

namespace vf {

namespace {

/// Enough digits that two defaults that differ read differently.
std::string number(double V) {
  char Buf[40];
  std::snprintf(Buf, sizeof Buf, "%.17g", V);
  return Buf;
}

/// The integrand's variable: what --eval's messages call the coordinates.
constexpr const char *Var = "x";

class EntryBuilder {
public:
  EntryBuilder(SourceModule &M, StringRef Text, StringRef Path,
               DiagEngine &Diags)
      : M(M), Text(Text), Path(Path), Diags(Diags) {}

  /// The file's parameters, each once, in the order they first appear
  /// (the parameter block's).
  void addParams(const std::vector<ForeignEntry> &Entries) {
    StringMap<const ForeignParam *> Seen;
    for (const ForeignEntry &E : Entries)
      for (const ForeignParam &Prm : E.Params) {
        auto [It, New] = Seen.try_emplace(Prm.Name, &Prm);
        if (New)
          addParam(Prm);
        else if (It->second->Default != Prm.Default)
          twoDefaults(*It->second, Prm);
      }
  }

  void addEntry(const ForeignEntry &E) {
    // addParams has reported it; its call would pass the variable.
    if (any_of(E.Params, [](const ForeignParam &P) { return P.Name == Var; }))
      return;
    auto [It, New] = Entries.try_emplace(E.Name, &E);
    if (!New) {
      // Its C function is defined twice as well: one error, at the name.
      Diags.error(range(E.NameAt).Start, "redefinition of '" + E.Name + "'",
                  range(E.NameAt));
      Diags.note(range(It->second->NameAt).Start,
                 "previous definition of integrand '" + E.Name + "' is here",
                 range(It->second->NameAt));
      return;
    }
    M.Items.push_back(externFn(E));
    M.Items.push_back(integrand(E));
  }

private:
  /// \p S as a range of the main buffer, clamped to it.
  SMRange range(SourceSpan S) const {
    const size_t Begin = std::min<size_t>(S.Offset, Text.size());
    const size_t End = std::min<size_t>(Begin + S.Length, Text.size());
    return {SMLoc::getFromPointer(Text.data() + Begin),
            SMLoc::getFromPointer(Text.data() + End)};
  }

  static ExprPtr num(double V, SMRange R) {
    return std::make_unique<NumberExpr>(R, V);
  }
  static ExprPtr name(StringRef N, SMRange R) {
    return std::make_unique<NameExpr>(R, N);
  }
  static ExprPtr vec(SMRange R, std::vector<ExprPtr> Elements) {
    return std::make_unique<VectorExpr>(R, std::move(Elements));
  }

  void addParam(const ForeignParam &Prm) {
    // The integrand's variable would hide the parameter in the call.
    if (Prm.Name == Var) {
      Diags.error(range(Prm.At).Start,
                  "parameter '" + Prm.Name +
                      "' has the name of the integrand's variable; name it "
                      "otherwise",
                  range(Prm.At));
      return;
    }
    auto D = std::make_unique<ParamDecl>();
    D->Name = Prm.Name;
    D->NameRange = range(Prm.At);
    D->Default = num(Prm.Default, D->NameRange);
    M.Items.push_back(std::move(D));
  }

  void twoDefaults(const ForeignParam &First, const ForeignParam &Second) {
    Diags.error(range(Second.At).Start,
                "parameter '" + Second.Name + "' has two defaults (" +
                    number(First.Default) + " and " + number(Second.Default) +
                    "); the file's integrands share their parameters",
                range(Second.At));
    Diags.note(range(First.At).Start,
               "its default is " + number(First.Default) + " here",
               range(First.At));
  }

  std::unique_ptr<FnDecl> externFn(const ForeignEntry &E) const {
    auto F = std::make_unique<FnDecl>();
    F->Name = "vf_cxx_" + E.Name;
    F->NameRange = range(E.NameAt);
    F->Extern = true;
    F->ExternPath = sys::path::filename(Path).str();
    F->ExternRange = F->NameRange;
    F->ExternFile = Path.str();
    const SMRange Dim = range(E.DimAt), Params = range(E.ParamsAt);
    F->Args.push_back({Var, Dim, num(E.Dim, Dim)});
    F->Args.push_back(
        {"params", Params,
         num(double(std::max<size_t>(1, E.Params.size())), Params)});
    F->ResultSizeExpr = num(E.Outputs, range(E.OutputsAt));
    return F;
  }

  std::unique_ptr<IntegrandDecl> integrand(const ForeignEntry &E) const {
    auto I = std::make_unique<IntegrandDecl>();
    I->Name = E.Name;
    I->NameRange = range(E.NameAt);
    const SMRange Dim = range(E.DimAt), Params = range(E.ParamsAt);
    I->Var = Var;
    I->VarRange = Dim;
    Interval Unit;
    Unit.Lo = num(0, Dim);
    Unit.Hi = num(1, Dim);
    Unit.Power = num(E.Dim, Dim);
    Unit.Range = Dim;
    I->Domain.push_back(std::move(Unit));
    if (E.Outputs > 1)
      I->OutputsExpr = num(E.Outputs, range(E.OutputsAt));

    std::vector<ExprPtr> Args, Values;
    ExprPtr X = name(Var, Dim);
    if (E.Dim == 1) {
      std::vector<ExprPtr> One;
      One.push_back(std::move(X));
      X = vec(Dim, std::move(One));
    }
    Args.push_back(std::move(X));
    for (const ForeignParam &Prm : E.Params)
      Values.push_back(name(Prm.Name, range(Prm.At)));
    if (Values.empty())
      Values.push_back(num(0, Params));
    Args.push_back(vec(Params, std::move(Values)));

    auto R = std::make_unique<LetStmt>();
    R->Name = "r";
    R->NameRange = I->NameRange;
    R->Value = std::make_unique<CallExpr>(I->NameRange, "vf_cxx_" + E.Name,
                                          I->NameRange, std::move(Args));
    I->B.Lets.push_back(std::move(R));
    I->B.Result = name("r", I->NameRange);
    if (E.Outputs == 1)
      I->B.Result = std::make_unique<IndexExpr>(
          I->NameRange, std::move(I->B.Result), num(0, I->NameRange));
    I->B.ReturnLoc = I->NameRange.Start;
    return I;
  }

  SourceModule &M;
  StringRef Text, Path;
  DiagEngine &Diags;
  StringMap<const ForeignEntry *> Entries;
};

/// Fills \p P with the program of \p Scan's entries (the main file \p Path)
/// and checks it; true when there is no error.
bool loadEntryProgram(Program &P, StringRef Path, ForeignScan Scan,
                      DiagEngine &Diags) {
  const unsigned Before = Diags.errorCount();
  auto M = std::make_unique<SourceModule>();
  M->Path = Path.str();
  M->IsMain = true;
  M->BufferID = P.SM.AddNewSourceBuffer(
      MemoryBuffer::getMemBufferCopy(Scan.Text, Path), SMLoc());
  StringRef Text = P.SM.getMemoryBuffer(M->BufferID)->getBuffer();
  EntryBuilder B(*M, Text, Path, Diags);
  B.addParams(Scan.Entries);
  for (const ForeignEntry &E : Scan.Entries)
    B.addEntry(E);
  P.Modules.push_back(std::move(M));
  checkProgram(P, Diags);
  return Diags.errorCount() == Before;
}

} // namespace

bool loadIntegrandFile(Program &P, StringRef Path, DiagEngine &Diags,
                       raw_ostream &ClangOut) {
  if (!isForeignSourcePath(Path))
    return loadProgramFile(P, Path, Diags);
  Expected<ForeignScan> Scan = scanForeignSource(Path, ForeignTarget::Host);
  if (!Scan) {
    ClangOut << toString(Scan.takeError());
    return false;
  }
  if (Scan->Entries.empty()) {
    ClangOut << Path
             << ": error: the file defines no integrand: mark one with "
                "VF_INTEGRAND(name, dim, outputs, \"params\") from "
                "vf/integrand.h\n";
    return false;
  }
  return loadEntryProgram(P, Path, std::move(*Scan), Diags);
}

} // namespace vf
