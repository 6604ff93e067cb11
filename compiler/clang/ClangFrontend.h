//===- clang/ClangFrontend.h - C and C++ integrands through Clang -*- C++ -*-===//
//
// The C/C++ front end: a translation unit compiled by Clang, in this
// process, to LLVM IR for the host or for nvptx64-nvidia-cuda, after the
// portability checker (clang/PortabilityChecker.h) has looked at its AST.
// The rest of the compiler sees a C/C++ file only through these functions:
// codegen declares the functions a .vf file names `extern "file.cpp" fn`,
// the backends link compileForeignSource's module into the integrand's
// module before internalizing and optimising, so the C++ code inlines into
// the fused sampler like a .vf body.
//
// Built without Clang (-DVF_CLANG_INTEGRANDS=OFF, as the GPU pack is), the
// same functions exist and refuse with a message saying so.
//
//===----------------------------------------------------------------------===//
#ifndef VF_COMPILER_CLANG_CLANGFRONTEND_H
#define VF_COMPILER_CLANG_CLANGFRONTEND_H

#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"

#include <memory>
#include <string>
#include <vector>

namespace llvm {
class LLVMContext;
class Module;
} // namespace llvm

namespace vf {

/// Whether this build has the C/C++ front end.
bool clangIntegrandsBuilt();

enum class ForeignTarget { Host, NVPTX };

/// A function a .vf file calls in a C/C++ file, with its .vf signature: an
/// argument of size 0 is a real (C `vf_real`: double, or float in single
/// precision), of size n an array (C `const vf_real *`), and one in
/// PdfArgs a pdf (C `vf_pdf`); ResultSize 0 returns a vf_real, n writes to
/// a last `vf_real *out`.
struct ForeignFunction {
  std::string Name;
  std::vector<unsigned> ArgSizes;
  std::vector<bool> PdfArgs; ///< by argument, as ArgSizes
  unsigned ResultSize = 0;
  std::string DeclaredAt; ///< "file.vf:3:1", for messages
};

/// One C/C++ translation unit and what the .vf program expects of it.
struct ForeignSource {
  std::string Path; ///< as the .vf file resolved it
  std::vector<ForeignFunction> Functions;
  /// Compiled for single precision (--precision f32): vf_real is float
  /// (__VF_SINGLE__), and double arithmetic left in the optimised code is
  /// an error at its line.
  bool Single = false;
};

/// Where a VF_INTEGRAND argument is written, in bytes into the main file's
/// text (ForeignScan::Text), so that the front end's diagnostics on an
/// entry point at it; empty at the file's start when it is written in
/// another file (a macro of a header).
struct SourceSpan {
  unsigned Offset = 0, Length = 0;
};

/// A parameter of a VF_INTEGRAND entry; At is its name in the string, or
/// the whole string when that is not a plain literal ("a" "=1", escapes).
struct ForeignParam {
  std::string Name;
  double Default = 0;
  SourceSpan At;
};

/// An integrand defined in C/C++ by VF_INTEGRAND (vf/integrand.h).
struct ForeignEntry {
  std::string Name;   ///< the integrand's name; its C symbol is vf_cxx_NAME
  unsigned Dim = 0, Outputs = 1;
  std::vector<ForeignParam> Params;
  SourceSpan NameAt, DimAt, OutputsAt, ParamsAt; ///< the four arguments
};

/// What the preprocessor saw of a translation unit: its cache digest (the
/// file, every file it includes, the flags for the target, and Clang's
/// version), its VF_INTEGRAND entries and the main file's text they are
/// located in. Diagnostics (a missing include, a malformed VF_INTEGRAND)
/// are Clang's text. A C++ file that includes a header needing the C++
/// run-time library (<vector>, <string>, ...) is, for the host, compiled
/// with the system's C++ library instead of vegasflow's
/// (SystemLibrary); for a GPU it is refused at that #include.
struct ForeignScan {
  std::string Digest;
  std::vector<ForeignEntry> Entries;
  std::vector<std::string> Includes; ///< paths of the included files
  std::string Text;                  ///< the main file, as Clang read it
  bool SystemLibrary = false;
};
llvm::Expected<ForeignScan>
scanForeignSource(llvm::StringRef Path, ForeignTarget T, bool Single = false);

/// The checker's verdict on a translation unit: Diagnostics is Clang's
/// text (file:line:col, source line, caret). With \p Gpu, what cannot run
/// on a GPU is an error; without, a warning followed by a note that the
/// file runs on the CPU only. What breaks the engine's guarantees on any
/// device (mutable global state, exceptions, long double, inline asm) is
/// always an error. Without \p Warnings (vegasc -w), no warning is
/// reported (nor the notes that go with one).
struct ForeignCheck {
  bool Ok = false;
  std::string Diagnostics;
};
ForeignCheck checkForeignSource(const ForeignSource &S, bool Gpu,
                                bool Warnings = true);

/// Checks \p S (GPU rules as errors on NVPTX, as warnings on the host,
/// which go to \p Warnings) and compiles it to a module for \p T in \p Ctx,
/// with the expected functions' signatures verified, the math calls bound
/// to the math library (vf_exp, ...; vf_expf, ... in single precision),
/// and no per-function target attributes (the module takes the integrand
/// module's target). In single precision, double arithmetic is an error
/// (SinglePrecision.h).
llvm::Expected<std::unique_ptr<llvm::Module>>
compileForeignSource(const ForeignSource &S, ForeignTarget T,
                     llvm::LLVMContext &Ctx, std::string &Warnings);

/// Where Clang's time went, summed over every scanForeignSource and
/// compileForeignSource of this process, in milliseconds of steady-clock
/// time (bench/compile/compile_latency prints it): Scan is the
/// preprocessor's pass for the cache key and entries; Parse the parse and
/// semantic analysis (with the IR of the declarations Clang emits as it
/// goes); Check the portability checker and the signature check; CodeGen
/// the rest of IR generation (the deferred functions, which is most of
/// them) and preparing the module for linking.
struct ClangPhaseTimes {
  double Scan = 0, Parse = 0, Check = 0, CodeGen = 0;
};
ClangPhaseTimes clangPhaseTimes();

/// The text of the shipped header vf/integrand.h.
llvm::StringRef integrandHeaderText();

} // namespace vf

#endif // VF_COMPILER_CLANG_CLANGFRONTEND_H
