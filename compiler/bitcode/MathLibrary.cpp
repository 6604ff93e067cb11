//===- compiler/bitcode/MathLibrary.cpp - Link embedded bitcode -----------===//
//
// Parses embedded bitcode in place (bin2cpp aligns the arrays), adapts it to
// the destination module and links it with LinkOnlyNeeded; see
// MathLibrary.h for why each step is there. Link errors arrive through the
// LLVMContext's diagnostic handler, so a temporary handler collects them
// into an llvm::Error instead of letting the default one exit.
//
//===----------------------------------------------------------------------===//

#include "bitcode/MathLibrary.h"
#include "frontend/Builtins.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>
#include <optional>
#include <string>
#include <vector>

// Defined by the files bin2cpp generates for vf_add_bitcode(math ...).
extern "C" const unsigned char vf_bc_math_x86_64[];
extern "C" const unsigned long vf_bc_math_x86_64_len;
extern "C" const unsigned char vf_bc_math_nvptx64[];
extern "C" const unsigned long vf_bc_math_nvptx64_len;

using namespace llvm;

namespace vf {

namespace {

// Collects the text of error diagnostics raised during a link.
struct CollectingHandler : public DiagnosticHandler {
  std::string *Errors;
  explicit CollectingHandler(std::string *Errors) : Errors(Errors) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() == DS_Error) {
      raw_string_ostream OS(*Errors);
      DiagnosticPrinterRawOStream DP(OS);
      DI.print(DP);
      OS << "\n";
    }
    return true;
  }
};

// Installs a CollectingHandler for its lifetime, then puts the old one back.
class ScopedDiagnostics {
public:
  explicit ScopedDiagnostics(LLVMContext &Ctx)
      : Ctx(Ctx), Saved(Ctx.getDiagnosticHandler()) {
    Ctx.setDiagnosticHandler(std::make_unique<CollectingHandler>(&Errors));
  }
  ~ScopedDiagnostics() { Ctx.setDiagnosticHandler(std::move(Saved)); }
  const std::string &errors() const { return Errors; }

private:
  LLVMContext &Ctx;
  std::unique_ptr<DiagnosticHandler> Saved;
  std::string Errors;
};

// The library's entry points are the built-ins' math symbols: one table
// (VF_FOR_EACH_BUILTIN) for Sema, codegen and the linker.
#define VF_BUILTIN_SYMBOL(E, Name, Min, Max, Sym) Sym,
const char *const AllSymbols[] = {VF_FOR_EACH_BUILTIN(VF_BUILTIN_SYMBOL)};
#undef VF_BUILTIN_SYMBOL

std::vector<const char *> collectMathFunctions() {
  std::vector<const char *> F;
  for (const char *S : AllSymbols)
    if (*S) // min, max and clamp are open-coded, not library calls
      F.push_back(S);
  return F;
}

const std::vector<const char *> &mathFunctions() {
  static const std::vector<const char *> *F =
      new std::vector<const char *>(collectMathFunctions());
  return *F;
}

} // namespace

Error linkEmbeddedBitcode(Module &M, ArrayRef<unsigned char> Bitcode,
                          StringRef Name) {
  // (1) Parse the library in M's context, straight from the embedded bytes.
  MemoryBufferRef Buffer(
      StringRef(reinterpret_cast<const char *>(Bitcode.data()),
                Bitcode.size()),
      Name);
  Expected<std::unique_ptr<Module>> LibOrErr =
      parseBitcodeFile(Buffer, M.getContext());
  if (!LibOrErr)
    return createStringError(inconvertibleErrorCode(),
                             "cannot parse embedded bitcode '%s': %s",
                             Name.str().c_str(),
                             toString(LibOrErr.takeError()).c_str());
  std::unique_ptr<Module> Lib = std::move(*LibOrErr);

  // (2) The library was built for a generic CPU of the same architecture:
  // give it M's triple and layout, and drop the per-function CPU and
  // features so that it may inline into M's functions. "no-builtins"
  // (from -ffreestanding -fno-builtin) goes too: the inliner refuses to
  // mix it with callers that lack it, and the library calls no libc.
  if (!M.getTargetTriple().empty())
    Lib->setTargetTriple(M.getTargetTriple());
  Lib->setDataLayout(M.getDataLayout());
  for (Function &F : *Lib) {
    F.removeFnAttr("target-cpu");
    F.removeFnAttr("target-features");
    F.removeFnAttr("tune-cpu");
    F.removeFnAttr("no-builtins");
  }

  // (3) Remember what the library defines; after the link these are the
  // symbols to internalize.
  StringSet<> Defined;
  for (GlobalValue &GV : Lib->global_values())
    if (!GV.isDeclaration() && !GV.hasLocalLinkage())
      Defined.insert(GV.getName());

  // (4) Link only what M references (transitively).
  {
    ScopedDiagnostics Diags(M.getContext());
    if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded))
      return createStringError(inconvertibleErrorCode(),
                               "linking '%s' failed: %s", Name.str().c_str(),
                               Diags.errors().c_str());
  }

  // (5) Internalize the library's definitions: unused ones can be deleted
  // and the rest inlined.
  for (GlobalValue &GV : M.global_values())
    if (!GV.isDeclaration() && Defined.contains(GV.getName())) {
      GV.setLinkage(GlobalValue::InternalLinkage);
      GV.setVisibility(GlobalValue::DefaultVisibility);
    }
  return Error::success();
}

ArrayRef<unsigned char> mathLibraryBitcode(BitcodeTarget T) {
  switch (T) {
  case BitcodeTarget::Host:
    return ArrayRef(vf_bc_math_x86_64, vf_bc_math_x86_64_len);
  case BitcodeTarget::NVPTX:
    return ArrayRef(vf_bc_math_nvptx64, vf_bc_math_nvptx64_len);
  }
  llvm_unreachable("unknown bitcode target");
}

Error linkMathLibrary(Module &M, BitcodeTarget T) {
  if (Error E = linkEmbeddedBitcode(M, mathLibraryBitcode(T),
                                    T == BitcodeTarget::Host
                                        ? "vfmath-x86_64.bc"
                                        : "vfmath-nvptx64.bc"))
    return E;
  // The entry points must inline wherever they are called: a call left in
  // a loop stops the loop vectorizer, and vf_sin or vf_pow are above the
  // inliner's threshold once a module calls them more than once.
  for (const char *Name : mathFunctions())
    if (Function *F = M.getFunction(Name); F && !F->isDeclaration()) {
      F->removeFnAttr(Attribute::NoInline);
      F->addFnAttr(Attribute::AlwaysInline);
    }
  return Error::success();
}

ArrayRef<const char *> mathLibraryFunctions() { return mathFunctions(); }

const char *mathLibraryFunctionFor(StringRef Name) {
  std::optional<Builtin> B = lookupBuiltin(Name);
  if (!B || builtinInfo(*B).MathSymbol.empty())
    return nullptr;
  return builtinInfo(*B).MathSymbol.data();
}

} // namespace vf
