//===- driver/Modes.cpp - vegasc's check, emit and eval modes -------------===//
//
// Errors are printed in the compiler's style ("vegasc: error: ...") and
// mapped to the documented exit codes; nothing here aborts on bad input.
//
//===----------------------------------------------------------------------===//

#include "driver/Driver.h"

#include "backends/Compiler.h"
#include "frontend/ASTDump.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Lexer.h"

#include "vf/Integrator.h"
#include "vf/Version.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <cstdio>

using namespace llvm;

namespace vf {

int fail(const std::string &Msg, int Code) {
  errs() << "vegasc: error: " << Msg << "\n";
  return Code;
}

int runEmitTokens(const DriverOptions &O) {
  Program P;
  DiagEngine Diags(P.SM, errs());
  auto BufOr = MemoryBuffer::getFile(O.File, /*IsText=*/true);
  if (!BufOr)
    return fail("cannot read '" + O.File + "': " + BufOr.getError().message());
  StringRef Text = (*BufOr)->getBuffer();
  P.SM.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  for (const Token &T : lexBuffer(Text, Diags)) {
    auto LC = P.SM.getLineAndColumn(T.loc());
    outs() << LC.first << ':' << LC.second << ' ' << tokenKindName(T.Kind);
    if (!T.Text.empty())
      outs() << " '" << T.Text << "'";
    outs() << '\n';
  }
  return Diags.hasErrors() ? ExitInputError : ExitOk;
}

/// The integrand named by --integrand, or the file's only one.
bool writeOutput(const std::string &Path, const std::string &Text) {
  if (Path == "-") {
    outs() << Text;
    outs().flush();
    return true;
  }
  std::error_code EC;
  raw_fd_ostream OS(Path, EC);
  if (!EC) {
    OS << Text;
    OS.close();
    EC = OS.error();
  }
  if (EC)
    fail("cannot write '" + Path + "': " + EC.message());
  return !EC;
}

const IntegrandDecl *selectIntegrand(const Program &P,
                                            const DriverOptions &O) {
  if (!O.Integrand.empty()) {
    if (const IntegrandDecl *I = P.findIntegrand(O.Integrand))
      return I;
    std::string Names;
    for (const IntegrandDecl *I : P.Integrands)
      Names += (Names.empty() ? "" : ", ") + I->Name;
    fail("no integrand named '" + O.Integrand + "' in " + O.File +
         (Names.empty() ? std::string() : "; it has: " + Names));
    return nullptr;
  }
  if (P.Integrands.size() == 1)
    return P.Integrands[0];
  if (P.Integrands.empty()) {
    fail(O.File + " defines no integrand");
    return nullptr;
  }
  std::string Names;
  for (const IntegrandDecl *I : P.Integrands)
    Names += (Names.empty() ? "" : ", ") + I->Name;
  fail(O.File + " defines several integrands (" + Names +
       "); choose one with --integrand NAME");
  return nullptr;
}

/// Applies --param name=value to the default parameter values.
bool parseParams(const Program &P, const DriverOptions &O,
                        std::vector<double> &Values) {
  Values = P.defaultParams();
  for (const std::string &S : O.Params) {
    auto [Name, Val] = StringRef(S).split('=');
    double V;
    if (Val.empty() || Val.trim().getAsDouble(V)) {
      fail("--param '" + S + "': expected NAME=VALUE with a number",
           ExitUsage);
      return false;
    }
    bool Found = false;
    for (const ParamDecl *PD : P.Params)
      if (PD->Name == Name.trim()) {
        Values[PD->Slot] = V;
        Found = true;
      }
    if (!Found) {
      std::vector<StringRef> Names;
      for (const ParamDecl *PD : P.Params)
        Names.push_back(PD->Name);
      StringRef Best = closestName(Name.trim(), Names);
      fail("unknown parameter '" + Name.trim().str() + "'" +
               (Best.empty() ? std::string()
                             : "; did you mean '" + Best.str() + "'?"),
           ExitUsage);
      return false;
    }
  }
  return true;
}

static bool parsePoint(const DriverOptions &O, unsigned Dim,
                       std::vector<double> &X) {
  SmallVector<StringRef, 8> Parts;
  // No --at at all is a missing point, not an empty coordinate.
  if (!StringRef(O.At).trim().empty())
    StringRef(O.At).split(Parts, ',');
  for (StringRef Part : Parts) {
    double V;
    if (Part.trim().getAsDouble(V)) {
      fail("--at: '" + Part.trim().str() + "' is not a number", ExitUsage);
      return false;
    }
    X.push_back(V);
  }
  if (X.size() != Dim) {
    fail("--at needs " + std::to_string(Dim) + " comma-separated coordinate" +
             (Dim == 1 ? "" : "s") + ", got " + std::to_string(X.size()),
         ExitUsage);
    return false;
  }
  return true;
}

static std::optional<EmitKind> emitKind(StringRef S) {
  if (S == "llvm-raw")
    return EmitKind::LLVMRaw;
  if (S == "llvm")
    return EmitKind::LLVM;
  if (S == "asm")
    return EmitKind::Asm;
  if (S == "ptx")
    return EmitKind::PTX;
  return std::nullopt;
}

static int runEval(const Program &P, const DriverOptions &O, Compiler &C,
                   const CompileOptions &CO) {
  const IntegrandDecl *I = selectIntegrand(P, O);
  std::vector<double> Params, X;
  if (!I)
    return ExitInputError;
  if (!parseParams(P, O, Params) || !parsePoint(O, I->Dim, X))
    return ExitUsage;
  auto CM = C.compile(P, CO);
  if (!CM)
    return fail(toString(CM.takeError()));
  const CompiledIntegrand *CI = (*CM)->find(I->Name);
  std::vector<double> Out(I->Outputs);
  CI->Batch(X.data(), 1, Params.data(), Out.data());
  for (double V : Out) {
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", V);
    outs() << Buf << "\n";
  }
  return ExitOk;
}

int runCompilerModes(const DriverOptions &O) {
  auto PP = std::make_shared<Program>();
  Program &P = *PP;
  DiagEngine Diags(P.SM, errs());
  Diags.setErrorLimit(O.ErrorLimit);
  Diags.setWarningsEnabled(!O.NoWarnings);
  if (O.Emit == "ast") {
    bool Ok = parseProgramFile(P, O.File, Diags);
    if (!P.Modules.empty())
      dumpModule(*P.Modules[0], outs());
    Diags.finish();
    return Ok ? ExitOk : ExitInputError;
  }
  bool Ok = loadProgramFile(P, O.File, Diags);
  Diags.finish();
  if (!Ok)
    return ExitInputError;
  if (O.Check) {
    outs() << O.File << ": ok (" << P.Integrands.size() << " integrand"
           << (P.Integrands.size() == 1 ? "" : "s") << ")\n";
    return ExitOk;
  }
  auto C = Compiler::create();
  if (!C)
    return fail("cannot start the JIT compiler: " + toString(C.takeError()));
  CompileOptions CO;
  CO.UseCache = !O.NoCache;
  CO.CacheDir = O.CacheDir;
  CO.GpuArch = O.GpuArch;
  int Code;
  if (!O.Emit.empty()) {
    auto Text = (*C)->emitText(P, *emitKind(O.Emit), CO);
    if (!Text)
      return fail(toString(Text.takeError()));
    outs() << *Text;
    Code = ExitOk;
  } else if (integrates(O)) {
    Code = runIntegrate(PP, O, **C, CO);
  } else {
    CO.Sampler = false; // --eval calls the integrand only
    Code = runEval(P, O, **C, CO);
  }
  if (O.Verbose) {
    CacheStats S = (*C)->cacheStats();
    errs() << "vegasc: cache: " << S.Hits << " hit" << (S.Hits == 1 ? "" : "s")
           << ", " << S.Misses << " miss" << (S.Misses == 1 ? "" : "es")
           << ", " << S.Corrupt << " corrupt\n";
  }
  return Code;
}

void addRunSettings(nlohmann::ordered_json &S, const RunSettings &R) {
  S["seed"] = R.Seed;
  S["calls"] = R.Calls;
  S["iterations"] = R.Iterations;
  S["warmup"] = R.Warmup;
  S["alpha"] = R.Alpha;
  S["beta"] = R.Beta;
  S["ninc"] = R.Ninc;
  S["devices"] = R.Devices;
  S["schedule"] = R.Schedule;
  S["cpu_threads"] = R.CpuThreads;
  S["mpi_ranks"] = R.MpiRanks;
  S["on_nonfinite"] = R.OnNonFinite;
  nlohmann::ordered_json Ps = nlohmann::ordered_json::object();
  for (const auto &[Name, Value] : R.Params)
    Ps[Name] = Value;
  S["params"] = Ps;
  S["versions"] = {{"vegasflow", versionString()},
                   {"llvm", LLVM_VERSION_STRING}};
}

unsigned cpuThreadsOf(const Integrator &Int) {
  unsigned N = 0;
  for (const WorkerInfo &W : Int.devices())
    N += W.Kind == "cpu";
  return N;
}

} // namespace vf
