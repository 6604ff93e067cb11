//===- compiler/api/Module.cpp - Compile .vf source into integrands -------===//
//
// vf::Module (public, compiler/api/include/vf/Module.h) over the compiler's
// internals: front end with diagnostics captured as text, the process-wide
// JIT compiler, and bindIntegrand. The Compiler lives for the process: the
// code of every module compiled through it stays mapped.
//
//===----------------------------------------------------------------------===//

#include "vf/Module.h"

#include "backends/Compiler.h"
#include "backends/IntegrandBinding.h"
#include "frontend/Diagnostics.h"
#include "frontend/Frontend.h"
#include "clang/CxxIntegrands.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"

#include <mutex>

using namespace llvm;

namespace vf {

struct Module::Impl {
  std::shared_ptr<Program> P;
  std::unique_ptr<CompiledModule> Code;
  CompileOptions Options;
  std::string Warnings;
  /// What GPU code compiled later needs of the program, frozen once for
  /// all the module's bindings, when the first is made.
  std::once_flag GpuImageOnce;
  std::shared_ptr<const ProgramImage> GpuImage;
  /// The program in single precision (IntegrandInfo::Single): compiled
  /// once, when an integrator first asks for it, or why it could not be.
  std::once_flag SingleOnce;
  std::unique_ptr<CompiledModule> SingleCode;
  std::shared_ptr<const ProgramImage> SingleGpuImage;
  std::string SingleError;
};

/// The process-wide compiler: one LLJIT for every module, never destroyed
/// (JIT'd code may be referenced until exit). Started on first use, or
/// (with \p Start false) null until then.
static Expected<Compiler *> sharedCompiler(bool Start = true) {
  static std::mutex M;
  static Compiler *C = nullptr;
  std::lock_guard<std::mutex> Lock(M);
  if (!C && Start) {
    auto Created = Compiler::create();
    if (!Created)
      return Error{"cannot start the JIT compiler: " +
                   toString(Created.takeError())};
    C = Created->release();
  }
  return C;
}

static Expected<std::shared_ptr<Module>>
compile(bool IsFile, const std::string &PathOrSource, const std::string &Name,
        const CompileSettings &S) {
  auto I = std::make_shared<Module::Impl>();
  I->P = std::make_shared<Program>();
  I->P->PdfSets = S.PdfSets;
  std::string Text;
  raw_string_ostream OS(Text);
  DiagEngine Diags(I->P->SM, OS);
  // A library's message names no program ("vegasc: error:"); vegasc adds
  // its own heading (printCompileError).
  Diags.setTool("");
  Diags.setWarningsEnabled(S.Warnings);
  Diags.setErrorLimit(S.ErrorLimit);
  // A C/C++ file is the program of its VF_INTEGRAND entries.
  bool Ok = IsFile ? loadIntegrandFile(*I->P, PathOrSource, Diags, OS)
                   : loadProgramSource(*I->P, Name, PathOrSource, Diags);
  Diags.finish();
  if (!Ok)
    return Error{OS.str()};
  I->Warnings = OS.str();
  auto C = sharedCompiler();
  if (!C)
    return C.error();
  CompileOptions CO;
  CO.UseCache = S.UseCache;
  CO.CacheDir = S.CacheDir;
  CO.Single = S.Single;
  // An integrand is evaluated outside the sampler (events, a bad sample's
  // point, a user's call) through the sampler's own code; one without a
  // sampler gets the batch entry point, compiled now as everything is.
  CO.Evaluate = !llvm::all_of(I->P->Integrands, [](const IntegrandDecl *D) {
    return hasSampler(D->Dim, D->Outputs);
  });
  auto CM = (*C)->compile(*I->P, CO);
  if (!CM)
    return Error{toString(CM.takeError())};
  if (S.Warnings) // Clang's, on the C/C++ code
    I->Warnings += (*CM)->Warnings;
  I->Code = std::move(*CM);
  I->Options = CO;
  return std::make_shared<Module>(I);
}

Expected<std::shared_ptr<Module>>
Module::compileFile(const std::string &Path, const CompileSettings &S) {
  return compile(true, Path, Path, S);
}

Expected<std::shared_ptr<Module>>
Module::compileString(const std::string &Source, const std::string &Name,
                      const CompileSettings &S) {
  return compile(false, Source, Name, S);
}

std::vector<std::string> Module::integrandNames() const {
  std::vector<std::string> Names;
  for (const IntegrandDecl *I : P->P->Integrands)
    Names.push_back(I->Name);
  return Names;
}

std::vector<Module::DerivedItem> Module::derivedItems() const {
  std::vector<DerivedItem> Items;
  for (const DerivedDecl *D : P->P->Derived)
    Items.push_back({D->Name, D->Of ? D->Of->Name : std::string()});
  return Items;
}

std::vector<std::string> Module::inputFiles() const {
  std::vector<std::string> Files;
  // A C/C++ main file is also its entries' extern file: named once.
  auto Add = [&](const std::string &F) {
    if (llvm::find(Files, F) == Files.end())
      Files.push_back(F);
  };
  for (const auto &M : P->P->Modules) {
    // Standard modules are embedded text.
    if (M->Path.rfind("std/", 0) != 0 && sys::fs::is_regular_file(M->Path))
      Add(M->Path);
    for (const auto &I : M->Items)
      if (I->Kind == ItemKind::Fn && static_cast<const FnDecl &>(*I).Extern)
        Add(static_cast<const FnDecl &>(*I).ExternFile);
  }
  return Files;
}

/// \p I of \p P's program in single precision, its code compiled on the
/// first call.
static Expected<IntegrandInfo>
singleIntegrand(const std::shared_ptr<Module::Impl> &P, const IntegrandDecl &I,
                std::vector<std::string> Files) {
  auto C = sharedCompiler();
  if (!C)
    return C.error();
  CompileOptions CO = P->Options;
  CO.Single = true;
  std::call_once(P->SingleOnce, [&] {
    auto CM = (*C)->compile(*P->P, CO);
    if (!CM) {
      P->SingleError = toString(CM.takeError());
      return;
    }
    P->SingleCode = std::move(*CM);
    P->SingleGpuImage = gpuImage(*P->P, CO);
  });
  if (!P->SingleCode)
    return Error{"cannot compile integrand '" + I.Name +
                 "' in single precision: " + P->SingleError};
  IntegrandInfo Info =
      bindIntegrand(*P->P, *P->SingleCode, I, *C, CO, P->SingleGpuImage);
  Info.SourceFiles = std::move(Files);
  Info.Owner = P;
  return Info;
}

Expected<IntegrandInfo> Module::integrand(const std::string &Name) const {
  const auto &All = P->P->Integrands;
  const IntegrandDecl *Found = nullptr;
  if (Name.empty() && All.size() == 1)
    Found = All[0];
  else if (!Name.empty())
    Found = P->P->findIntegrand(Name);
  if (!Found) {
    std::string Names;
    for (const IntegrandDecl *I : All)
      Names += (Names.empty() ? "" : ", ") + I->Name;
    if (Name.empty())
      return Error{All.empty() ? "the module defines no integrand"
                               : "the module defines several integrands (" +
                                     Names + "); name one"};
    return Error{"no integrand named '" + Name + "'" +
                 (Names.empty() ? std::string() : "; the module has: " + Names)};
  }
  auto C = sharedCompiler();
  if (!C)
    return C.error();
  std::call_once(P->GpuImageOnce,
                 [&] { P->GpuImage = gpuImage(*P->P, P->Options); });
  IntegrandInfo Info =
      bindIntegrand(*P->P, *P->Code, *Found, *C, P->Options, P->GpuImage);
  Info.SourceFiles = inputFiles();
  if (!Info.SingleCode)
    Info.Single = [P = P, Found, Files = Info.SourceFiles] {
      return singleIntegrand(P, *Found, Files);
    };
  Info.Owner = P;
  return Info;
}

CompileCacheStats compileCacheStats() {
  auto C = sharedCompiler(/*Start=*/false);
  if (!C || !*C)
    return {};
  CacheStats S = (*C)->cacheStats();
  return {S.Hits, S.Misses, S.Corrupt};
}

const std::string &Module::warnings() const { return P->Warnings; }
bool Module::fromCache() const { return P->Code->HostFromCache; }

} // namespace vf
