//===- compiler/bitcode/MathLibrary.cpp - Link embedded bitcode -----------===//
//
// Parses embedded bitcode in place (bin2cpp aligns the arrays), adapts it to
// the destination module and links it with LinkOnlyNeeded; see
// MathLibrary.h for why each step is there. Link errors arrive through the
// LLVMContext's diagnostic handler, so a temporary handler collects them
// into an llvm::Error instead of letting the default one exit. For the host,
// linkMathLibrary then builds the masked vector variants of the library's
// out-of-line slow paths (addMaskedVariants).
//
//===----------------------------------------------------------------------===//

#include "bitcode/MathLibrary.h"
#include "bitcode/LLVMDiagnostics.h"
#include "frontend/Builtins.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/Twine.h"
#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/IR/Constants.h"
#include "llvm/IR/DerivedTypes.h"
#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/IRBuilder.h"
#include "llvm/IR/Instructions.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/MDBuilder.h"
#include "llvm/IR/Module.h"
#include "llvm/IR/VFABIDemangler.h"
#include "llvm/Linker/Linker.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBufferRef.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Transforms/Utils/ModuleUtils.h"

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

// The single-precision entry points: each f64 name with "f" appended
// ("vf_exp" -> "vf_expf"), kept, like mathFunctions(), until exit.
const std::vector<const char *> &mathFunctionsF32() {
  static const std::vector<std::string> *Names = [] {
    auto *N = new std::vector<std::string>;
    for (const char *S : mathFunctions())
      N->push_back(std::string(S) + "f");
    return N;
  }();
  static const std::vector<const char *> *F = [] {
    auto *P = new std::vector<const char *>;
    for (const std::string &S : *Names)
      P->push_back(S.c_str());
    return P;
  }();
  return *F;
}

// The library's out-of-line slow paths (stdlib/math/trig.c, log.c, exp.c,
// trigf.c): scalar `double f(double)` or `float f(float)`, called from the
// vf_* entry points only for rare arguments, behind a branch.
const char *const SlowPathFunctions[] = {
    "vf__sin_big",     "vf__cos_big",  "vf__tan_big",  "vf__log_special",
    "vf__exp_special", "vf__sinf_big", "vf__cosf_big", "vf__tanf_big"};

// The vector widths that get a masked variant, with the x86 VFABI ISA
// letter of the register they fill: SSE (xmm), AVX2 (ymm), AVX-512 (zmm);
// a register holds twice as many floats as doubles.
struct VariantWidth {
  unsigned VF;
  char ISA;
};
const VariantWidth DoubleWidths[] = {{2, 'b'}, {4, 'd'}, {8, 'e'}};
const VariantWidth FloatWidths[] = {{4, 'b'}, {8, 'd'}, {16, 'e'}};

// An internal `<VF x T> Name(<VF x T> X, <VF x i1> Mask)` for the scalar
// type T (double or float), marked like a pure function.
Function *declareMaskedFunction(Module &M, Type *T, unsigned VF,
                                const Twine &Name) {
  LLVMContext &Ctx = M.getContext();
  auto *VecTy = FixedVectorType::get(T, VF);
  auto *MaskTy = FixedVectorType::get(Type::getInt1Ty(Ctx), VF);
  Function *F = Function::Create(FunctionType::get(VecTy, {VecTy, MaskTy},
                                                   /*isVarArg=*/false),
                                 GlobalValue::InternalLinkage, Name, M);
  F->setDoesNotThrow();
  F->setWillReturn();
  F->setDoesNotAccessMemory();
  F->getArg(0)->setName("x");
  F->getArg(1)->setName("mask");
  return F;
}

// Defines `Name.lanes(X, Mask)`, noinline: calls Scalar on each set lane
// (the other lanes of the result are X's, and the vectorizer never reads
// them).
Function *defineLaneCalls(Module &M, Function &Scalar, unsigned VF,
                          StringRef Name) {
  Function *L =
      declareMaskedFunction(M, Scalar.getReturnType(), VF, Name + ".lanes");
  L->addFnAttr(Attribute::NoInline);
  Argument *X = L->getArg(0), *Mask = L->getArg(1);
  LLVMContext &Ctx = M.getContext();
  BasicBlock *Lane = BasicBlock::Create(Ctx, "lane0", L);
  BasicBlock *Done = BasicBlock::Create(Ctx, "done", L);
  IRBuilder<> B(Lane);
  // Lane I's block starts from lane I-1's vector, with or without its call.
  Value *Acc = X;
  std::vector<std::pair<Value *, BasicBlock *>> Incoming;
  for (unsigned I = 0; I < VF; ++I) {
    B.SetInsertPoint(Lane);
    BasicBlock *Call = BasicBlock::Create(Ctx, "call" + Twine(I), L, Done);
    BasicBlock *Next =
        I + 1 < VF ? BasicBlock::Create(Ctx, "lane" + Twine(I + 1), L, Done)
                   : Done;
    if (I > 0) {
      PHINode *In = B.CreatePHI(X->getType(), 2);
      for (auto &[Val, From] : Incoming)
        In->addIncoming(Val, From);
      Acc = In;
    }
    B.CreateCondBr(B.CreateExtractElement(Mask, B.getInt32(I)), Call, Next);
    B.SetInsertPoint(Call);
    CallInst *R =
        B.CreateCall(&Scalar, {B.CreateExtractElement(X, B.getInt32(I))});
    Value *WithLane = B.CreateInsertElement(Acc, R, B.getInt32(I));
    B.CreateBr(Next);
    Incoming = {{Acc, Lane}, {WithLane, Call}};
    Lane = Next;
  }
  B.SetInsertPoint(Done);
  PHINode *Result = B.CreatePHI(X->getType(), 2);
  for (auto &[Val, From] : Incoming)
    Result->addIncoming(Val, From);
  B.CreateRet(Result);
  return L;
}

