//===- backends/ForeignLink.cpp - C/C++ code in an integrand module -------===//

#include "backends/ForeignLink.h"
#include "backends/GpuCodeGen.h"

#include "llvm/IR/Module.h"
#include "llvm/Linker/Linker.h"

#include <cstring>

using namespace llvm;

namespace vf {

static ForeignTarget foreignTarget(const GpuCodeGen *Gpu) {
  return Gpu ? Gpu->foreignTarget() : ForeignTarget::Host;
}

std::string foreignDigest(ArrayRef<ForeignSource> Files,
                          const GpuCodeGen *Gpu) {
  std::string D;
  for (const ForeignSource &S : Files) {
    Expected<ForeignScan> Scan =
        scanForeignSource(S.Path, foreignTarget(Gpu), S.Single);
    D += S.Path + (S.Single ? ";f32;" : ";") +
         (Scan ? Scan->Digest : "error:" + toString(Scan.takeError())) + ";";
  }
  return D;
}

Error linkForeignSources(ArrayRef<ForeignSource> Files, Module &M,
                         const GpuCodeGen *Gpu, std::string &Warnings) {
  for (const ForeignSource &S : Files) {
    Expected<std::unique_ptr<Module>> FM =
        compileForeignSource(S, foreignTarget(Gpu), M.getContext(), Warnings);
    if (!FM)
      return FM.takeError();
    (*FM)->setTargetTriple(M.getTargetTriple());
    (*FM)->setDataLayout(M.getDataLayout());
    if (Linker::linkModules(M, std::move(*FM)))
      return createStringError(inconvertibleErrorCode(),
                               "cannot link the code of '%s' into the "
                               "integrand module",
                               S.Path.c_str());
  }
  return Error::success();
}

/// "VFW1", the warnings' length (8 bytes, little-endian), the warnings,
/// the object.
static constexpr char WarningsTag[] = "VFW1";

std::string packWarnings(StringRef Warnings, StringRef Object) {
  std::string Out(WarningsTag, 4);
  uint64_t N = Warnings.size();
  for (int B = 0; B < 8; ++B)
    Out += char((N >> (8 * B)) & 0xff);
  return Out + Warnings.str() + Object.str();
}

bool unpackWarnings(std::string &Payload, std::string &Warnings) {
  if (Payload.size() < 12 || Payload.compare(0, 4, WarningsTag) != 0)
    return false;
  uint64_t N = 0;
  for (int B = 0; B < 8; ++B)
    N |= uint64_t(static_cast<unsigned char>(Payload[4 + B])) << (8 * B);
  if (N > Payload.size() - 12)
    return false;
  Warnings = Payload.substr(12, N);
  Payload.erase(0, 12 + N);
  return true;
}

} // namespace vf
