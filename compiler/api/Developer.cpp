//===- api/Developer.cpp - vegasc's check, emit and eval modes ------------===//
//
// Errors are printed in the compiler's style ("vegasc: error: ...") and
// mapped to the documented exit codes; nothing here aborts on bad input.
// Everything goes to LLVM's outs() and errs(), the streams the front end's
// diagnostics use and finishOutput() flushes and checks at exit (vegasc
// calls it), so that the order of what is printed is the command line's.
//
//===----------------------------------------------------------------------===//

#include "vf/Developer.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "backends/IntegrandBounds.h"
#include "backends/Targets.h"
#include "frontend/ASTDump.h"
#include "frontend/Diagnostics.h"
#include "frontend/DomainMap.h"
#include "frontend/Evaluator.h"
#include "frontend/Frontend.h"
#include "frontend/Lexer.h"
#include "vf/CommandLine.h"
#include "clang/CxxIntegrands.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cmath>
#include <cstdio>

using namespace llvm;

namespace vf {

std::string defaultGpuArch() { return DefaultGpuArch; }

static int fail(const std::string &Msg, int Code = ExitInputError) {
  errs() << "vegasc: error: " << Msg << "\n";
  return Code;
}

/// \p V printed with the printf \p Format (one double conversion).
static std::string printfDouble(const char *Format, double V) {
  char Buf[64];
  std::snprintf(Buf, sizeof(Buf), Format, V);
  return Buf;
}

static int runEmitTokens(const DeveloperOptions &O) {
  Program P;
  DiagEngine Diags(P.SM, errs());
  auto BufOr = readSourceFile(O.File);
  if (!BufOr)
    return fail(toString(BufOr.takeError()));
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

/// What a compile refused, printed: located diagnostics (Clang's too) as
/// they are, any other failure (a file that cannot be read) as an error
/// line.
static int compileFailed(llvm::Error E) {
  const std::string Msg = toString(std::move(E));
  if (!StringRef(Msg).contains(": error: "))
    return fail(StringRef(Msg).rtrim().str());
  errs() << Msg;
  return ExitInputError;
}

static bool parsePoint(const DeveloperOptions &O, unsigned Dim,
                       std::vector<double> &X) {
  SmallVector<StringRef, 8> Parts;
  // No --at at all is a missing point, not an empty coordinate.
  if (!StringRef(O.At).trim().empty())
    StringRef(O.At).split(Parts, ',');
  for (StringRef Part : Parts) {
    double V;
    if (Part.trim().getAsDouble(V) || !std::isfinite(V)) {
      fail("--at: '" + Part.trim().str() + "' is not a finite number",
           ExitUsage);
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

namespace {

/// One coordinate of the domain as --at sees it: the user's bounds, and
/// on an infinite axis the map that takes the sampled t to x.
struct EvalAxis {
  double Lo, Hi;
  bool Infinite;
  InfiniteMap Map;
  double A, Scale; // the finite bound (or 0) and the map's scale
};

std::vector<EvalAxis> evalAxes(const IntegrandDecl &I,
                               ArrayRef<double> Params) {
  Evaluator E(Params);
  std::vector<EvalAxis> Axes;
  for (const Interval &Iv : I.Domain) {
    EvalAxis Ax{Iv.Lo ? E.eval(*Iv.Lo) : -INFINITY,
                Iv.Hi ? E.eval(*Iv.Hi) : INFINITY,
                Iv.isInfinite(),
                infiniteMapOf(bool(Iv.Lo), bool(Iv.Hi)),
                0,
                Iv.Scale ? E.eval(*Iv.Scale) : 1.0};
    Ax.A = Iv.Lo ? Ax.Lo : Iv.Hi ? Ax.Hi : 0.0;
    Axes.insert(Axes.end(), Iv.Count, Ax);
  }
  return Axes;
}

std::string coordinateName(const IntegrandDecl &I, size_t K) {
  return "coordinate " + std::to_string(K) + " (" + I.Var +
         (I.Dim > 1 ? "[" + std::to_string(K) + "]" : std::string()) + ")";
}

} // namespace

/// Whether the --at point \p X lies in \p I's domain (in the user's
/// coordinates; with --at-t, t in [0, 1] on an infinite axis); a point
/// outside is refused, naming the coordinate, or with --eval-outside only
/// warned about.
static bool insideDomain(const IntegrandDecl &I, ArrayRef<EvalAxis> Axes,
                         const DeveloperOptions &O, ArrayRef<double> X) {
  for (size_t K = 0; K < X.size(); ++K) {
    const bool AsT = O.AtT && Axes[K].Infinite;
    const double Lo = AsT ? 0.0 : Axes[K].Lo, Hi = AsT ? 1.0 : Axes[K].Hi;
    if (Lo <= X[K] && X[K] <= Hi)
      continue;
    std::string Msg = "--at: " + coordinateName(I, K) + " is " +
                      printfDouble("%.15g", X[K]) + ", outside [" +
                      printfDouble("%.15g", Lo) + ", " +
                      printfDouble("%.15g", Hi) + "]" +
                      (AsT ? " (t of an infinite axis, with --at-t)"
                           : std::string(" of the domain of '") + I.Name + "'");
    if (!O.EvalOutside) {
      fail(Msg + "; give a point of the domain, or --eval-outside to "
                 "evaluate there anyway",
           ExitUsage);
      return false;
    }
    if (!O.NoWarnings)
      errs() << "vegasc: warning: " << Msg << "\n";
  }
  return true;
}

/// \p X (the user's coordinates) as the point of the box the compiled
/// integrand takes: t on an infinite axis (DomainMap.h), and \p Jac the
/// product of the maps' Jacobians there (1 without an infinite axis), in
/// the compiled code's order. False (reported) for an x beyond the
/// reach of its map; an x the map's roundings cannot hit exactly is
/// evaluated at the nearest one, with a note.
static bool toBox(const IntegrandDecl &I, ArrayRef<EvalAxis> Axes,
                  const DeveloperOptions &O, std::vector<double> &X,
                  double &Jac) {
  Jac = 1.0;
  for (size_t K = 0; K < X.size(); ++K) {
    const EvalAxis &Ax = Axes[K];
    if (!Ax.Infinite || O.AtT)
      continue;
    const double T = unmapInfinite(Ax.Map, Ax.A, Ax.Scale, X[K]);
    double Mapped = 0;
    // Near the end a double t no longer resolves x: refused like the end.
    if (mapInfinite(Ax.Map, Ax.A, Ax.Scale, T, Mapped, Jac) ||
        std::fabs(Mapped - X[K]) > 0x1p-40 * std::fabs(X[K])) {
      fail("--at: " + coordinateName(I, K) + " is " +
               printfDouble("%.15g", X[K]) +
               ", beyond the reach of the map of its infinite axis (t "
               "would be within 2^-53 of its end; give a point nearer the "
               "map's scale " +
               printfDouble("%.15g", Ax.Scale) + ")",
           ExitUsage);
      return false;
    }
    if (Mapped != X[K] && !O.NoWarnings)
      errs() << "vegasc: note: --at: " << coordinateName(I, K)
             << " is evaluated at " << printfDouble("%.17g", Mapped)
             << ", the nearest point the map of its infinite axis reaches\n";
    X[K] = T;
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

/// After --eval's values, where the point falls in each histogram:
/// "hist NAME: bin 3", "bin (1, 0)", "underflow", "overflow", "outside".
static void printCells(const IntegrandDecl &I, const CompiledIntegrand &CI,
                       const std::vector<double> &X,
                       const std::vector<double> &Params) {
  if (!CI.Cells)
    return;
  std::vector<double> Cells(I.Histograms.size());
  callCompiled(CI.Cells, X.data(), 1, Params.data(), Cells.data());
  for (size_t K = 0; K < Cells.size(); ++K) {
    const HistStmt &H = *I.Histograms[K];
    // The cells' layout: HistogramCells.h.
    const vf_u64 C = vf_u64(Cells[K]) - H.Base;
    const vf_u64 Below = vf_hist_outside_cell(H.Axes, H.Bins[0], 1);
    const vf_u64 Above = vf_hist_outside_cell(H.Axes, H.Bins[0], 0);
    const vf_u64 Flat = C - vf_hist_bin_cell(0);
    outs() << "hist " << H.Name << ": ";
    if (C == Below || C == Above)
      outs() << (H.Axes == 2  ? "outside"
                 : C == Below ? "underflow"
                              : "overflow")
             << "\n";
    else if (H.Axes == 1)
      outs() << "bin " << Flat << "\n";
    else
      outs() << "bin (" << Flat / H.Bins[1] << ", " << Flat % H.Bins[1]
             << ")\n";
  }
}

/// After --eval's values and cells, each weight list's entries on a line,
/// "weights NAME: e0 e1 ...", divided by the maps' Jacobian \p Jac as the
/// values are.
static void printWeights(const IntegrandDecl &I, const CompiledIntegrand &CI,
                         const std::vector<double> &X,
                         const std::vector<double> &Params, double Jac) {
  if (!CI.Weights)
    return;
  std::vector<double> Entries(I.WeightEntries);
  callCompiled(CI.Weights, X.data(), Params.data(), Entries.data());
  for (const WeightsStmt *W : I.WeightLists) {
    outs() << "weights " << W->Name << ":";
    for (unsigned K = 0; K < W->Length; ++K)
      outs() << " " << printfDouble("%.17g", Entries[W->Base + K] / Jac);
    outs() << "\n";
  }
}

static int runEval(const Program &P, const DeveloperOptions &O, Compiler &C,
                   const CompileOptions &CO) {
  std::vector<std::string> Names, ParamNames;
  for (const IntegrandDecl *I : P.Integrands)
    Names.push_back(I->Name);
  for (const ParamDecl *PD : P.Params)
    ParamNames.push_back(PD->Name);
  Expected<std::string> Name = chooseIntegrand(Names, O.Integrand, O.File);
  if (!Name)
    return fail(Name.message());
  const IntegrandDecl *I = P.findIntegrand(*Name);
  Expected<std::vector<double>> Values =
      applyParams(ParamNames, P.defaultParams(), O.Params);
  if (!Values)
    return fail(Values.message(), ExitUsage);
  std::vector<double> Params = std::move(*Values), X;
  if (!parsePoint(O, I->Dim, X))
    return ExitUsage;
  const std::vector<EvalAxis> Axes = evalAxes(*I, Params);
  double Jac = 1.0;
  if (!insideDomain(*I, Axes, O, X) || !toBox(*I, Axes, O, X, Jac))
    return ExitUsage;
  auto CM = C.compile(P, CO);
  if (!CM)
    return compileFailed(CM.takeError());
  if (!O.NoWarnings)
    errs() << (*CM)->Warnings;
  const CompiledIntegrand *CI = (*CM)->find(I->Name);
  std::vector<double> Out(I->Outputs);
  // C/C++ code's faults are reported as the integrand's (IntegrandFaults.h).
  auto Site = integrandFaultSite(P, I->Name);
  // The bins the point falls in are printed: their ranges must be binnable.
  std::vector<double> Ranges;
  if (Status S =
          IntegrandBounds(P, *I, CI->Bounds, Site).histRanges(Params, Ranges);
      !S)
    return fail(S.message(), ExitInputError);
  auto Guarded = [&](const auto &Fn) {
    if (Site)
      runIntegrandCode(*Site, Fn);
    else
      Fn();
  };
  if (O.StateValues && !I->Channels.empty()) {
    Expected<std::vector<double>> V = O.StateValues(I->Name, Params, X);
    if (!V)
      return fail(V.message(), ExitInputError);
    Out = std::move(*V);
  } else {
    Guarded([&] {
      callCompiled(CI->Batch, X.data(), 1, Params.data(), Out.data());
    });
  }
  for (double V : Out) {
    // The compiled integrand multiplies the maps' Jacobian in; f(x) is
    // its weight divided by it (to the last bit or so).
    char Buf[64];
    std::snprintf(Buf, sizeof(Buf), "%.17g", V / Jac);
    outs() << Buf << "\n";
  }
  Guarded([&] { printCells(*I, *CI, X, Params); });
  Guarded([&] { printWeights(*I, *CI, X, Params, Jac); });
  return ExitOk;
}

/// The integrands with more components than integration takes: they are
/// evaluated (--eval, event records) but not integrated, which --check
/// says rather than leaving it to the run.
static void noteUnintegrable(const Program &P) {
  for (const IntegrandDecl *I : P.Integrands)
    if (I->Outputs > VF_SAMPLER_MAX_OUT)
      outs() << "note: integrand '" << I->Name << "' returns " << I->Outputs
             << " values: it can be evaluated and serve as an event record "
                "(up to 1024 values), but not be integrated (at most "
             << VF_SAMPLER_MAX_OUT
             << " components: the sampler keeps a covariance per "
                "hypercube)\n";
}

std::map<std::string, std::string>
pdfSetChoices(const std::vector<std::string> &Flags) {
  std::map<std::string, std::string> Sets;
  for (const std::string &F : Flags)
    if (auto Eq = F.find('='); Eq != std::string::npos)
      Sets[F.substr(0, Eq)] = F.substr(Eq + 1);
  return Sets;
}

/// --check, --emit (but tokens) and --eval.
static int runCompilerModes(const DeveloperOptions &O) {
  auto PP = std::make_shared<Program>();
  Program &P = *PP;
  P.PdfSets = pdfSetChoices(O.PdfSets);
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
  bool Ok = loadIntegrandFile(P, O.File, Diags, errs());
  Diags.finish();
  if (!Ok)
    return ExitInputError;
  // The C/C++ files as a GPU would need them: --check promises a file that
  // runs on every device (in single precision too with --precision f32).
  if (O.Check &&
      !checkForeignSources(P, /*Gpu=*/true, errs(), !O.NoWarnings, O.Single))
    return ExitInputError;
  if (O.Check) {
    outs() << O.File << ": ok (" << P.Integrands.size() << " integrand"
           << (P.Integrands.size() == 1 ? "" : "s") << ")\n";
    noteUnintegrable(P);
    return ExitOk;
  }
  auto C = Compiler::create();
  if (!C)
    return fail("cannot start the JIT compiler: " + toString(C.takeError()));
  CompileOptions CO;
  CO.UseCache = !O.NoCache;
  CO.CacheDir = O.CacheDir;
  CO.Single = O.Single;
  if (!O.GpuArch.empty())
    CO.GpuArch = O.GpuArch;
  int Code;
  if (!O.Emit.empty()) {
    auto Text = (*C)->emitText(P, *emitKind(O.Emit), CO);
    if (!Text)
      return compileFailed(Text.takeError());
    outs() << *Text;
    Code = ExitOk;
  } else {
    CO.Sampler = false; // --eval calls the integrand only
    Code = runEval(P, O, **C, CO);
  }
  if (O.Verbose) {
    CacheStats S = (*C)->cacheStats();
    errs() << "vegasc: cache: " << S.Hits << " hit" << (S.Hits == 1 ? "" : "s")
           << ", " << S.Misses << " miss" << (S.Misses == 1 ? "" : "es") << ", "
           << S.Corrupt << " corrupt\n";
  }
  return Code;
}

int runDeveloperMode(const DeveloperOptions &O) {
  return O.Emit == "tokens" ? runEmitTokens(O) : runCompilerModes(O);
}

/// Flushes \p S and takes its write error: "cannot write NAME: why", or "".
static std::string takeStreamError(raw_fd_ostream &S, const char *Name) {
  S.flush();
  if (!S.has_error())
    return "";
  std::string Why =
      std::string("cannot write ") + Name + ": " + S.error().message();
  S.clear_error();
  return Why;
}

Status finishOutput() {
  // A stream left with an error would end the process from its destructor
  // ("LLVM ERROR: IO failure on output stream"): both errors are taken
  // here, standard output's said first.
  std::string Out = takeStreamError(outs(), "standard output");
  std::string Err = takeStreamError(errs(), "standard error");
  if (Out.empty() && Err.empty())
    return Status::ok();
  return Error{Out.empty() ? Err : Out};
}

} // namespace vf
