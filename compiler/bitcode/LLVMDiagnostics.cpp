//===- bitcode/LLVMDiagnostics.cpp - LLVM's diagnostics as our errors -----===//

#include "bitcode/LLVMDiagnostics.h"

#include "llvm/IR/DiagnosticInfo.h"
#include "llvm/IR/DiagnosticPrinter.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/Support/raw_ostream.h"

using namespace llvm;

namespace vf {

namespace {
struct Collector : DiagnosticHandler {
  std::string *Messages;
  explicit Collector(std::string *Messages) : Messages(Messages) {}
  bool handleDiagnostics(const DiagnosticInfo &DI) override {
    if (DI.getSeverity() != DS_Error)
      return true;
    raw_string_ostream OS(*Messages);
    DiagnosticPrinterRawOStream DP(OS);
    if (!Messages->empty())
      OS << "\n";
    DI.print(DP);
    return true;
  }
};
} // namespace

LLVMDiagnosticCapture::LLVMDiagnosticCapture(LLVMContext &Ctx)
    : Ctx(Ctx), Saved(Ctx.getDiagnosticHandler()) {
  Ctx.setDiagnosticHandler(std::make_unique<Collector>(&Messages));
}

LLVMDiagnosticCapture::~LLVMDiagnosticCapture() {
  Ctx.setDiagnosticHandler(std::move(Saved));
}

Error LLVMDiagnosticCapture::takeError(StringRef Stage) {
  if (Messages.empty())
    return Error::success();
  std::string M = std::move(Messages);
  Messages.clear();
  return createStringError(inconvertibleErrorCode(), Stage + " failed: " + M);
}

} // namespace vf
