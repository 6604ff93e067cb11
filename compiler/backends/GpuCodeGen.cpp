//===- backends/GpuCodeGen.cpp - What differs between GPU targets ---------===//

#include "backends/GpuCodeGen.h"

using namespace llvm;

namespace vf {

const GpuCodeGen *gpuCodeGenForKey(StringRef Key) {
  for (const GpuCodeGen *G : {&cudaCodeGen()})
    if (Key.starts_with(G->cacheName()))
      return G;
  return nullptr;
}

} // namespace vf
