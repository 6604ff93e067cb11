//===- backends/LazyBatch.cpp - Batch entry points on first use -----------===//

#include "backends/LazyBatch.h"

using namespace llvm;

namespace vf {

LazyBatch::LazyBatch(Compiler &C, std::shared_ptr<const Program> P,
                     CompileOptions O)
    : C(C), P(std::move(P)), Options(std::move(O)) {}

Status LazyBatch::prepare() {
  std::call_once(Once, [this] { compile(); });
  if (!Code)
    return Error{Failure};
  return Status::ok();
}

BatchEntry LazyBatch::entry(const std::string &Name) {
  if (!prepare())
    return nullptr;
  const CompiledIntegrand *CI = Code->find(Name);
  return CI ? CI->Batch : nullptr;
}

void LazyBatch::compile() {
  CompileOptions O = Options;
  O.Host = true;
  O.PTX = false;
  O.Sampler = false;
  O.Evaluate = true;
  auto CM = C.compile(*P, O);
  if (!CM) {
    Failure = "cannot compile the batch entry points (the integrand "
              "evaluated outside the sampler): " +
              toString(CM.takeError());
    return;
  }
  Code = std::move(*CM);
}

} // namespace vf
