//===- vf/Developer.h - The compiler's own tools ----------------*- C++ -*-===//
//
// vegasc's developer modes as a library call: --check (every error of a
// file), --emit=FORM (tokens, ast, llvm-raw, llvm, asm, ptx) and --eval (an
// integrand's values at a point). They work on the compiler's internals
// (tokens, the AST, the reference evaluator, the backends), which no other
// public header shows, so the command line reaches them only through here.
// Each prints as vegasc does, diagnostics with carets and "vegasc: error:"
// lines on standard error and the form or the values on standard output,
// and returns vegasc's exit code: the command line's output is theirs,
// byte for byte. What they print goes through the library's own streams,
// which buffer standard output and keep a write error rather than stop at
// it; finishOutput() flushes them and says whether it was all written. A
// program that wants values rather than text uses vf::Module and
// vf::Integrator.
//
//===----------------------------------------------------------------------===//
#ifndef VF_DEVELOPER_H
#define VF_DEVELOPER_H

#include "vf/Expected.h"

#include <functional>
#include <map>
#include <string>
#include <vector>

namespace vf {

/// vegasc's documented exit codes (docs/user-guide.md).
enum ExitCode {
  ExitOk = 0,         ///< success
  ExitInputError = 1, ///< errors in the input or a failed run
  ExitUsage = 2,      ///< bad command line
};

/// What the developer modes read of vegasc's command line (its flags'
/// names in the comments); a single run reads the file, the integrand, the
/// parameters and the compile settings too.
struct DeveloperOptions {
  std::string File;
  bool Check = false;       ///< --check
  std::string Emit;         ///< --emit: tokens, ast, llvm-raw, llvm, asm, ptx
  bool Eval = false;        ///< --eval
  std::string At;           ///< --at x0,x1,...
  bool EvalOutside = false; ///< --at outside the domain: a warning only
  /// --at-t: --at gives the sampled t in [0, 1] on an infinite axis (and
  /// --eval prints the weight, f times the map's Jacobian), not x.
  bool AtT = false;
  std::string Integrand;           ///< --integrand
  std::vector<std::string> Params; ///< --param "name=value"
  /// --pdf-set "name=set": the set of pdf item name, replacing its own
  /// (vf::CompileSettings::PdfSets); the flag's parser checks the '='.
  std::vector<std::string> PdfSets;
  std::string GpuArch;             ///< --emit=ptx only; empty: defaultGpuArch()
  /// --precision f32: --emit and --eval of the single-precision code.
  bool Single = false;
  bool NoCache = false;
  std::string CacheDir;
  bool Verbose = false;
  bool NoWarnings = false;
  unsigned ErrorLimit = 20;
  /// --eval of a multi-channel integrand from a run's state (vegasc's
  /// --load-grid or --resume): the channels' sum at a point of the box
  /// with that state's weights and maps, given the integrand's name, the
  /// parameters and the point. Null: alpha = 1/m and identity maps, as
  /// the reference evaluator takes them.
  std::function<Expected<std::vector<double>>(const std::string &Integrand,
                                              const std::vector<double> &Params,
                                              const std::vector<double> &X)>
      StateValues;
};

/// Runs the mode \p O asks for (--emit=tokens, --emit=FORM, --check or
/// --eval), printing as vegasc does; returns the exit code.
int runDeveloperMode(const DeveloperOptions &O);

/// Flushes what the developer modes printed and fails, once, when standard
/// output or standard error could not be written, saying which and why
/// ("cannot write standard output: No space left on device"), so that the
/// tool exits with an error rather than as if all was said. The first call
/// also makes the streams: a tool that calls this from an exit handler
/// (std::atexit) calls it once before registering the handler, so that
/// the streams are destroyed after the handler has run.
Status finishOutput();

/// --pdf-set's "name=set" values as CompileSettings::PdfSets (the last
/// value of a name wins, as with --param).
std::map<std::string, std::string>
pdfSetChoices(const std::vector<std::string> &Flags);

/// The GPU architecture --emit=ptx compiles for when none is given.
std::string defaultGpuArch();

} // namespace vf

#endif // VF_DEVELOPER_H
