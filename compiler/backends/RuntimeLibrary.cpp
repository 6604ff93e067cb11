//===- backends/RuntimeLibrary.cpp - libstdc++ for the host JIT -----------===//
//
// LLJIT already searches the process's global scope, which is enough in
// vegasc. Loaded through Python, though, vegasflow's extension and the
// libstdc++ it needs are local to it (dlopen's RTLD_LOCAL) and the global
// scope misses them; a search through libstdc++'s own handle (found by the
// address of one of its functions) sees it and every library it loaded,
// in any process.
//
//===----------------------------------------------------------------------===//

#include "backends/RuntimeLibrary.h"

#include "llvm/ExecutionEngine/Orc/ExecutionUtils.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"

#include <dlfcn.h>
#include <exception>

using namespace llvm;

namespace vf {

void linkRuntimeLibrary(orc::LLJIT &J) {
  Dl_info Info;
  if (!::dladdr(reinterpret_cast<void *>(&std::terminate), &Info) ||
      !Info.dli_fname)
    return; // no shared libstdc++: its symbols are the process's own
  auto Search = orc::DynamicLibrarySearchGenerator::Load(
      Info.dli_fname, J.getDataLayout().getGlobalPrefix());
  if (!Search) {
    // The global scope remains: what it misses is reported, by name, when
    // a module that needs it is linked.
    consumeError(Search.takeError());
    return;
  }
  J.getMainJITDylib().addGenerator(std::move(*Search));
}

} // namespace vf
