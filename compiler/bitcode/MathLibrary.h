//===- compiler/bitcode/MathLibrary.h - Link embedded bitcode ---*- C++ -*-===//
//
// Links the project's embedded bitcode libraries into an integrand module.
// The math library (stdlib/math, compiled to bitcode for x86-64 and nvptx64
// at build time and embedded by vf_add_bitcode) provides every math
// built-in as a plain function `vf_<name>`; codegen emits calls to those
// names and linkMathLibrary pulls in exactly the functions the module uses.
//
// Linking follows Halide's runtime linker: the library takes the module's
// triple and data layout, loses its per-function target-cpu/features and
// "no-builtins" (so it inlines into code built for the host CPU or the
// chosen sm_XX), is linked
// with Linker::LinkOnlyNeeded, and everything it brought is internalized so
// that the optimizer inlines it and drops what is left unused.
//
//===----------------------------------------------------------------------===//

#ifndef VF_COMPILER_BITCODE_MATHLIBRARY_H
#define VF_COMPILER_BITCODE_MATHLIBRARY_H

namespace llvm {
class Error;
class Module;
class StringRef;
template <typename T> class ArrayRef;
} // namespace llvm

namespace vf {

/// Which of the embedded builds of a bitcode library to use.
enum class BitcodeTarget { Host, NVPTX };

/// Links the functions of Bitcode (an embedded LLVM bitcode file; Name is
/// used in diagnostics) that M references into M, then internalizes every
/// definition that came from the library. Fails if the bitcode does not
/// parse or the link fails (e.g. a symbol is defined twice).
llvm::Error linkEmbeddedBitcode(llvm::Module &M,
                                llvm::ArrayRef<unsigned char> Bitcode,
                                llvm::StringRef Name);

/// The embedded math library bitcode for target T.
llvm::ArrayRef<unsigned char> mathLibraryBitcode(BitcodeTarget T);

/// Links the math functions M calls (declared as `double vf_exp(double)`,
/// `float vf_expf(float)` and so on) into M, marked alwaysinline so that
/// loops calling them vectorize. For the host, the out-of-line slow paths of
/// exp, log, sin, cos and tan (vf__exp_special, vf__sin_big, vf__sinf_big,
/// ...) get masked vector variants of widths 2, 4 and 8 (floats: 4, 8 and
/// 16; alwaysinline, for optimizeModule's late inliner), named in their
/// "vector-function-abi-variant" attribute and kept in llvm.compiler.used, so
/// that a loop calling vf_sin still vectorizes and runs the slow path only in
/// the lanes that need it.
llvm::Error linkMathLibrary(llvm::Module &M, BitcodeTarget T);

/// The names of the math library's functions ("vf_exp", "vf_pow", ...).
llvm::ArrayRef<const char *> mathLibraryFunctions();

/// The names of its single-precision functions, in the same order: each
/// f64 name with "f" appended ("vf_expf", "vf_powf", ...), `float f(float)`
/// (`float f(float, float)` for powf and atan2f), float arithmetic only.
llvm::ArrayRef<const char *> mathLibraryFunctionsF32();

/// Whether \p Name is one of the library's out-of-line slow paths
/// (vf__exp_special, vf__sin_big, vf__sinf_big, ...): `double f(double)` or
/// `float f(float)`, pure, called by
/// the entry points only for rare arguments, behind a branch.
bool isMathSlowPath(llvm::StringRef Name);
/// The library function for a built-in ("exp" -> "vf_exp"), or nullptr if
/// the library has none.
const char *mathLibraryFunctionFor(llvm::StringRef Builtin);

} // namespace vf

#endif // VF_COMPILER_BITCODE_MATHLIBRARY_H
