//===- backends/ProgramImage.cpp - A program as the backends see it -------===//

#include "backends/ProgramImage.h"
#include "backends/GpuCodeGen.h"
#include "codegen/IRGen.h"
#include "frontend/ChannelQueries.h"
#include "frontend/Program.h"
#include "clang/CxxIntegrands.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace vf {

/// Everything but Generate.
static ProgramImage describe(const Program &P, bool Single) {
  ProgramImage Im;
  Im.Single = Single;
  for (const IntegrandDecl *I : P.Integrands)
    Im.Integrands.push_back(
        {I->Name, I->Dim, I->Outputs, unsigned(I->Histograms.size()),
         I->HistCells, unsigned(I->Channels.size()),
         firstChannelQuery(*I, ChannelQuery::Density) != nullptr,
         I->WeightEntries});
  Im.Params = unsigned(P.Params.size());
  Im.Foreign = foreignSources(P);
  for (const auto &M : P.Modules)
    Im.Sources.emplace_back(M->IsMain ? "<main>" : M->Path,
                            P.SM.getMemoryBuffer(M->BufferID)->getBuffer());
  Im.PdfTable = P.PdfTable;
  Im.PdfSetIdentities = P.PdfSetIdentities;
  return Im;
}

ProgramImage imageOf(const Program &P, bool Single) {
  ProgramImage Im = describe(P, Single);
  Im.Generate = [&P, Single](LLVMContext &Ctx, const GpuCodeGen *Gpu,
                             bool Batch) -> Expected<std::unique_ptr<Module>> {
    return generateModule(P, Ctx, Gpu, Batch, Single);
  };
  return Im;
}

namespace {
struct FrozenModule {
  CodeVariant Variant;
  std::string Bitcode;
};
} // namespace

ProgramImage frozenImage(const Program &P, ArrayRef<CodeVariant> Variants,
                         bool Single) {
  ProgramImage Im = describe(P, Single);
  auto Frozen = std::make_shared<std::vector<FrozenModule>>();
  for (const CodeVariant &V : Variants) {
    LLVMContext Ctx;
    std::unique_ptr<Module> M = generateModule(P, Ctx, V.Gpu, V.Batch, Single);
    FrozenModule F{V, {}};
    raw_string_ostream OS(F.Bitcode);
    WriteBitcodeToFile(*M, OS);
    OS.flush();
    Frozen->push_back(std::move(F));
  }
  Im.Generate = [Frozen](LLVMContext &Ctx, const GpuCodeGen *Gpu,
                         bool Batch) -> Expected<std::unique_ptr<Module>> {
    for (const FrozenModule &F : *Frozen)
      if (F.Variant.Gpu == Gpu && F.Variant.Batch == Batch)
        return parseBitcodeFile(
            MemoryBufferRef(F.Bitcode, "vegasflow-frozen-integrands"), Ctx);
    return createStringError(inconvertibleErrorCode(),
                             "internal error: the program was not kept for "
                             "this code target");
  };
  return Im;
}

} // namespace vf
