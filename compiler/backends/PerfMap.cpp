//===- backends/PerfMap.cpp - JIT'd functions by name for perf ------------===//

#include "backends/PerfMap.h"

#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"
#include "llvm/Support/Process.h"

#include <cstdio>
#include <mutex>
#include <unistd.h>

using namespace llvm;
using namespace llvm::orc;

namespace vf {

namespace {

/// Appends each linked graph's callable symbols once their final addresses
/// are known (after fixups). The file is opened per write and appended to,
/// so concurrent links and perf's own reading never see a torn line.
class PerfMapPlugin : public ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(MaterializationResponsibility &, jitlink::LinkGraph &,
                        jitlink::PassConfiguration &Config) override {
    Config.PostFixupPasses.push_back(
        [this](jitlink::LinkGraph &G) { return record(G); });
  }
  Error notifyFailed(MaterializationResponsibility &) override {
    return Error::success();
  }
  Error notifyRemovingResources(JITDylib &, ResourceKey) override {
    return Error::success();
  }
  void notifyTransferringResources(JITDylib &, ResourceKey,
                                   ResourceKey) override {}

private:
  Error record(jitlink::LinkGraph &G) {
    std::lock_guard<std::mutex> Lock(Mutex);
    char Path[64];
    std::snprintf(Path, sizeof Path, "/tmp/perf-%d.map", int(getpid()));
    // A profiling aid: a map that cannot be written costs the names, not
    // the run.
    FILE *F = std::fopen(Path, "a");
    if (!F)
      return Error::success();
    for (jitlink::Symbol *S : G.defined_symbols())
      if (S->isCallable() && S->hasName() && S->getSize())
        std::fprintf(F, "%llx %llx %s\n",
                     (unsigned long long)S->getAddress().getValue(),
                     (unsigned long long)S->getSize(),
                     S->getName().str().c_str());
    std::fclose(F);
    return Error::success();
  }
  std::mutex Mutex;
};

} // namespace

void enablePerfMapIfRequested(LLJIT &J) {
  std::optional<std::string> V = sys::Process::GetEnv("VF_PERF_MAP");
  if (!V || V->empty() || *V == "0")
    return;
  if (auto *Layer = dyn_cast<ObjectLinkingLayer>(&J.getObjLinkingLayer()))
    Layer->addPlugin(std::make_unique<PerfMapPlugin>());
}

} // namespace vf
