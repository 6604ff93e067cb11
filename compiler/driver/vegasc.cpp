//===- driver/vegasc.cpp - The vegasflow command-line driver --------------===//
//
// vegasc FILE.vf [options]. Exit codes (docs/user-guide.md):
//   0  success
//   1  the input has errors (compile errors, a failed run)
//   2  usage error (bad flags, missing file argument)
//
//===----------------------------------------------------------------------===//

#include "frontend/ASTDump.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "frontend/Lexer.h"
#include "vf/Version.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <CLI/CLI.hpp>

#include <string>

using namespace llvm;

namespace {

enum ExitCode { ExitOk = 0, ExitInputError = 1, ExitUsage = 2 };

struct Options {
  std::string File;
  bool Check = false;
  std::string Emit;
  bool NoWarnings = false;
  unsigned ErrorLimit = vf::DiagEngine::DefaultErrorLimit;
};

int emitTokens(const std::string &File) {
  vf::Program P;
  vf::DiagEngine Diags(P.SM, errs());
  auto BufOr = MemoryBuffer::getFile(File, /*IsText=*/true);
  if (!BufOr) {
    errs() << "vegasc: error: cannot read '" << File
           << "': " << BufOr.getError().message() << "\n";
    return ExitInputError;
  }
  StringRef Text = (*BufOr)->getBuffer();
  P.SM.AddNewSourceBuffer(std::move(*BufOr), SMLoc());
  for (const vf::Token &T : vf::lexBuffer(Text, Diags)) {
    auto LC = P.SM.getLineAndColumn(T.loc());
    outs() << LC.first << ':' << LC.second << ' '
           << vf::tokenKindName(T.Kind);
    if (!T.Text.empty())
      outs() << " '" << T.Text << "'";
    outs() << '\n';
  }
  return Diags.hasErrors() ? ExitInputError : ExitOk;
}

int run(const Options &O) {
  if (O.Emit == "tokens")
    return emitTokens(O.File);
  vf::Program P;
  vf::DiagEngine Diags(P.SM, errs());
  Diags.setErrorLimit(O.ErrorLimit);
  Diags.setWarningsEnabled(!O.NoWarnings);
  if (O.Emit == "ast") {
    bool Ok = vf::parseProgramFile(P, O.File, Diags);
    if (!P.Modules.empty())
      vf::dumpModule(*P.Modules[0], outs());
    Diags.finish();
    return Ok ? ExitOk : ExitInputError;
  }
  bool Ok = vf::loadProgramFile(P, O.File, Diags);
  Diags.finish();
  if (!Ok)
    return ExitInputError;
  if (O.Check) {
    outs() << O.File << ": ok (" << P.Integrands.size() << " integrand"
           << (P.Integrands.size() == 1 ? "" : "s") << ")\n";
    return ExitOk;
  }
  errs() << "vegasc: error: integration is not available in this build yet; "
            "use --check or --emit\n";
  return ExitUsage;
}

} // namespace

int main(int argc, char **argv) {
  CLI::App App{"vegasc: compile a .vf integrand and integrate it with VEGAS+ "
               "on every CPU core and GPU",
               "vegasc"};
  App.footer(R"(Examples:
  vegasc --check examples/lepage.vf       check a file for errors
  vegasc --emit=ast examples/lepage.vf    print the parsed program
  vegasc --emit=tokens examples/lepage.vf print the tokens

Exit codes: 0 success, 1 errors in the input, 2 usage error.)");
  Options O;
  App.add_option("file", O.File, "the .vf source file")->required();
  App.add_flag("--check", O.Check, "check the file and report every error");
  App.add_option("--emit", O.Emit, "print an intermediate form: tokens, ast")
      ->check(CLI::IsMember({"tokens", "ast"}));
  App.add_flag("-w,--no-warnings", O.NoWarnings, "do not print warnings");
  App.add_option("--error-limit", O.ErrorLimit,
                 "stop printing errors after this many (default 20)");
  App.set_version_flag("--version", std::string("vegasc ") +
                                        vf::versionString());
  try {
    App.parse(argc, argv);
  } catch (const CLI::ParseError &E) {
    int Code = App.exit(E);
    return Code == 0 ? ExitOk : ExitUsage;
  }
  return run(O);
}