// Defines the masked variant `Name(X, Mask)`: returns X at once when no
// lane is set, else the lane calls' result. It is alwaysinline, and
// optimizeModule inlines it after vectorization, so the loop itself tests
// the mask: a call in every iteration would make the loop spill every
// vector register around it (all are caller-saved). The lane calls stay
// one out-of-line call per site, which keeps the loop, and its compile
// time, small.
Function *defineMaskedVariant(Module &M, Function &Scalar, unsigned VF,
                              StringRef Name) {
  Function *Lanes = defineLaneCalls(M, Scalar, VF, Name);
  Function *V = declareMaskedFunction(M, Scalar.getReturnType(), VF, Name);
  V->addFnAttr(Attribute::AlwaysInline);
  Argument *X = V->getArg(0), *Mask = V->getArg(1);
  LLVMContext &Ctx = M.getContext();
  BasicBlock *Entry = BasicBlock::Create(Ctx, "entry", V);
  BasicBlock *Some = BasicBlock::Create(Ctx, "some", V);
  BasicBlock *None = BasicBlock::Create(Ctx, "none", V);
  IRBuilder<> B(Entry);
  Value *Bits = B.CreateBitCast(Mask, B.getIntNTy(VF));
  B.CreateCondBr(B.CreateICmpEQ(Bits, ConstantInt::get(Bits->getType(), 0)),
                 None, Some, MDBuilder(Ctx).createLikelyBranchWeights());
  B.SetInsertPoint(None);
  B.CreateRet(X);
  B.SetInsertPoint(Some);
  B.CreateRet(B.CreateCall(Lanes, {X, Mask}));
  return V;
}

// Gives each slow-path function M uses masked vector variants (widths 2, 4
// and 8 for doubles, 4, 8 and 16 for floats) and names them in its
// "vector-function-abi-variant" attribute, so that the loop vectorizer, which
// refuses a loop with a plain call, widens the guarded call into a call of the
// variant under the lane mask: the fast path runs in every lane, the slow one
// only where needed. The variants are kept in llvm.compiler.used, or GlobalDCE
// would delete them before the vectorizer runs (internalizeExcept leaves that
// appending global alone); optimizeModule drops them from the list once they
// are inlined.
void addMaskedVariants(Module &M) {
  std::vector<GlobalValue *> Keep;
  for (const char *Name : SlowPathFunctions) {
    Function *F = M.getFunction(Name);
    if (!F || F->isDeclaration() || F->use_empty() ||
        F->hasFnAttribute(VFABI::MappingsAttrName))
      continue;
    std::string Mappings;
    ArrayRef<VariantWidth> Widths(F->getReturnType()->isFloatTy()
                                      ? ArrayRef(FloatWidths)
                                      : ArrayRef(DoubleWidths));
    for (const VariantWidth &W : Widths) {
      std::string VecName = (Twine(Name) + "_vmask" + Twine(W.VF)).str();
      Keep.push_back(defineMaskedVariant(M, *F, W.VF, VecName));
      if (!Mappings.empty())
        Mappings += ",";
      // _ZGV <isa> M <vlen> v _<scalar>(<vector>): masked, one vector
      // argument, redirected to our own name.
      Mappings += (Twine("_ZGV") + Twine(W.ISA) + "M" + Twine(W.VF) + "v_" +
                   Name + "(" + VecName + ")")
                      .str();
    }
    F->addFnAttr(VFABI::MappingsAttrName, Mappings);
    // -fno-builtin marked the library's call sites "nobuiltin", and the
    // vectorizer never uses a vector variant for such a call (it would
    // scalarize it, lane by lane). These calls are to our own functions,
    // which are no builtins anyway.
    for (User *U : F->users())
      if (auto *Call = dyn_cast<CallInst>(U)) {
        Call->removeFnAttr(Attribute::NoBuiltin);
        Call->removeFnAttr("no-builtins");
      }
  }
  if (!Keep.empty())
    appendToCompilerUsed(M, Keep);
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
    LLVMDiagnosticCapture Diags(M.getContext());
    if (Linker::linkModules(M, std::move(Lib), Linker::LinkOnlyNeeded))
      return createStringError(inconvertibleErrorCode(),
                               "linking '%s' failed: %s", Name.str().c_str(),
                               Diags.messages().c_str());
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
  for (const auto *Names : {&mathFunctions(), &mathFunctionsF32()})
    for (const char *Name : *Names)
      if (Function *F = M.getFunction(Name); F && !F->isDeclaration()) {
        F->removeFnAttr(Attribute::NoInline);
        F->addFnAttr(Attribute::AlwaysInline);
      }
  // On the GPU a lane that takes the slow path just branches to it.
  if (T == BitcodeTarget::Host)
    addMaskedVariants(M);
  return Error::success();
}

ArrayRef<const char *> mathLibraryFunctions() { return mathFunctions(); }

ArrayRef<const char *> mathLibraryFunctionsF32() { return mathFunctionsF32(); }

bool isMathSlowPath(StringRef Name) {
  return is_contained(SlowPathFunctions, Name);
}

const char *mathLibraryFunctionFor(StringRef Name) {
  std::optional<Builtin> B = lookupBuiltin(Name);
  if (!B || builtinInfo(*B).MathSymbol.empty())
    return nullptr;
  return builtinInfo(*B).MathSymbol.data();
}

} // namespace vf
