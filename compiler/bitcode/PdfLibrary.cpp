//===- compiler/bitcode/PdfLibrary.cpp - Parton densities in kernels ------===//
//
// PdfLibrary.h: the embedded builds of runtime/pdf's evaluation, linked as
// the math library is (linkEmbeddedBitcode).
//
//===----------------------------------------------------------------------===//
#include "bitcode/PdfLibrary.h"

#include "bitcode/MathLibrary.h"

#include "llvm/ADT/ArrayRef.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/Error.h"

extern "C" const unsigned char vf_bc_pdf_x86_64[];
extern "C" const unsigned long vf_bc_pdf_x86_64_len;
extern "C" const unsigned char vf_bc_pdf_nvptx64[];
extern "C" const unsigned long vf_bc_pdf_nvptx64_len;

using namespace llvm;

namespace vf {

namespace {

// The entry points a kernel calls: on one member's views (Continuation.h,
// AlphaSCoupling.h) or by index in a run's block (TableLayout.h).
const char *const EntryPoints[] = {"vf_pdf_xfxq2", "vf_pdf_alphasq2",
                                   "vf_pdf_table_xfx", "vf_pdf_table_xfx_all",
                                   "vf_pdf_table_alphas"};

} // namespace

Error linkPdfLibrary(Module &M, BitcodeTarget T) {
  const bool Host = T == BitcodeTarget::Host;
  ArrayRef<unsigned char> Bitcode =
      Host ? ArrayRef(vf_bc_pdf_x86_64, vf_bc_pdf_x86_64_len)
           : ArrayRef(vf_bc_pdf_nvptx64, vf_bc_pdf_nvptx64_len);
  if (Error E = linkEmbeddedBitcode(
          M, Bitcode, Host ? "vfpdf-x86_64.bc" : "vfpdf-nvptx64.bc"))
    return E;
  for (const char *Name : EntryPoints)
    if (Function *F = M.getFunction(Name); F && !F->isDeclaration()) {
      F->removeFnAttr(Attribute::NoInline);
      F->addFnAttr(Attribute::AlwaysInline);
    }
  return Error::success();
}

} // namespace vf
