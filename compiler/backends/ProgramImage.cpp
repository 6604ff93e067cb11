//===- backends/ProgramImage.cpp - A program as the backends see it -------===//

#include "backends/ProgramImage.h"
#include "backends/GpuCodeGen.h"
#include "codegen/ExprGen.h"
#include "codegen/IRGen.h"
#include "frontend/ASTDump.h"
#include "frontend/ChannelQueries.h"
#include "frontend/HistRanges.h"
#include "frontend/Program.h"
#include "clang/CxxIntegrands.h"

#include "llvm/Bitcode/BitcodeReader.h"
#include "llvm/Bitcode/BitcodeWriter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cmath>

using namespace llvm;

namespace vf {

bool unitBox(const IntegrandDecl &I) {
  const auto Is = [](const ExprPtr &E, double V) {
    return E->ConstValue && *E->ConstValue == V;
  };
  return std::all_of(I.Domain.begin(), I.Domain.end(), [&](const Interval &Iv) {
    return Iv.isInfinite() || (Is(Iv.Lo, 0) && Is(Iv.Hi, 1));
  });
}

/// Everything but Generate.
static ProgramImage describe(const Program &P, bool Single) {
  ProgramImage Im;
  Im.Single = Single;
  for (const IntegrandDecl *I : P.Integrands)
    Im.Integrands.push_back(
        {I->Name, I->Dim, I->Outputs, unsigned(I->Histograms.size()),
         I->HistCells, unsigned(I->Channels.size()),
         firstChannelQuery(*I, ChannelQuery::Density) != nullptr,
         I->WeightEntries, unitBox(*I)});
  Im.Params = unsigned(P.Params.size());
  Im.Foreign = foreignSources(P);
  for (ForeignSource &S : Im.Foreign)
    S.Single = Single;
  for (const auto &M : P.Modules)
    Im.Sources.emplace_back(M->IsMain ? "<main>" : M->Path,
                            P.SM.getMemoryBuffer(M->BufferID)->getBuffer());
  Im.PdfTable = P.PdfTable;
  Im.PdfSetIdentities = P.PdfSetIdentities;
  return Im;
}

/// \p P's module, refused in single precision where a constant of the
/// program is 0 or infinite as a float: its values would be wrong, with
/// nothing to show it.
static Expected<std::unique_ptr<Module>>
generateChecked(const Program &P, LLVMContext &Ctx, const GpuCodeGen *Gpu,
                bool Batch, bool Single) {
  if (!Single)
    return generateModule(P, Ctx, Gpu, Batch);
  SingleCodegen S;
  std::unique_ptr<Module> M = generateModule(P, Ctx, Gpu, Batch, &S);
  if (S.Lossy.empty())
    return std::move(M);
  const auto [E, V] = S.Lossy.front();
  return createStringError(
      inconvertibleErrorCode(),
      sourcePlace(P, E->loc()) + ": the constant " + formatNumber(V) + " is " +
          (std::fabs(V) < 1 ? "0" : "infinite") +
          " in single precision (a float's magnitude lies between 1.4e-45 "
          "and 3.4e38); rescale the integrand, or run it in double "
          "(precision f64)");
}

ProgramImage imageOf(const Program &P, bool Single) {
  ProgramImage Im = describe(P, Single);
  Im.Generate = [&P, Single](LLVMContext &Ctx, const GpuCodeGen *Gpu,
                             bool Batch) -> Expected<std::unique_ptr<Module>> {
    return generateChecked(P, Ctx, Gpu, Batch, Single);
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
    // The host's compile, which comes first, refused a lossy constant.
    SingleCodegen S;
    std::unique_ptr<Module> M =
        generateModule(P, Ctx, V.Gpu, V.Batch, Single ? &S : nullptr);
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
